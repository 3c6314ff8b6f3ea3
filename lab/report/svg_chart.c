// SPDX-License-Identifier: MIT
#include "svg_chart.h"

#include "html_text.h"

#include <math.h>

/* The plotting area inside a 560 x 220 view box: room for the axis labels on the left and
 * below. */
#define WIDTH 560.0
#define HEIGHT 220.0
#define LEFT 56.0
#define RIGHT 12.0
#define TOP 24.0
#define BOTTOM 28.0

typedef struct {
    double x0, x1, y0, y1;
} Range;

static double px(const Range *r, double x) {
    return LEFT + (r->x1 > r->x0 ? (x - r->x0) / (r->x1 - r->x0) : 0.5) * (WIDTH - LEFT - RIGHT);
}

static double py(const Range *r, double y) {
    return TOP + (r->y1 > r->y0 ? (r->y1 - y) / (r->y1 - r->y0) : 0.5) * (HEIGHT - TOP - BOTTOM);
}

/* py of y held within the range: what falls outside (the first, widest intervals when the
 * range leaves them out) runs along the frame's edge. */
static double py_in(const Range *r, double y) {
    return py(r, y < r->y0 ? r->y0 : y > r->y1 ? r->y1 : y);
}

static void widen(Range *r, double y) {
    if (isfinite(y)) {
        r->y0 = y < r->y0 ? y : r->y0;
        r->y1 = y > r->y1 ? y : r->y1;
    }
}

static void open_svg_sized(FILE *out, const char *css_class, const char *title, int points,
                           double last, double height) {
    fprintf(out,
            "<figure class=\"chart %s\"><svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
            "data-chart=\"%s\" data-points=\"%d\" data-last=\"%.2f\">\n<title>",
            css_class, WIDTH, height, css_class, points, last);
    html_put_escaped(out, title);
    fprintf(out, "</title><text class=\"chart-title\" x=\"%.0f\" y=\"14\">", LEFT);
    html_put_escaped(out, title);
    fputs("</text>\n", out);
}

static void open_svg(FILE *out, const char *css_class, const char *title, int points, double last) {
    open_svg_sized(out, css_class, title, points, last, HEIGHT);
}

/* Room above a bar for its value label, below the title (at y = 14): measured in the page's
 * 12 px text, a label at TOP - 4 overlapped the title on nearly every run. */
#define LABEL_ROOM 14.0
#define TICKS 4 /* value labels on the left, besides the ends */

/* A round step for about TICKS intervals over span: 1, 2 or 5 times a power of ten. */
static double tick_step(double span) {
    double raw = span / TICKS, power = pow(10, floor(log10(raw)));
    double unit = raw / power;
    return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

void svg_line_chart(FILE *out, const SvgLineChart *c) {
    Range r = {c->count ? c->x[0] : 0, c->count ? c->x[c->count - 1] : 1, INFINITY, -INFINITY};
    if (c->count && c->x[0] > 0 && !c->x_first_label)
        r.x0 = 0;
    int first = (int)(c->range_skip * c->count);
    first = first < c->count ? first : c->count - 1;
    for (int i = first > 0 ? first : 0; i < c->count; i++) {
        widen(&r, c->y[i]);
        if (c->band_low)
            widen(&r, c->band_low[i]);
        if (c->band_high)
            widen(&r, c->band_high[i]);
    }
    for (int i = 0; i < c->level_count; i++)
        widen(&r, c->levels[i]);
    if (!(r.y1 >= r.y0))
        r.y0 = -1, r.y1 = 1;
    double margin = (r.y1 - r.y0) * 0.05 + 1e-9;
    r.y0 -= margin;
    r.y1 += margin;
    open_svg(out, c->css_class, c->title, c->count, c->count ? c->y[c->count - 1] : 0);
    /* Axes: the value range on the left, pairs (or the chart's x unit) below. */
    fprintf(out,
            "<rect class=\"frame\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>\n"
            "<text class=\"axis\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n"
            "<text class=\"axis\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
            LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, LEFT - 4, TOP + 4, r.y1,
            LEFT - 4, HEIGHT - BOTTOM, r.y0);
    if (c->x_first_label) { /* named ends: a ladder's limits */
        fprintf(out, "<text class=\"axis\" x=\"%.0f\" y=\"%.0f\">", LEFT, HEIGHT - 8);
        html_put_escaped(out, c->x_first_label);
        fprintf(out, "</text>\n<text class=\"axis\" x=\"%.0f\" y=\"%.0f\" "
                     "text-anchor=\"end\">", WIDTH - RIGHT, HEIGHT - 8);
        html_put_escaped(out, c->x_last_label);
        fprintf(out, " (%s)</text>\n", c->x_unit ? c->x_unit : "pairs");
    } else {
        fprintf(out,
                "<text class=\"axis\" x=\"%.0f\" y=\"%.0f\">%.0f</text>\n"
                "<text class=\"axis\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.0f %s</text>\n",
                LEFT, HEIGHT - 8, r.x0, WIDTH - RIGHT, HEIGHT - 8, r.x1,
                c->x_unit ? c->x_unit : "pairs");
    }
    /* Ticks at round values between the ends, far enough from them to stay readable. */
    double step = tick_step(r.y1 - r.y0), gap = (r.y1 - r.y0) * 0.08;
    for (double v = ceil(r.y0 / step) * step; v < r.y1; v += step)
        if (v > r.y0 + gap && v < r.y1 - gap)
            fprintf(out,
                    "<text class=\"axis tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>"
                    "<line class=\"tick\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
                    LEFT - 4, py(&r, v) + 4, fabs(v) < step / 1e6 ? 0 : v, LEFT - 3, LEFT,
                    py(&r, v), py(&r, v));
    for (int i = 0; i < c->level_count; i++)
        fprintf(out,
                "<line class=\"level\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                "<text class=\"level-label\" x=\"%.1f\" y=\"%.1f\">%s %.2f</text>\n",
                LEFT, WIDTH - RIGHT, py(&r, c->levels[i]), py(&r, c->levels[i]), LEFT + 4,
                py(&r, c->levels[i]) - 3, c->level_labels[i], c->levels[i]);
    if (c->band_low && c->band_high && c->count) {
        fprintf(out, "<polygon class=\"band\" points=\"");
        for (int i = 0; i < c->count; i++)
            fprintf(out, "%.1f,%.1f ", px(&r, c->x[i]), py_in(&r, c->band_high[i]));
        for (int i = c->count - 1; i >= 0; i--)
            fprintf(out, "%.1f,%.1f ", px(&r, c->x[i]), py_in(&r, c->band_low[i]));
        fprintf(out, "\"/>\n");
    }
    fprintf(out, "<polyline class=\"line\" points=\"");
    for (int i = 0; i < c->count; i++)
        fprintf(out, "%.1f,%.1f ", px(&r, c->x[i]), py_in(&r, c->y[i]));
    fprintf(out, "\"/>\n");
    if (c->count) /* the final value, at the line's end */
        fprintf(out,
                "<text class=\"final\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
                WIDTH - RIGHT - 2, py(&r, c->y[c->count - 1]) - 5, c->y[c->count - 1]);
    fprintf(out, "</svg></figure>\n");
}

void svg_bar_chart(FILE *out, const char *css_class, const char *title, const char *const labels[],
                   const double values[], int count) {
    double top = 0;
    for (int i = 0; i < count; i++)
        top = values[i] > top ? values[i] : top;
    open_svg(out, css_class, title, count, count ? values[count - 1] : 0);
    double slot = (WIDTH - LEFT - RIGHT) / (count ? count : 1);
    for (int i = 0; i < count; i++) {
        double height = top > 0 ? values[i] / top * (HEIGHT - TOP - BOTTOM - LABEL_ROOM) : 0;
        double x = LEFT + i * slot + slot * 0.15;
        fprintf(out,
                "<rect class=\"bar\" data-label=\"%s\" data-value=\"%.0f\" x=\"%.1f\" y=\"%.1f\" "
                "width=\"%.1f\" height=\"%.1f\"/>"
                "<text class=\"axis\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>"
                "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
                labels[i], values[i], x, HEIGHT - BOTTOM - height, slot * 0.7, height,
                x + slot * 0.35, HEIGHT - 10, labels[i], x + slot * 0.35,
                HEIGHT - BOTTOM - height - 4, values[i]);
    }
    fprintf(out, "</svg></figure>\n");
}

/* The interval chart: a row an item, its name on the left (NAMES wide), the value axis below. */
#define NAMES 120.0
#define ROW 20.0

void svg_interval_chart(FILE *out, const char *css_class, const char *title,
                        const char *const labels[], const double value[], const double low[],
                        const double high[], int count) {
    Range r = {INFINITY, -INFINITY, 0, 0};
    for (int i = 0; i < count; i++) {
        double ends[3] = {value[i], low[i], high[i]};
        for (int k = 0; k < 3; k++)
            if (isfinite(ends[k])) {
                r.x0 = ends[k] < r.x0 ? ends[k] : r.x0;
                r.x1 = ends[k] > r.x1 ? ends[k] : r.x1;
            }
    }
    if (!(r.x1 >= r.x0))
        r.x0 = -1, r.x1 = 1;
    double margin = (r.x1 - r.x0) * 0.12 + 1e-9; /* room for the value labels at the ends */
    r.x0 -= margin;
    r.x1 += margin;
    double height = TOP + count * ROW + BOTTOM, plot = WIDTH - NAMES - RIGHT;
#define IX(x) (NAMES + ((x) - r.x0) / (r.x1 - r.x0) * plot)
    open_svg_sized(out, css_class, title, count, count ? value[count - 1] : 0, height);
    fprintf(out, "<rect class=\"frame\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/>\n",
            NAMES, TOP, plot, count * ROW);
    /* Ticks at round values along the bottom, and the zero line (the anchor). */
    double step = tick_step(r.x1 - r.x0);
    for (double v = ceil(r.x0 / step) * step; v < r.x1; v += step)
        fprintf(out,
                "<text class=\"axis tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>"
                "<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>\n",
                IX(v), height - 10, fabs(v) < step / 1e6 ? 0 : v, IX(v), IX(v),
                TOP + count * ROW, TOP + count * ROW + 3);
    if (r.x0 < 0 && r.x1 > 0)
        fprintf(out, "<line class=\"level\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>\n",
                IX(0.0), IX(0.0), TOP, TOP + count * ROW);
    for (int i = 0; i < count; i++) {
        double y = TOP + (i + 0.5) * ROW;
        fputs("<g class=\"rated\" data-label=\"", out);
        html_put_escaped(out, labels[i]);
        fprintf(out,
                "\" data-value=\"%.2f\" data-low=\"%.2f\" data-high=\"%.2f\">"
                "<text class=\"axis\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
                value[i], low[i], high[i], NAMES - 6, y + 4);
        html_put_escaped(out, labels[i]);
        fprintf(out,
                "</text><line class=\"line\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>"
                "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%+.1f</text></g>\n",
                IX(low[i]), IX(high[i]), y, y, IX(value[i]), y, IX(high[i]) + 4, y + 4,
                fabs(value[i]) < 0.05 ? 0.0 : value[i]);
    }
#undef IX
    fprintf(out, "</svg></figure>\n");
}

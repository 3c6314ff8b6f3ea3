// SPDX-License-Identifier: MIT
// Inline SVG charts for the report page (no scripts, no fonts to fetch): a line over pairs with
// an optional band and horizontal reference lines, value ticks and the final value labelled, and a
// bar chart whose value labels keep clear of its title. Each chart carries its
// figures as data- attributes (the number of points, the last value) so that a test can read
// from the rendered page what was drawn.
#pragma once

#include <stdio.h>

typedef struct {
    const char *css_class; /* "llr", "elo", ... (also the chart's data-chart) */
    const char *title;
    const double *x, *y;                /* count points */
    const double *band_low, *band_high; /* NULL: no band */
    int count;
    const double *levels; /* horizontal reference lines (bounds, zero), level_count of them */
    const char *const *level_labels;
    int level_count;
    /* The share of the first points left out of the value range (0: none): the Elo's first
     * intervals are wide and would squash the rest; what falls outside runs along the edge. */
    double range_skip;
    const char *x_unit; /* the x axis's unit (a constant: not escaped); NULL: "pairs" */
    /* An x axis from the first point instead of 0, its ends named by these texts instead of
     * their numbers (escaped; a ladder's first and last limits). NULL: from 0, numbers. */
    const char *x_first_label, *x_last_label;
} SvgLineChart;

void svg_line_chart(FILE *out, const SvgLineChart *chart);

/* Bars with labels and values (the pentanomial, the end reasons). */
void svg_bar_chart(FILE *out, const char *css_class, const char *title, const char *const labels[],
                   const double values[], int count);

/* A value with its interval for each of count items, a row each in the given order (a rating
 * list: engines, Elo, 95% interval), a line at zero; each row carries data-label, data-value,
 * data-low and data-high. */
void svg_interval_chart(FILE *out, const char *css_class, const char *title,
                        const char *const labels[], const double value[], const double low[],
                        const double high[], int count);

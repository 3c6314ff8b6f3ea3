// SPDX-License-Identifier: MIT
#include "timing.h"

#include "describe.h"

#include <stdlib.h>
#include <string.h>

/* A spread of the per-round ratios, or a wall time above the CPU time, beyond this fraction
 * earns a note: the figures then move more than most effects worth measuring. */
#define TIMING_NOISE_FRACTION 0.10

static const char *const SIDE_NAMES[2] = {"base", "cand"};

bool timing_add_round(TimingSamples *samples, const double wall[2], const double cpu[2]) {
    if (samples->rounds >= TIMING_ROUNDS_MAX)
        return false;
    for (int side = 0; side < 2; side++) {
        samples->wall[side][samples->rounds] = wall[side];
        samples->cpu[side][samples->rounds] = cpu[side];
    }
    samples->rounds++;
    return true;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double timing_median(const double *values, int count) {
    double sorted[TIMING_ROUNDS_MAX];
    memcpy(sorted, values, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_doubles);
    return count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

double timing_minimum(const double *values, int count) {
    double low = values[0];
    for (int i = 1; i < count; i++)
        if (values[i] < low)
            low = values[i];
    return low;
}

/* The lowest and highest of cand[i] / base[i]. */
static void ratio_range(const double *base, const double *cand, int count, double *low,
                        double *high) {
    *low = *high = describe_ratio(cand[0], base[0]);
    for (int i = 1; i < count; i++) {
        double r = describe_ratio(cand[i], base[i]);
        if (r < *low)
            *low = r;
        if (r > *high)
            *high = r;
    }
}

void timing_summarize(const TimingSamples *samples, TimingSummary *summary) {
    memset(summary, 0, sizeof *summary);
    int n = samples->rounds;
    summary->rounds = n;
    if (n < 1)
        return;
    for (int side = 0; side < 2; side++) {
        TimingSide *s = &summary->side[side];
        s->wall_min = timing_minimum(samples->wall[side], n);
        s->wall_median = timing_median(samples->wall[side], n);
        s->cpu_min = timing_minimum(samples->cpu[side], n);
        s->cpu_median = timing_median(samples->cpu[side], n);
    }
    const TimingSide *base = &summary->side[0], *cand = &summary->side[1];
    summary->wall_ratio = describe_ratio(cand->wall_median, base->wall_median);
    summary->cpu_ratio = describe_ratio(cand->cpu_median, base->cpu_median);
    ratio_range(samples->wall[0], samples->wall[1], n, &summary->wall_ratio_low,
                &summary->wall_ratio_high);
    ratio_range(samples->cpu[0], samples->cpu[1], n, &summary->cpu_ratio_low,
                &summary->cpu_ratio_high);
}

const char *timing_noise_note(const TimingSummary *summary, int threads, char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    if (summary->rounds >= 2 && summary->cpu_ratio_low > 0 &&
        summary->cpu_ratio_high / summary->cpu_ratio_low > 1 + TIMING_NOISE_FRACTION)
        used += (size_t)snprintf(out, size,
                                 "the rounds' CPU ratios spread from %.3f to %.3f: the machine's "
                                 "load changed between runs; more rounds (-repeat) narrow the "
                                 "median",
                                 summary->cpu_ratio_low, summary->cpu_ratio_high);
    for (int side = 0; side < 2 && threads == 1; side++) {
        const TimingSide *s = &summary->side[side];
        if (s->cpu_median > 0 && s->wall_median > s->cpu_median * (1 + TIMING_NOISE_FRACTION)) {
            snprintf(out + (used < size ? used : size), used < size ? size - used : 0,
                     "%sthe %s's wall time is %.2fx its CPU time: the core was shared, so the "
                     "CPU ratio is the better figure",
                     used ? "; " : "", SIDE_NAMES[side], s->wall_median / s->cpu_median);
            break;
        }
    }
    return out[0] ? out : NULL;
}

void timing_print(const TimingSummary *summary, int threads, FILE *out) {
    fprintf(out, "\ntiming: %d round(s), base and cand interleaved, %d thread(s)\n",
            summary->rounds, threads);
    fprintf(out, "%-6s %10s %10s %10s %10s\n", "side", "wall min", "wall med", "cpu min",
            "cpu med");
    for (int side = 0; side < 2; side++) {
        const TimingSide *s = &summary->side[side];
        fprintf(out, "%-6s %9.3fs %9.3fs %9.3fs %9.3fs\n", SIDE_NAMES[side], s->wall_min,
                s->wall_median, s->cpu_min, s->cpu_median);
    }
    fprintf(out, "time ratio cand/base (medians): wall %.4f [rounds %.3f-%.3f], cpu %.4f "
                 "[rounds %.3f-%.3f]\n",
            summary->wall_ratio, summary->wall_ratio_low, summary->wall_ratio_high,
            summary->cpu_ratio, summary->cpu_ratio_low, summary->cpu_ratio_high);
    char note[512];
    if (timing_noise_note(summary, threads, note, sizeof note))
        fprintf(out, "note: %s\n", note);
}

static cJSON *side_json(const TimingSamples *samples, const TimingSide *s, int side) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddItemToObject(json, "wall", cJSON_CreateDoubleArray(samples->wall[side],
                                                                samples->rounds));
    cJSON_AddItemToObject(json, "cpu", cJSON_CreateDoubleArray(samples->cpu[side],
                                                               samples->rounds));
    cJSON_AddNumberToObject(json, "wall_min", s->wall_min);
    cJSON_AddNumberToObject(json, "wall_median", s->wall_median);
    cJSON_AddNumberToObject(json, "cpu_min", s->cpu_min);
    cJSON_AddNumberToObject(json, "cpu_median", s->cpu_median);
    return json;
}

cJSON *timing_json(const TimingSamples *samples, const TimingSummary *summary) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "rounds", summary->rounds);
    for (int side = 0; side < 2; side++)
        cJSON_AddItemToObject(json, SIDE_NAMES[side],
                              side_json(samples, &summary->side[side], side));
    cJSON_AddNumberToObject(json, "wall_ratio", summary->wall_ratio);
    cJSON_AddNumberToObject(json, "cpu_ratio", summary->cpu_ratio);
    double wall_range[2] = {summary->wall_ratio_low, summary->wall_ratio_high};
    double cpu_range[2] = {summary->cpu_ratio_low, summary->cpu_ratio_high};
    cJSON_AddItemToObject(json, "wall_ratio_range", cJSON_CreateDoubleArray(wall_range, 2));
    cJSON_AddItemToObject(json, "cpu_ratio_range", cJSON_CreateDoubleArray(cpu_range, 2));
    return json;
}

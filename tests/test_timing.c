// SPDX-License-Identifier: MIT
// The interleaved timing summary (bench/timing.c) on hand-made samples whose minima, medians and
// ratios are known, and its noise notes.
#include "timing.h"

#include "test_util.h"

#include <math.h>

static TimingSamples samples_of(const double base_wall[], const double cand_wall[],
                                const double base_cpu[], const double cand_cpu[], int rounds) {
    TimingSamples samples = {0};
    for (int i = 0; i < rounds; i++) {
        double wall[2] = {base_wall[i], cand_wall[i]}, cpu[2] = {base_cpu[i], cand_cpu[i]};
        assert_true(timing_add_round(&samples, wall, cpu));
    }
    return samples;
}

/* Odd count: the middle value; even: the mean of the middle two; minima; the ratio of the
 * medians is not the median of the ratios, and the per-round range brackets the rounds. */
static void summary__minimum_median_and_ratio_range(void **state) {
    (void)state;
    const double base_wall[] = {3.0, 1.0, 2.0}, cand_wall[] = {2.0, 4.0, 3.0};
    TimingSamples odd = samples_of(base_wall, cand_wall, base_wall, cand_wall, 3);
    TimingSummary t;
    timing_summarize(&odd, &t);
    assert_int_equal(t.rounds, 3);
    assert_float_equal(t.side[0].wall_min, 1.0, 1e-12);
    assert_float_equal(t.side[0].wall_median, 2.0, 1e-12);
    assert_float_equal(t.side[1].wall_median, 3.0, 1e-12);
    assert_float_equal(t.wall_ratio, 1.5, 1e-12);
    /* Rounds: 2/3, 4/1, 3/2. */
    assert_float_equal(t.wall_ratio_low, 2.0 / 3.0, 1e-12);
    assert_float_equal(t.wall_ratio_high, 4.0, 1e-12);

    const double even_base[] = {4.0, 1.0, 3.0, 2.0}, even_cand[] = {2.0, 2.0, 2.0, 2.0};
    TimingSamples even = samples_of(even_base, even_cand, even_base, even_cand, 4);
    timing_summarize(&even, &t);
    assert_float_equal(t.side[0].cpu_median, 2.5, 1e-12);
    assert_float_equal(t.cpu_ratio, 0.8, 1e-12);
}

static void samples__full_after_the_maximum(void **state) {
    (void)state;
    TimingSamples samples = {0};
    double wall[2] = {1, 1}, cpu[2] = {1, 1};
    for (int i = 0; i < TIMING_ROUNDS_MAX; i++)
        assert_true(timing_add_round(&samples, wall, cpu));
    assert_false(timing_add_round(&samples, wall, cpu));
    assert_int_equal(samples.rounds, TIMING_ROUNDS_MAX);
}

/* Quiet rounds: no note. Rounds whose ratios spread by more than 10%: a note naming the range.
 * One thread whose wall time exceeds its CPU time by more than 10%: a note; with two threads
 * that test is not made (an uneven split idles threads at the end). */
static void notes__spread_and_shared_core(void **state) {
    (void)state;
    char note[512];
    TimingSummary t;
    const double base[] = {1.00, 1.01, 0.99}, cand[] = {1.10, 1.11, 1.09};
    TimingSamples quiet = samples_of(base, cand, base, cand, 3);
    timing_summarize(&quiet, &t);
    assert_null(timing_noise_note(&t, 1, note, sizeof note));

    const double noisy_cand[] = {1.10, 1.40, 1.09};
    TimingSamples noisy = samples_of(base, noisy_cand, base, noisy_cand, 3);
    timing_summarize(&noisy, &t);
    assert_non_null(timing_noise_note(&t, 1, note, sizeof note));
    assert_non_null(strstr(note, "spread from 1.100 to 1.386"));

    const double cpu_base[] = {0.5, 0.5, 0.5}, cpu_cand[] = {0.55, 0.55, 0.55};
    TimingSamples shared = samples_of(base, cand, cpu_base, cpu_cand, 3);
    timing_summarize(&shared, &t);
    assert_non_null(timing_noise_note(&t, 1, note, sizeof note));
    assert_non_null(strstr(note, "the base's wall time is 2.00x its CPU time"));
    assert_null(timing_noise_note(&t, 2, note, sizeof note));
}

static void json__samples_and_ratios(void **state) {
    (void)state;
    const double base[] = {1.0, 2.0}, cand[] = {1.5, 3.0};
    TimingSamples samples = samples_of(base, cand, base, cand, 2);
    TimingSummary t;
    timing_summarize(&samples, &t);
    cJSON *json = timing_json(&samples, &t);
    assert_int_equal(cJSON_GetObjectItem(json, "rounds")->valueint, 2);
    cJSON *side = cJSON_GetObjectItem(json, "cand");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(side, "wall")), 2);
    assert_float_equal(cJSON_GetObjectItem(side, "wall_median")->valuedouble, 2.25, 1e-12);
    assert_float_equal(cJSON_GetObjectItem(json, "cpu_ratio")->valuedouble, 1.5, 1e-12);
    cJSON_Delete(json);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary__minimum_median_and_ratio_range),
        cmocka_unit_test(samples__full_after_the_maximum),
        cmocka_unit_test(notes__spread_and_shared_core),
        cmocka_unit_test(json__samples_and_ratios),
    };
    return RUN_TESTS("timing", tests);
}

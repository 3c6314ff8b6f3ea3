// SPDX-License-Identifier: MIT
#include "calibrate.h"

#include "cli.h"
#include "program.h"
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One engine being measured: its search without a clock (a program is started without
 * nodestime, which it would otherwise apply to the searches measured). */
typedef struct {
    int engine; /* in the settings */
    EngineSpec spec;
    Searcher searcher;
    bool searcher_ready;
    EngineProgram program;
    bool program_started;
    double sample[CALIBRATE_ROUNDS];
    int64_t cpu_us, wall_us; /* an in-process engine's searches: this thread's CPU, the wall */
} Measured;

/* This thread's CPU time in microseconds. */
static int64_t thread_cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of CALIBRATE_ROUNDS values and its interval. */
static void median_interval(const double *values, double *median, double *low, double *high) {
    double sorted[CALIBRATE_ROUNDS];
    memcpy(sorted, values, sizeof sorted);
    qsort(sorted, CALIBRATE_ROUNDS, sizeof sorted[0], compare_doubles);
    *median = sorted[CALIBRATE_ROUNDS / 2];
    *low = sorted[CALIBRATE_LOW_RANK - 1];
    *high = sorted[CALIBRATE_HIGH_RANK - 1];
}

bool calibrate_recorded_agrees(const EngineSpec *spec, Error *err) {
    const NodestimeAuto *a = &spec->timing.measured;
    if (!a->on || !a->samples)
        return true;
    if (a->samples != CALIBRATE_ROUNDS)
        return error_set(err,
                         "engine %s: \"nodestime_auto\" holds %d samples; a measurement is "
                         "%d rounds",
                         spec->name, a->samples, CALIBRATE_ROUNDS);
    double median, low, high;
    median_interval(a->sample, &median, &low, &high);
    int64_t nodestime = median < 1 ? 1 : llround(median);
    if (nodestime != spec->timing.nodestime)
        return error_set(err,
                         "engine %s: \"nodestime\" is %lld, but its recorded calibration "
                         "samples give %lld (their median): the run would go on at another "
                         "speed than it played",
                         spec->name, (long long)spec->timing.nodestime, (long long)nodestime);
    if (low != a->low || high != a->high)
        return error_set(err,
                         "engine %s: the interval of \"nodestime_auto\" is [%.17g, %.17g], "
                         "its samples give [%.17g, %.17g]",
                         spec->name, a->low, a->high, low, high);
    return true;
}

/* The 1-minute load average (-1 when the system does not say). */
static double load_average(void) {
    FILE *f = fopen("/proc/loadavg", "r");
    double load = -1;
    if (f && fscanf(f, "%lf", &load) != 1)
        load = -1;
    if (f)
        fclose(f);
    return load;
}

static bool measured_open(Measured *m, const EngineSpec *spec, const atomic_bool *abort,
                          Error *err) {
    m->spec = *spec;
    m->spec.timing.nodestime = 0;
    m->spec.timing.tc = (TimeControl){0};
    if (engine_is_program(spec)) {
        Error inner;
        if (!program_start(&m->program, &m->spec, abort, &inner))
            return error_set(err, "nodestime=auto: %s", inner.text);
        m->program_started = true;
        return true;
    }
    m->spec.config.depth = 0;
    m->spec.config.nodes = 0;
    m->spec.config.movetime = CALIBRATE_MOVETIME_MS;
    if (!searcher_init(&m->searcher, &m->spec.config, err))
        return false;
    m->searcher_ready = true;
    return true;
}

static void measured_close(Measured *m) {
    if (m->program_started)
        program_stop(&m->program);
    if (m->searcher_ready)
        searcher_destroy(&m->searcher);
    m->program_started = m->searcher_ready = false;
}

/* A program's fixed search: go movetime, waited for as a match waits for it. */
static bool program_search(Measured *m, const Board *position, uint64_t *nodes, int64_t *us,
                           Error *err) {
    Game game;
    if (!program_new_game(&m->program, err) || !game_init(&game, position, err))
        return false;
    ProgramGo go = {.movetime = CALIBRATE_MOVETIME_MS,
                    .timed = true,
                    .wait_ms = CALIBRATE_MOVETIME_MS + m->spec.timing.timemargin};
    ProgramMove played;
    char detail[256];
    ProgramOutcome outcome = program_play(&m->program, &game, &go, &played, detail, sizeof detail);
    game_destroy(&game);
    if (outcome == PROGRAM_ABORTED)
        return error_set(err, "aborted");
    if (outcome != PROGRAM_MOVED)
        return error_set(err,
                         "nodestime=auto: engine %s did not finish its calibration search (go "
                         "movetime %d) within %lld ms: %s",
                         m->spec.name, CALIBRATE_MOVETIME_MS, (long long)go.wait_ms, detail);
    if (!played.nodes)
        return error_set(err,
                         "nodestime=auto: engine %s reported no nodes for its calibration search "
                         "(an info line with nodes N): its speed cannot be measured",
                         m->spec.name);
    *nodes = played.nodes;
    *us = played.elapsed_us;
    return true;
}

/* One round's sample of an engine: its searches' nodes over their wall time, in nodes per ms. */
static bool measure_round(Measured *m, const Book *book, const atomic_bool *abort, double *sample,
                          Error *err) {
    uint64_t nodes = 0;
    int64_t us = 0;
    for (int i = 0; i < CALIBRATE_SEARCHES; i++) {
        const Board *position = &book->entries[(int64_t)i * book->count / CALIBRATE_SEARCHES].board;
        uint64_t n = 0;
        int64_t t = 0;
        if (m->program_started) {
            if (!program_search(m, position, &n, &t, err))
                return false;
        } else {
            int64_t started = cli_now_us(), cpu = thread_cpu_us();
            SearchResult r = search_run(&m->searcher, position, NULL, 0);
            t = cli_now_us() - started;
            m->cpu_us += thread_cpu_us() - cpu;
            m->wall_us += t;
            n = r.stats.nodes;
            if (r.failed)
                return error_set(err, "nodestime=auto: out of memory in engine %s's search",
                                 m->spec.name);
        }
        if (atomic_load(abort))
            return error_set(err, "aborted");
        nodes += n;
        us += t;
    }
    if (us <= 0 || nodes == 0)
        return error_set(err, "nodestime=auto: engine %s searched no nodes in %d searches",
                         m->spec.name, CALIBRATE_SEARCHES);
    *sample = (double)nodes * 1000.0 / (double)us;
    return true;
}

/* Records an engine's measurement in its timing and prints it. */
static void record(EngineSpec *spec, const Measured *m, double load, const char *host,
                   const char *utc, FILE *out) {
    NodestimeAuto *a = &spec->timing.measured;
    double median;
    a->samples = CALIBRATE_ROUNDS;
    memcpy(a->sample, m->sample, sizeof m->sample);
    median_interval(m->sample, &median, &a->low, &a->high);
    a->searches = CALIBRATE_SEARCHES;
    a->movetime_ms = CALIBRATE_MOVETIME_MS;
    a->load = load;
    a->cores = cli_cores();
    a->cpu_share = m->wall_us ? (double)m->cpu_us / (double)m->wall_us : -1;
    snprintf(a->host, sizeof a->host, "%s", host);
    snprintf(a->utc, sizeof a->utc, "%s", utc);
    spec->timing.nodestime = median < 1 ? 1 : llround(median);
    char share[160] = "";
    if (a->cpu_share >= 0)
        snprintf(share, sizeof share, "; its searches had %.0f%% of a core%s", 100 * a->cpu_share,
                 a->cpu_share < CALIBRATE_BUSY_SHARE
                     ? ": the machine was busy, and the number measures it so (on an idle "
                       "machine it would be higher)"
                     : "");
    fprintf(out,
            "nodestime=auto: engine %s searches %lld nodes a ms [%.0f, %.0f] (the median of %d "
            "rounds of %d searches of %d ms)%s\n",
            spec->name, (long long)spec->timing.nodestime, a->low, a->high, CALIBRATE_ROUNDS,
            CALIBRATE_SEARCHES, CALIBRATE_MOVETIME_MS, share);
}

/* An earlier engine of the run that searches as e does (the same configuration, or the same
 * program and options): a ladder's steps, an engine given twice with other clocks. Measured
 * once, so that they share one speed. -1: none. */
static int same_search(const MatchSettings *s, int e) {
    const EngineSpec *x = &s->engines[e];
    for (int j = 0; j < e; j++) {
        const EngineSpec *y = &s->engines[j];
        if (!y->timing.measured.on || engine_is_program(x) != engine_is_program(y))
            continue;
        if (engine_is_program(x) ? !strcmp(x->program.cmd, y->program.cmd) &&
                                       !strcmp(x->program.args, y->program.args) &&
                                       !strcmp(x->program.options, y->program.options)
                                 : config_hash(&x->config) == config_hash(&y->config))
            return j;
    }
    return -1;
}

bool calibrate_engines(MatchSettings *s, const Book *book, const atomic_bool *abort, FILE *out,
                       Error *err) {
    Measured *m = calloc((size_t)s->engine_count, sizeof *m);
    if (!m)
        return error_set(err, "out of memory");
    int count = 0;
    bool ok = true;
    for (int e = 0; e < s->engine_count && ok; e++) {
        const NodestimeAuto *a = &s->engines[e].timing.measured;
        if (!a->on || a->samples || same_search(s, e) >= 0)
            continue;
        m[count].engine = e;
        ok = measured_open(&m[count], &s->engines[e], abort, err);
        count++;
    }
    if (!ok || !count) {
        for (int i = 0; i < count; i++)
            measured_close(&m[i]);
        free(m);
        return ok;
    }
    char host[NODESTIME_HOST_MAX], utc[CLI_UTC_TEXT_MAX];
    cli_hostname(host, sizeof host);
    cli_utc_now(utc);
    double load = load_average(), started = cli_now_seconds();
    /* Round by round, every engine in turn, the order reversed every other round: a change of
     * the machine's load meets them all. */
    for (int round = 0; round < CALIBRATE_ROUNDS && ok; round++)
        for (int i = 0; i < count && ok; i++) {
            Measured *x = &m[round % 2 ? count - 1 - i : i];
            ok = measure_round(x, book, abort, &x->sample[round], err);
        }
    for (int i = 0; i < count; i++)
        measured_close(&m[i]);
    if (ok) {
        for (int i = 0; i < count; i++)
            record(&s->engines[m[i].engine], &m[i], load, host, utc, out);
        for (int e = 0; e < s->engine_count; e++) {
            NodestimeAuto *a = &s->engines[e].timing.measured;
            int same = a->on && !a->samples ? same_search(s, e) : -1;
            if (same < 0)
                continue;
            *a = s->engines[same].timing.measured;
            s->engines[e].timing.nodestime = s->engines[same].timing.nodestime;
        }
        int cores = cli_cores();
        fprintf(out,
                "nodestime=auto: measured in %.1f s on %s (load %.2f on %d cores as it "
                "began)\n",
                cli_now_seconds() - started, host, load, cores);
    }
    free(m);
    return ok;
}

SpeedRatio calibrate_speed_ratio(const EngineTiming *first, const EngineTiming *second) {
    SpeedRatio r = {false, 0, 0, 0};
    const NodestimeAuto *a = &first->measured, *b = &second->measured;
    bool measured_a = a->on && a->samples == CALIBRATE_ROUNDS;
    bool measured_b = b->on && b->samples == CALIBRATE_ROUNDS;
    if (!first->nodestime || !second->nodestime || (!measured_a && !measured_b))
        return r;
    r.known = true;
    r.ratio = (double)first->nodestime / (double)second->nodestime;
    if (measured_a && measured_b) { /* measured in the same rounds: the rounds' ratios */
        double ratios[CALIBRATE_ROUNDS], median;
        for (int i = 0; i < CALIBRATE_ROUNDS; i++)
            ratios[i] = a->sample[i] / b->sample[i];
        median_interval(ratios, &median, &r.low, &r.high);
        /* The ratio used is of the medians; the interval is the rounds' spread around it. */
        r.low *= r.ratio / median;
        r.high *= r.ratio / median;
        return r;
    }
    const NodestimeAuto *x = measured_a ? a : b;
    double median = (double)(measured_a ? first : second)->nodestime;
    double low = x->low / median, high = x->high / median;
    r.low = r.ratio * (measured_a ? low : 1 / high);
    r.high = r.ratio * (measured_a ? high : 1 / low);
    return r;
}

double calibrate_elo_worth(const SpeedRatio *r) {
    if (!r->known || r->low <= 0)
        return 0;
    double up = log2(r->high / r->ratio), down = log2(r->ratio / r->low);
    return CALIBRATE_DOUBLING_ELO * (up > down ? up : down);
}

void calibrate_print_ratio(FILE *out, const MatchSettings *s) {
    if (s->engine_count < 2)
        return;
    SpeedRatio r = calibrate_speed_ratio(&s->engines[0].timing, &s->engines[1].timing);
    if (!r.known)
        return;
    fprintf(out,
            "Speed ratio %s/%s: %.3f [%.3f, %.3f] (nodestime=auto); a calibration error within "
            "it is worth up to +/- %.1f Elo (%.0f Elo a doubling of nodes)\n",
            s->engines[0].name, s->engines[1].name, r.ratio, r.low, r.high, calibrate_elo_worth(&r),
            CALIBRATE_DOUBLING_ELO);
}

// SPDX-License-Identifier: MIT
#include "tune.h"

#include "arguments.h"
#include "cli.h"
#include "describe.h"
#include "fingerprint.h"
#include "fnv.h"
#include "gnuplot.h"
#include "output.h"
#include "pair_pool.h"
#include "parse.h"
#include "rng.h"
#include "schedule.h"
#include "spsa.h"
#include "tablebase.h"
#include "textfile.h"
#include "tune_file.h"
#include "tuning.h"

#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    /* The run as its arguments give it, and its progress: the parameters (theta is their
     * value), the finished iterations, the inputs' hashes, the build (tune_file.h). */
    TuneRecord record;
    SpsaSchedule schedule;
    int pairs; /* per iteration */
    MatchSettings match;
    char out_path[SETTINGS_PATH_MAX];
    char plot_path[SETTINGS_PATH_MAX];
    /* For the games: the iteration's job (the match with its two engines), and the pool. */
    Book book;
    Schedule order;
    Tablebase *tablebase;
    int concurrency_given; /* -concurrency as given (0: none), for the other ranks */
    MatchSettings job;
    PairPool *pool;
    SessionRanks session; /* the ranks, when other ranks play */
    OutputPlan outputs;   /* -out and -plot against the inputs (cli/output.h) */
    bool help_shown;      /* -help or -version among the options: printed, nothing to run */
} Tune;

/* An input file's hash, recorded so that a resume finds the same file. */
static bool add_input(Tune *t, const char *option, const char *path, uint64_t hash, Error *err) {
    TuneRecord *r = &t->record;
    if (r->input_count == TUNE_INPUTS_MAX)
        return error_set(err, "more than %d input files", TUNE_INPUTS_MAX);
    TuneInput *input = &r->inputs[r->input_count++];
    snprintf(input->option, sizeof input->option, "%s", option);
    snprintf(input->path, sizeof input->path, "%s", path);
    input->hash = hash;
    return true;
}

static bool add_param(Tune *t, const char *line, const char *where, Error *err) {
    TuneRecord *r = &t->record;
    if (r->count == TUNE_PARAMS_MAX)
        return error_set(err, "%s: more than %d parameters", where, TUNE_PARAMS_MAX);
    SpsaParam *p = &r->params[r->count];
    Error inner = {{0}};
    if (!spsa_parse_line(line, p, &inner))
        return error_set(err, "%s: %s", where, inner.text);
    if (!tuning_option_check(p->name, &inner))
        return error_set(err, "%s: %s", where, inner.text);
    if (p->type != SPSA_INT)
        return error_set(err, "%s: %s is an integer option: give its type as int", where, p->name);
    const OptionSpec *spec = config_find(p->name);
    if (p->min < (double)spec->min || p->max > (double)spec->max)
        return error_set(err,
                         "%s: %s: [MIN, MAX] = [%g, %g] goes beyond the values the option "
                         "takes (%lld..%lld)",
                         where, p->name, p->min, p->max, (long long)spec->min,
                         (long long)spec->max);
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->params[i].name, p->name) == 0)
            return error_set(err, "%s: %s is given twice", where, p->name);
    r->count++;
    return true;
}

static bool add_params_file(Tune *t, const char *path, Error *err) {
    char *text;
    size_t length;
    Error inner = {{0}};
    if (!textfile_read(path, 1u << 20, false, &text, &length, &inner))
        return error_set(err, "-params: %s", inner.text);
    int line_number = 0;
    bool ok = add_input(t, "-params", path, fnv_bytes(FNV_OFFSET_BASIS, text, length), err);
    for (char *line = text, *next; ok && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_number++;
        char *comment = strchr(line, '#'); /* to the end of the line, as docs/tuning.md says */
        if (comment)
            *comment = '\0';
        char *start = line + strspn(line, " \t\r");
        if (*start == '\0')
            continue;
        char where[SETTINGS_PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d", path, line_number);
        ok = add_param(t, start, where, err);
    }
    free(text);
    return ok;
}

static bool check_schedules(const Tune *t, Error *err);

static const char TUNE_USAGE[] =
    "usage: abtest tune -param LINE ... | -params FILE -iterations N [-pairs P]\n"
    "                   [-alpha X] [-gamma X] [-a-ratio X] [-out F.json] [-plot F.png]\n"
    "                   [-each key=value ...] [the match's options below]\n"
    "       abtest tune -resume F.json [-allow-engine-change]\n"
    "  SPSA over search options (docs/tuning.md): each iteration plays the -each\n"
    "  configuration with the parameters at theta + c_k * delta against theta - c_k *\n"
    "  delta over P pairs (default 8), then moves theta. LINE: NAME, int, START, MIN,\n"
    "  MAX, C_END, R_END (bench options -spsa prints them).\n";

/* The tuner's own options, as the match's parser hands them over. */
typedef struct {
    Tune *tune;
    double iterations, pairs;
} TuneOptions;

static bool take_number(const char *option, const char *value, double min, double max,
                        double *out, Error *err) {
    Error inner = {{0}};
    if (!parse_double(value, min, max, out, &inner))
        return error_set(err, "%s: %s", option, inner.text);
    return true;
}

static bool take_param(void *context, const char *value, Error *err) {
    return add_param(((TuneOptions *)context)->tune, value, "-param", err);
}
static bool take_params(void *context, const char *value, Error *err) {
    return add_params_file(((TuneOptions *)context)->tune, value, err);
}
static bool take_iterations(void *context, const char *value, Error *err) {
    return take_number("-iterations", value, 1, 1e9, &((TuneOptions *)context)->iterations, err);
}
static bool take_pairs(void *context, const char *value, Error *err) {
    return take_number("-pairs", value, 1, 1e6, &((TuneOptions *)context)->pairs, err);
}
static bool take_alpha(void *context, const char *value, Error *err) {
    return take_number("-alpha", value, 1e-9, 1, &((TuneOptions *)context)->tune->schedule.alpha,
                       err);
}
static bool take_gamma(void *context, const char *value, Error *err) {
    return take_number("-gamma", value, 1e-9, 1, &((TuneOptions *)context)->tune->schedule.gamma,
                       err);
}
static bool take_a_ratio(void *context, const char *value, Error *err) {
    return take_number("-a-ratio", value, 0, 1e6,
                       &((TuneOptions *)context)->tune->schedule.a_ratio, err);
}
static bool take_path(const char *option, const char *value, char *out, Error *err) {
    if (strlen(value) >= SETTINGS_PATH_MAX)
        return error_set(err, "%s: the path is too long", option);
    snprintf(out, SETTINGS_PATH_MAX, "%s", value);
    return true;
}
static bool take_out(void *context, const char *value, Error *err) {
    return take_path("-out", value, ((TuneOptions *)context)->tune->out_path, err);
}
static bool take_plot(void *context, const char *value, Error *err) {
    return take_path("-plot", value, ((TuneOptions *)context)->tune->plot_path, err);
}

static const ArgumentsOwn TUNE_OPTIONS[] = {
    {"-param", "a line: NAME, int, START, MIN, MAX, C_END, R_END", take_param},
    {"-params", "a file", take_params},
    {"-iterations", "a number", take_iterations},
    {"-pairs", "a number", take_pairs},
    {"-alpha", "a number", take_alpha},
    {"-gamma", "a number", take_gamma},
    {"-a-ratio", "a number", take_a_ratio},
    {"-out", "a file", take_out},
    {"-plot", "a file (F.png)", take_plot},
};

static const ArgumentsCommand TUNE_COMMAND = {
    .usage = TUNE_USAGE,
    .trait = SETTINGS_FOR_TUNE,
    .makes = "abtest tune makes its two engines itself (the configuration from -each, the "
             "parameters from -param), and plays -iterations times -pairs pairs",
    .own = TUNE_OPTIONS,
    .own_count = sizeof TUNE_OPTIONS / sizeof TUNE_OPTIONS[0],
    .engine_names = {"plus", "minus"},
};

/* Reads the tuner's options and the match's that tune takes (the rows marked
 * SETTINGS_FOR_TUNE): the two engines are the -each configuration, plus and minus. */
static bool parse_run(Tune *t, int argc, char **argv, Error *err) {
    memset(t, 0, sizeof *t);
    tune_record_init(&t->record);
    if (!word_list_set(&t->record.arguments, argc, argv, err))
        return false;
    t->schedule = spsa_schedule_default(0);
    t->pairs = 8;
    TuneOptions options = {t, 0, t->pairs};
    bool exit_now;
    if (!arguments_parse_command(&TUNE_COMMAND, &options, argc, argv, &t->match, &exit_now, err))
        return false;
    if (exit_now) { /* -help or -version, printed: the run ends at once, exit status 0 */
        t->help_shown = true;
        return true;
    }
    if (t->record.count == 0)
        return error_set(err, "no parameter: give -param LINE or -params FILE");
    if (options.iterations != floor(options.iterations) || options.pairs != floor(options.pairs))
        return error_set(err, "-iterations and -pairs are whole numbers");
    if (options.iterations == 0)
        return error_set(err, "-iterations N is required");
    t->schedule.iterations = (int64_t)options.iterations;
    t->record.iterations = t->schedule.iterations;
    t->pairs = (int)options.pairs;
    t->match.rounds = t->schedule.iterations * t->pairs; /* as a match of them all would */
    return spsa_schedule_check(&t->schedule, err) && check_schedules(t, err) &&
           settings_check(&t->match, err);
}

/* Iteration k's perturbation: per parameter the sign delta, c_k and the uniform draw of the
 * stochastic rounding, from the stream of (seed, k). */
static void perturbation(const Tune *t, int64_t k, int delta[], double c_k[], double u[]) {
    Rng rng = rng_for_index(t->match.seed, k);
    for (int i = 0; i < t->record.count; i++) {
        delta[i] = rng_below(&rng, 2) ? 1 : -1;
        u[i] = (double)(rng_next(&rng) >> 11) * 0x1p-53;
        c_k[i] = spsa_c_k(&t->record.params[i], &t->schedule, k);
    }
}

/* The engines of iteration k: the base configuration with each parameter at value +- c_k
 * (engine 0 at + delta). delta and c_k per parameter go to the caller. */
/* A program gets a parameter by setoption, after its own options (the last one counts). */
static bool append_option(EngineSpec *spec, const char *token, Error *err) {
    char *options = spec->program.options;
    size_t used = strlen(options), room = sizeof spec->program.options - used;
    if ((size_t)snprintf(options + used, room, "%s%s", used ? " " : "", token) >= room)
        return error_set(err, "the options of the engine program are too long");
    return true;
}

static bool make_engines(const Tune *t, int64_t k, EngineSpec engines[MATCH_ENGINES], int delta[],
                         double c_k[], Error *err) {
    double u[TUNE_PARAMS_MAX];
    perturbation(t, k, delta, c_k, u);
    engines[0] = t->match.engines[0];
    engines[1] = t->match.engines[1];
    for (int i = 0; i < t->record.count; i++) {
        const SpsaParam *p = &t->record.params[i];
        for (int e = 0; e < MATCH_ENGINES; e++) {
            int sign = e == 0 ? delta[i] : -delta[i];
            char token[SPSA_NAME_MAX + 32];
            snprintf(token, sizeof token, "%s=%.0f", p->name, spsa_played(p, c_k[i], sign, u[i]));
            if (!engine_is_program(&engines[e])) {
                if (!config_apply(&engines[e].config, token, err))
                    return false;
                continue;
            }
            if (!append_option(&engines[e], token, err))
                return false;
        }
    }
    return true;
}

/* Iteration k's job: the match with its engines (plus first) at theta +- c_k * delta. */
static PairJob iteration_job(Tune *t, const EngineSpec engines[MATCH_ENGINES]) {
    t->job = t->match;
    memcpy(t->job.engines, engines, sizeof *engines * MATCH_ENGINES);
    return (PairJob){&t->job, &t->book, &t->order, t->tablebase, t->concurrency_given, NULL};
}

/* Iteration k's pairs, (k - 1) * pairs + j for j < pairs, on the pool: half_points[j] (0..4,
 * engine plus) for each. */
static bool play_iteration(Tune *t, int64_t k, const EngineSpec engines[MATCH_ENGINES],
                           int half_points[], Error *err) {
    PairJob job = iteration_job(t, engines);
    PairRecord *records = malloc(sizeof *records * (size_t)t->pairs);
    Error inner = {{0}};
    bool ok = records && pair_pool_set_job(t->pool, &job, &inner) &&
              pair_pool_play(t->pool, (k - 1) * t->pairs, t->pairs, records, &inner);
    if (!records)
        error_set(&inner, "out of memory");
    if (!ok) {
        free(records);
        return error_set(err, "iteration %lld: %s", (long long)k, inner.text);
    }
    for (int j = 0; j < t->pairs; j++)
        half_points[j] = match_pair_half_points(&records[j]);
    pair_pool_records_destroy(records, t->pairs);
    free(records);
    return true;
}

static bool write_file(const Tune *t, Error *err) {
    if (!t->out_path[0])
        return true;
    cJSON *root = tune_record_to_json(&t->record);
    bool ok = root ? output_write_json(&t->outputs, root, t->out_path, err)
                   : error_set(err, "out of memory");
    cJSON_Delete(root);
    return ok;
}

/* The step of iteration k from its perturbation and result, applied to theta (the parameters'
 * values): the one formula both a run and a resume's replay use. */
static TuneStep next_step(Tune *t, int64_t k, const int delta[], const double c_k[],
                          double result) {
    TuneStep step;
    memset(&step, 0, sizeof step);
    for (int i = 0; i < t->record.count; i++) {
        SpsaParam *p = &t->record.params[i];
        step.c[i] = c_k[i];
        step.a[i] = spsa_a_k(p, &t->schedule, k);
        step.delta[i] = delta[i];
        step.theta[i] = spsa_update(p, c_k[i], spsa_r_k(p, &t->schedule, k), delta[i], result);
    }
    step.score = result;
    return step;
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static bool same_param(const SpsaParam *a, const SpsaParam *b) {
    return !strcmp(a->name, b->name) && a->type == b->type && same_bits(a->start, b->start) &&
           same_bits(a->min, b->min) && same_bits(a->max, b->max) &&
           same_bits(a->c_end, b->c_end) && same_bits(a->r_end, b->r_end);
}

/* p as an input line, from its start. */
static void start_line(const SpsaParam *p, char *out, size_t size) {
    SpsaParam at_start = *p;
    at_start.value = at_start.start;
    spsa_format_line(&at_start, out, size);
}

/* The parameters as the arguments give them now against those the file recorded. */
static bool same_params(const Tune *t, const TuneRecord *recorded, Error *err) {
    if (recorded->count != t->record.count)
        return error_set(err, "the file records %d parameters, its arguments give %d",
                         recorded->count, t->record.count);
    for (int i = 0; i < t->record.count; i++) {
        const SpsaParam *now = &t->record.params[i], *then = &recorded->params[i];
        if (same_param(now, then))
            continue;
        char recorded_line[160], given_line[160];
        start_line(then, recorded_line, sizeof recorded_line);
        start_line(now, given_line, sizeof given_line);
        return error_set(err, "parameter %d is recorded as \"%s\" but the arguments give \"%s\": "
                              "the file was edited",
                         i + 1, recorded_line, given_line);
    }
    return true;
}

/* Replays the recorded history from the start: each iteration's c_k, a_k and delta as the seed
 * gives them, and theta as the update from its score gives it, bit for bit. A step that does not
 * follow (an edited theta, even within [MIN, MAX]) is refused, naming it. On success the run
 * stands where the history left it. */
static bool replay_history(Tune *t, const TuneRecord *recorded, Error *err) {
    for (int64_t k = 1; k <= recorded->done; k++) {
        const TuneStep *then = &recorded->steps[k - 1];
        int delta[TUNE_PARAMS_MAX];
        double c_k[TUNE_PARAMS_MAX], u[TUNE_PARAMS_MAX];
        perturbation(t, k, delta, c_k, u);
        if (fabs(then->score) > 2.0 * t->pairs)
            return error_set(err, "history entry %lld: score %g is more than %d pairs can make",
                             (long long)k, then->score, t->pairs);
        TuneStep now = next_step(t, k, delta, c_k, then->score);
        for (int i = 0; i < t->record.count; i++) {
            const char *name = t->record.params[i].name, *field = NULL;
            double recorded_value = 0, replayed = 0;
            if (!same_bits(then->c[i], now.c[i]))
                field = "c", recorded_value = then->c[i], replayed = now.c[i];
            else if (!same_bits(then->a[i], now.a[i]))
                field = "a", recorded_value = then->a[i], replayed = now.a[i];
            else if (!same_bits(then->delta[i], now.delta[i]))
                field = "delta", recorded_value = then->delta[i], replayed = now.delta[i];
            else if (!same_bits(then->theta[i], now.theta[i]))
                field = "theta", recorded_value = then->theta[i], replayed = now.theta[i];
            if (field)
                return error_set(err,
                                 "history entry %lld: %s of %s is %.17g where the run's seed "
                                 "and scores give %.17g: the file was edited, or written by "
                                 "another version",
                                 (long long)k, field, name, recorded_value, replayed);
        }
        if (!tune_record_push(&t->record, &now, err))
            return false;
    }
    for (int i = 0; i < t->record.count; i++)
        if (!same_bits(recorded->params[i].value, t->record.params[i].value))
            return error_set(err, "the value of %s (%.17g) is not theta after the last "
                                  "iteration (%.17g)",
                             t->record.params[i].name, recorded->params[i].value,
                             t->record.params[i].value);
    return true;
}

/* Every input the file recorded is there with the same bytes. */
static bool same_inputs(const Tune *t, const TuneRecord *recorded, Error *err) {
    for (int i = 0; i < recorded->input_count; i++) {
        const TuneInput *then = &recorded->inputs[i];
        const TuneInput *now = NULL;
        for (int k = 0; k < t->record.input_count && !now; k++)
            if (!strcmp(t->record.inputs[k].option, then->option) &&
                !strcmp(t->record.inputs[k].path, then->path))
                now = &t->record.inputs[k];
        if (!now)
            return error_set(err, "%s %s was an input of the run and is not one now",
                             then->option, then->path);
        if (now->hash != then->hash)
            return error_set(err, "%s %s has changed since the run started (its bytes hashed "
                                  "%016" PRIx64 ", now %016" PRIx64 "): the iterations left "
                                  "would play other games",
                             then->option, then->path, then->hash, now->hash);
    }
    return true;
}

/* The build and the base configuration's signature: recorded on a fresh run, compared on a
 * resume (as the match does), a change refused unless allowed, then recorded. */
static bool check_build(Tune *t, const TuneRecord *recorded, bool allow_change, Error *err) {
    BuildIdentity build;
    provenance_build(&build);
    EngineSignature signature = {0};
    const EngineSpec *base = &t->match.engines[0];
    if (!engine_is_program(base) && !provenance_signature(&base->config, &signature, err))
        return false;
    char changes[512];
    bool changed = recorded && provenance_changes(&recorded->build, &build, &recorded->signature,
                                                  &signature, changes, sizeof changes);
    if (recorded)
        memcpy(t->record.accepted_changes, recorded->accepted_changes,
               sizeof t->record.accepted_changes);
    if (changed) {
        if (!allow_change)
            return error_set(err, "the engine is not the build the run began with: %s. Its "
                                  "iterations would be mixed with the first build's: "
                                  PROVENANCE_ADVICE,
                             changes);
        printf("note: the engine changed since the run began (%s); resumed as "
               "-allow-engine-change asks\n",
               changes);
        size_t used = strlen(t->record.accepted_changes);
        snprintf(t->record.accepted_changes + used, sizeof t->record.accepted_changes - used,
                 "iteration %lld: %s\n", (long long)t->record.done + 1, changes);
    }
    t->record.build = build;
    t->record.signature = signature;
    return true;
}

/* The trajectory: one panel per parameter, theta against the iteration, within [MIN, MAX]. */
static bool write_plot_data(FILE *f, const void *context) {
    const Tune *t = context;
    for (int64_t k = 0; k < t->record.done; k++) {
        fprintf(f, "%lld", (long long)k + 1);
        for (int i = 0; i < t->record.count; i++)
            fprintf(f, " %.6f", t->record.steps[k].theta[i]);
        fputc('\n', f);
    }
    return !ferror(f);
}

static bool write_plot_script(FILE *f, const char *png, const char *data, const void *context) {
    const Tune *t = context;
    const TuneRecord *r = &t->record;
    fprintf(f, "set terminal pngcairo size 900,%d noenhanced\nset output ", 160 + 220 * r->count);
    gnuplot_put_quoted(f, png);
    fprintf(f,
            "\nset multiplot layout %d,1 title 'SPSA: %lld of %lld iterations, %d pairs "
            "each'\nset grid\nset xlabel 'iteration'\nset xrange [0:%lld]\n",
            r->count, (long long)r->done, (long long)t->schedule.iterations, t->pairs,
            (long long)t->schedule.iterations);
    for (int i = 0; i < r->count; i++) {
        const SpsaParam *p = &r->params[i];
        fprintf(f, "set ylabel ");
        gnuplot_put_quoted(f, p->name);
        fprintf(f, "\nset yrange [%g:%g]\nplot ", p->min, p->max);
        gnuplot_put_quoted(f, data);
        fprintf(f,
                " using 1:%d with lines lw 2 lc rgb '#1f4e9c' notitle, %g with lines dt 2 "
                "lc rgb 'black' title 'start'\n",
                i + 2, p->start);
    }
    fprintf(f, "unset multiplot\n");
    return !ferror(f);
}

static void print_table(const Tune *t, FILE *out) {
    const TuneRecord *r = &t->record;
    int64_t k = r->done > 0 ? r->done : 1;
    fprintf(out, "%-16s %10s %8s %8s %8s %8s %10s\n", "parameter", "current", "start", "min", "max",
            "c_k", "r_k");
    for (int i = 0; i < r->count; i++) {
        const SpsaParam *p = &r->params[i];
        fprintf(out, "%-16s %10.3f %8g %8g %8g %8.3f %10.6f\n", p->name, p->value, p->start, p->min,
                p->max, spsa_c_k(p, &t->schedule, k), spsa_r_k(p, &t->schedule, k));
    }
}

/* The engine as tuned, ready to copy: one -engine group with the -each configuration (limits
 * included) and every parameter at its rounded value, said even where it is the default. */
static void print_final(const Tune *t, FILE *out) {
    const TuneRecord *r = &t->record;
    EngineSpec tuned = t->match.engines[0];
    snprintf(tuned.name, sizeof tuned.name, "tuned");
    char values[TUNE_PARAMS_MAX * (SPSA_NAME_MAX + 24)] = "", engine[2 * SETTINGS_PATH_MAX];
    TextBuf words = textbuf(values, sizeof values);
    for (int i = 0; i < r->count; i++) {
        char token[SPSA_NAME_MAX + 32];
        Error ignored; /* values within the option's range, checked when the run began */
        snprintf(token, sizeof token, "%s=%.0f", r->params[i].name, round(r->params[i].value));
        if (engine_is_program(&tuned)) { /* by setoption, as the run sent them */
            append_option(&tuned, token, &ignored);
            continue;
        }
        const OptionSpec *spec = config_find(r->params[i].name);
        char reset[SPSA_NAME_MAX + 32]; /* the base's own value is not printed, the tuned one is */
        snprintf(reset, sizeof reset, "%s=%s", spec->name, spec->default_text);
        config_apply(&tuned.config, reset, &ignored);
        textbuf_printf(&words, " %s", token);
    }
    TextBuf buf = textbuf(engine, sizeof engine);
    settings_engine_tokens(&tuned, &buf);
    fprintf(out, "engine:%s%s", engine, values);
    fprintf(out, "\nSPSA input (OpenBench, fishtest):\n");
    for (int i = 0; i < r->count; i++) {
        char line[256];
        spsa_format_line(&r->params[i], line, sizeof line);
        fprintf(out, "%s\n", line);
    }
}

static bool prepare_games(Tune *t, Error *err) {
    Error inner = {{0}};
    if (!book_load(&t->book, t->match.book_path, true, &inner))
        return error_set(err, "-openings: %s", inner.text);
    if (!add_input(t, "-openings file", t->match.book_path, t->book.content_hash, err))
        return false;
    if (!schedule_init(&t->order, &t->book, &t->match))
        return error_set(err, "out of memory");
    if (t->match.tb_path[0]) {
        t->tablebase = tb_new(t->match.tb_path, CAPTURES_TO_WIN, &inner);
        if (!t->tablebase)
            return error_set(err, "-tb: %s", inner.text);
    }
    return true;
}

static void tune_free(Tune *t);

/* A run: its arguments parsed (and offered to the remote's refusals), book, order and
 * tablebase loaded, the pool's threads started. NULL after saying why in err. */
static Tune *tune_new(int argc, char **argv, const PairRemote *remote, Error *err) {
    Tune *t = calloc(1, sizeof *t);
    if (!t) {
        error_set(err, "out of memory");
        return NULL;
    }
    bool ok = parse_run(t, argc, argv, err);
    if (ok && t->help_shown)
        return t;
    if (ok && remote && remote->refuses(remote->context, &t->match))
        ok = error_set(err, "the ranks cannot play this run (said above)");
    if (!ok || !prepare_games(t, err)) {
        tune_free(t);
        return NULL;
    }
    t->concurrency_given = t->match.concurrency;
    if (t->match.concurrency == 0)
        t->match.concurrency = remote ? remote->default_threads : cli_cores();
    if (!(t->pool = pair_pool_new(t->match.concurrency, NULL, err))) {
        tune_free(t);
        return NULL;
    }
    return t;
}

static void tune_free(Tune *t) {
    if (!t)
        return;
    pair_pool_free(t->pool);
    free(t->session.ranks);
    tune_record_destroy(&t->record);
    schedule_destroy(&t->order);
    book_destroy(&t->book);
    tb_free(t->tablebase);
    free(t);
}

/* The run's arguments: those given, or those recorded in the tuning file -resume names. */
typedef struct {
    TuneRecord resumed; /* the tuning file, when resumed (argc 0 otherwise) */
    bool resuming;
    bool allow_engine_change;
    int argc;
    char **argv;
    const char *resume_path;
} RunArguments;

static bool run_arguments(int argc, char **argv, RunArguments *a, Error *err) {
    /* Every field set: a fresh run must read resuming false, not the stack's leftovers (a
     * clang build took a fresh abtest-mpi tune for a resume and crashed). */
    *a = (RunArguments){.argc = argc, .argv = argv};
    tune_record_init(&a->resumed);
    if (argc < 1 || strcmp(argv[0], "-resume") != 0)
        return true;
    bool allow = argc == 3 && !strcmp(argv[2], "-allow-engine-change");
    if (argc < 2 || (argc > 2 && !allow))
        return error_set(err, "-resume F.json takes nothing else but -allow-engine-change: the "
                              "run's arguments are in the file");
    Error inner = {{0}};
    if (!tune_record_load(argv[1], &a->resumed, &inner))
        return error_set(err, "-resume: %s", inner.text);
    a->resuming = true;
    a->allow_engine_change = allow;
    a->resume_path = argv[1];
    a->argc = a->resumed.arguments.count;
    a->argv = a->resumed.arguments.words;
    return true;
}

/* The run, its history replayed and checked when resumed. */
static Tune *open_run(const RunArguments *a, const PairRemote *remote, Error *err) {
    Tune *t = tune_new(a->argc, a->argv, remote, err);
    if (!t || t->help_shown)
        return t;
    const TuneRecord *recorded = a->resuming ? &a->resumed : NULL;
    Error inner = {{0}};
    bool ok = true;
    if (recorded) {
        /* The file resumed is the one kept up to date, wherever it was moved. */
        snprintf(t->out_path, sizeof t->out_path, "%s", a->resume_path);
        if (recorded->format < TUNE_FORMAT)
            printf("note: %s is a tuning file of format %d, which recorded neither its inputs' "
                   "hashes nor its build: they cannot be checked\n",
                   a->resume_path, recorded->format);
        /* The inputs first: a changed -params file is said as such, not as an edited list. */
        ok = same_inputs(t, recorded, &inner) && same_params(t, recorded, &inner) &&
             replay_history(t, recorded, &inner);
    }
    ok = ok && check_build(t, recorded, a->allow_engine_change, &inner);
    if (!ok) {
        error_set(err, "%s%s", recorded ? "-resume: " : "", inner.text);
        tune_free(t);
        return NULL;
    }
    return t;
}

/* The run's outputs and inputs (cli/output.h). */
static void output_plan(Tune *t, bool resuming) {
    OutputPlan *plan = &t->outputs;
    *plan = (OutputPlan){0};
    output_plan_add(plan, "-out", t->out_path, resuming ? NULL : tune_file_unfinished);
    output_plan_add(plan, "-plot", t->plot_path, NULL);
    for (int i = 0; i < t->record.input_count; i++)
        output_plan_input(plan, t->record.inputs[i].option, t->record.inputs[i].path);
    output_plan_input(plan, "-tb", t->match.tb_path);
}

/* Before the other ranks are asked: every output can be written (nothing is left behind). */
static bool check_outputs(Tune *t, bool resuming, Error *err) {
    output_plan(t, resuming);
    return output_plan_check(&t->outputs, err);
}

/* Before the first game: the tuning file locked, earlier files moved aside on a fresh run, and
 * the file written (the run's inputs and build, no iteration yet). */
static bool claim_outputs(Tune *t, bool resuming, OutLock *lock, Error *err) {
    if (!check_outputs(t, resuming, err))
        return false;
    if (t->out_path[0] && !output_lock(lock, resuming ? "-resume" : "-out", t->out_path,
                                       "abtest tune", "lose one of the two runs", err))
        return false;
    if (!resuming && !output_plan_move_aside(&t->outputs, stdout, err))
        return false;
    return write_file(t, err);
}

/* Before any game: every parameter's schedule gives finite values over the whole run. c_k and
 * a_k fall with k, so c_1, a_1, c_N and the largest step a_1 / c_N^2 * c_1 * 2 pairs bound
 * every value an iteration computes; a C_END of 1e200 overflows there (theta became NaN). */
static bool check_schedules(const Tune *t, Error *err) {
    const SpsaSchedule *schedule = &t->schedule;
    for (int i = 0; i < t->record.count; i++) {
        const SpsaParam *p = &t->record.params[i];
        double c_1 = spsa_c_k(p, schedule, 1), c_n = spsa_c_k(p, schedule, schedule->iterations);
        double a_1 = spsa_a_k(p, schedule, 1);
        double step = a_1 / (c_n * c_n) * c_1 * 2.0 * (double)t->pairs;
        if (!isfinite(spsa_c(p, schedule)) || !isfinite(spsa_a(p, schedule)) || !isfinite(c_1) ||
            !isfinite(a_1) || !(c_n > 0) || !isfinite(step) || !isfinite(p->value + c_1))
            return error_set(err,
                             "%s: C_END %g and R_END %g give a schedule without finite values "
                             "over %lld iterations (c_1 = %g, a_1 = %g): give them in the "
                             "parameter's own scale",
                             p->name, p->c_end, p->r_end, (long long)schedule->iterations, c_1,
                             a_1);
    }
    return true;
}

/* The other ranks, with the first iteration to play as their first job: before the outputs
 * are claimed, so that a rank that cannot play leaves nothing behind. A run with nothing left
 * to play asks none. False after saying why. */
static bool begin_ranks(Tune *t, const PairRemote *remote) {
    if (!remote || t->record.done >= t->schedule.iterations)
        return true;
    EngineSpec engines[MATCH_ENGINES];
    int delta[TUNE_PARAMS_MAX];
    double c_k[TUNE_PARAMS_MAX];
    Error err;
    if (!make_engines(t, t->record.done + 1, engines, delta, c_k, &err)) {
        cli_error("tune: %s", err.text);
        return false;
    }
    PairJob job = iteration_job(t, engines);
    return remote->begin(remote->context, t->pool, &job, &t->session);
}

int abtest_tune_main(int argc, char **argv, const PairRemote *remote) {
    if (argc >= 1 && (strcmp(argv[0], "-help") == 0 || strcmp(argv[0], "--help") == 0)) {
        arguments_command_usage(&TUNE_COMMAND, stdout);
        return 0;
    }
    Error err = {{0}};
    RunArguments args;
    Tune *t = NULL;
    int *half_points = NULL;
    OutLock lock;
    outfile_lock_init(&lock);
    bool ready = run_arguments(argc, argv, &args, &err) &&
                 (t = open_run(&args, remote, &err)) != NULL;
    if (ready && t->help_shown) { /* through the same ending as any run: MPI ends cleanly */
        tune_free(t);
        tune_record_destroy(&args.resumed);
        return 0;
    }
    if (ready && !(half_points = calloc((size_t)t->pairs, sizeof *half_points)))
        ready = error_set(&err, "out of memory");
    ready = ready && check_outputs(t, args.resuming, &err);
    if (!ready) {
        cli_error("tune: %s", err.text);
        free(half_points);
        tune_free(t);
        tune_record_destroy(&args.resumed);
        return 2;
    }
    bool begun = begin_ranks(t, remote);
    if (!begun || !claim_outputs(t, args.resuming, &lock, &err)) {
        if (begun && remote && t->session.count)
            remote->end(remote->context, t->pool);
        if (begun) /* else begin_ranks has said why */
            cli_error("tune: %s", err.text);
        free(half_points);
        tune_free(t);
        outfile_unlock(&lock);
        tune_record_destroy(&args.resumed);
        return 2;
    }
    const TuneRecord *r = &t->record;
    printf("tune: %d parameter(s), %lld iterations of %d pairs, %d thread(s)%s%s\n", r->count,
           (long long)t->schedule.iterations, t->pairs, t->match.concurrency,
           r->done ? " (resumed)" : "",
           settings_reproducible(&t->match) ? ""
                                            : "; moves timed on the wall clock: the trajectory "
                                              "is NOT reproducible (nodestime= makes a clock "
                                              "reproducible)");
    int status = 0;
    for (int64_t k = r->done + 1; k <= t->schedule.iterations; k++) {
        EngineSpec engines[MATCH_ENGINES];
        int delta[TUNE_PARAMS_MAX];
        double c_k[TUNE_PARAMS_MAX], result = 0;
        if (!make_engines(t, k, engines, delta, c_k, &err) ||
            !play_iteration(t, k, engines, half_points, &err)) {
            cli_error("tune: %s", err.text);
            status = 1;
            break;
        }
        for (int j = 0; j < t->pairs; j++)
            result += half_points[j] - 2; /* a pair's half points 0..4: wins - losses + 2 */
        TuneStep step = next_step(t, k, delta, c_k, result);
        if (!tune_record_push(&t->record, &step, &err) || !write_file(t, &err)) {
            cli_error("tune: -out: %s", err.text);
            status = 1;
            break;
        }
        printf("iteration %lld/%lld: %+g", (long long)k, (long long)t->schedule.iterations, result);
        for (int i = 0; i < r->count; i++)
            printf("  %s %.2f", r->params[i].name, r->params[i].value);
        printf("\n");
        fflush(stdout);
    }
    if (remote && t->session.count)
        remote->end(remote->context, t->pool);
    print_table(t, stdout);
    print_final(t, stdout);
    if (t->plot_path[0] && r->done > 0) {
        if (gnuplot_draw(&t->outputs, t->plot_path, write_plot_data, write_plot_script, t, &err)) {
            printf("plot: %s\n", t->plot_path);
        } else {
            cli_error("tune: -plot: %s", err.text);
            status = status ? status : 2;
        }
    }
    if (!output_stdout_ok(&err)) {
        cli_error("tune: %s", err.text);
        status = status ? status : 2;
    }
    free(half_points);
    tune_free(t);
    outfile_unlock(&lock);
    tune_record_destroy(&args.resumed);
    return status;
}

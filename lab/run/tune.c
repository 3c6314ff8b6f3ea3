// SPDX-License-Identifier: MIT
#include "tune.h"

#include "arguments.h"
#include "cli.h"
#include "fingerprint.h"
#include "gnuplot.h"
#include "pair_batch.h"
#include "parse.h"
#include "report.h"
#include "rng.h"
#include "schedule.h"
#include "spsa.h"
#include "tablebase.h"
#include "textfile.h"
#include "tuning.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_ARGS_MAX 256
#define TUNE_FILE_MAX (64u << 20)
#define TUNE_FORMAT 1

struct Tune {
    /* The run, as its arguments give it (recorded, so -resume replays them). */
    SpsaParam params[TUNE_PARAMS_MAX];
    int count;
    SpsaSchedule schedule;
    int pairs; /* per iteration */
    MatchSettings match;
    char out_path[SETTINGS_PATH_MAX];
    char plot_path[SETTINGS_PATH_MAX];
    /* Its progress. */
    cJSON *history; /* one object per finished iteration */
    int64_t done;
    /* For the games. */
    Book book;
    Schedule order;
    Tablebase *tablebase;
};

/* The options that are the tuner's own, and those of a match that mean nothing here. */
static const char *const MATCH_REFUSED[] = {"-engine", "-rounds", "-sprt",
                                            "-pgnout", "-plot",   "-games"};

static bool add_param(Tune *t, const char *line, const char *where, Error *err) {
    if (t->count == TUNE_PARAMS_MAX)
        return error_set(err, "%s: more than %d parameters", where, TUNE_PARAMS_MAX);
    SpsaParam *p = &t->params[t->count];
    Error inner = {{0}};
    if (!spsa_parse_line(line, p, &inner))
        return error_set(err, "%s: %s", where, inner.text);
    if (!tuning_option_check(p->name, &inner))
        return error_set(err, "%s: %s", where, inner.text);
    if (p->type != SPSA_INT)
        return error_set(err, "%s: %s is an integer option: give its type as int", where, p->name);
    const OptionSpec *spec = tuning_option(p->name);
    if (p->min < (double)spec->min || p->max > (double)spec->max)
        return error_set(err,
                         "%s: %s: [MIN, MAX] = [%g, %g] goes beyond the values the option "
                         "takes (%lld..%lld)",
                         where, p->name, p->min, p->max, (long long)spec->min,
                         (long long)spec->max);
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->params[i].name, p->name) == 0)
            return error_set(err, "%s: %s is given twice", where, p->name);
    t->count++;
    return true;
}

static bool add_params_file(Tune *t, const char *path, Error *err) {
    char *text;
    size_t length;
    Error inner = {{0}};
    if (!textfile_read(path, 1u << 20, false, &text, &length, &inner))
        return error_set(err, "-params: %s", inner.text);
    int line_number = 0;
    bool ok = true;
    for (char *line = text, *next; ok && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_number++;
        char *start = line + strspn(line, " \t\r");
        if (*start == '\0' || *start == '#')
            continue;
        char where[SETTINGS_PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d", path, line_number);
        ok = add_param(t, start, where, err);
    }
    free(text);
    return ok;
}

static bool is_refused(const char *word) {
    for (size_t i = 0; i < sizeof MATCH_REFUSED / sizeof *MATCH_REFUSED; i++)
        if (strcmp(word, MATCH_REFUSED[i]) == 0)
            return true;
    return false;
}

static bool number_arg(int argc, char **argv, int *i, double min, double max, double *out,
                       Error *err) {
    if (*i + 1 >= argc)
        return error_set(err, "%s needs a value", argv[*i]);
    Error inner = {{0}};
    if (!parse_double(argv[*i + 1], min, max, out, &inner))
        return error_set(err, "%s: %s", argv[*i], inner.text);
    (*i)++;
    return true;
}

/* Reads the tuner's options and hands the rest to the match's parser, with the two engines
 * made here (plus and minus: the base configuration from -each). */
static bool parse_run(Tune *t, int argc, char **argv, Error *err) {
    memset(t, 0, sizeof *t);
    t->schedule = spsa_schedule_default(0);
    t->pairs = 8;
    char *rest[TUNE_ARGS_MAX + 6];
    int rest_count = 0;
    double iterations = 0, pairs = t->pairs;
    for (int i = 0; i < argc; i++) {
        const char *word = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(word, "-param") == 0) {
            if (!has_value)
                return error_set(err, "-param needs a line: NAME, int, START, MIN, MAX, C_END, "
                                      "R_END");
            if (!add_param(t, argv[++i], "-param", err))
                return false;
        } else if (strcmp(word, "-params") == 0) {
            if (!has_value)
                return error_set(err, "-params needs a file");
            if (!add_params_file(t, argv[++i], err))
                return false;
        } else if (strcmp(word, "-iterations") == 0) {
            if (!number_arg(argc, argv, &i, 1, 1e9, &iterations, err))
                return false;
        } else if (strcmp(word, "-pairs") == 0) {
            if (!number_arg(argc, argv, &i, 1, 1e6, &pairs, err))
                return false;
        } else if (strcmp(word, "-alpha") == 0) {
            if (!number_arg(argc, argv, &i, 1e-9, 1, &t->schedule.alpha, err))
                return false;
        } else if (strcmp(word, "-gamma") == 0) {
            if (!number_arg(argc, argv, &i, 1e-9, 1, &t->schedule.gamma, err))
                return false;
        } else if (strcmp(word, "-a-ratio") == 0) {
            if (!number_arg(argc, argv, &i, 0, 1e6, &t->schedule.a_ratio, err))
                return false;
        } else if (strcmp(word, "-out") == 0) {
            if (!has_value)
                return error_set(err, "-out needs a file");
            snprintf(t->out_path, sizeof t->out_path, "%s", argv[++i]);
        } else if (strcmp(word, "-plot") == 0) {
            if (!has_value)
                return error_set(err, "-plot needs a file (F.png)");
            snprintf(t->plot_path, sizeof t->plot_path, "%s", argv[++i]);
        } else if (is_refused(word)) {
            return error_set(err,
                             "%s: abtest tune makes its two engines itself (the "
                             "configuration from -each, the parameters from -param), and "
                             "plays -iterations times -pairs pairs",
                             word);
        } else {
            if (rest_count == TUNE_ARGS_MAX)
                return error_set(err, "more than %d arguments", TUNE_ARGS_MAX);
            rest[rest_count++] = argv[i];
        }
    }
    if (t->count == 0)
        return error_set(err, "no parameter: give -param LINE or -params FILE");
    if (iterations != floor(iterations) || pairs != floor(pairs))
        return error_set(err, "-iterations and -pairs are whole numbers");
    if (iterations == 0)
        return error_set(err, "-iterations N is required");
    t->schedule.iterations = (int64_t)iterations;
    t->pairs = (int)pairs;
    if (!spsa_schedule_check(&t->schedule, err))
        return false;
    char total[32];
    snprintf(total, sizeof total, "%lld", (long long)(t->schedule.iterations * t->pairs));
    char *engines[] = {"-engine", "name=plus", "-engine", "name=minus", "-rounds", total};
    for (size_t i = 0; i < sizeof engines / sizeof *engines; i++)
        rest[rest_count++] = engines[i];
    bool exit_now;
    Error inner = {{0}};
    if (!arguments_parse(rest_count, rest, &t->match, &exit_now, &inner))
        return error_set(err, "%s", inner.text);
    return true;
}

/* The engines of iteration k: the base configuration with each parameter at value +- c_k
 * (engine 0 at + delta). delta and c_k per parameter go to the caller. */
static bool make_engines(const Tune *t, int64_t k, EngineSpec engines[MATCH_ENGINES], int delta[],
                         double c_k[], Error *err) {
    Rng rng = rng_for_index(t->match.seed, k);
    engines[0] = t->match.engines[0];
    engines[1] = t->match.engines[1];
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
        delta[i] = rng_below(&rng, 2) ? 1 : -1;
        double u = (double)(rng_next(&rng) >> 11) * 0x1p-53;
        c_k[i] = spsa_c_k(p, &t->schedule, k);
        for (int e = 0; e < MATCH_ENGINES; e++) {
            int sign = e == 0 ? delta[i] : -delta[i];
            char token[SPSA_NAME_MAX + 32];
            snprintf(token, sizeof token, "%s=%.0f", p->name, spsa_played(p, c_k[i], sign, u));
            if (!engine_is_external(&engines[e])) {
                if (!config_apply(&engines[e].config, token, err))
                    return false;
                continue;
            }
            /* A program gets it by setoption, after its own options (the last one counts). */
            char *options = engines[e].external.options;
            size_t used = strlen(options), room = sizeof engines[e].external.options - used;
            if ((size_t)snprintf(options + used, room, "%s%s", used ? " " : "", token) >= room)
                return error_set(err, "the options of the engine program are too long");
        }
    }
    return true;
}

bool tune_play(Tune *t, int64_t k, const int offsets[], int count, int threads,
               atomic_bool *abort, int half_points[], Error *err) {
    EngineSpec engines[MATCH_ENGINES];
    int delta[TUNE_PARAMS_MAX];
    double c_k[TUNE_PARAMS_MAX];
    if (!make_engines(t, k, engines, delta, c_k, err))
        return false;
    int64_t *pairs = malloc(sizeof *pairs * (size_t)(count > 0 ? count : 1));
    PairScore *scores = malloc(sizeof *scores * (size_t)(count > 0 ? count : 1));
    if (!pairs || !scores) {
        free(pairs);
        free(scores);
        return error_set(err, "out of memory");
    }
    for (int i = 0; i < count; i++)
        pairs[i] = (k - 1) * t->pairs + offsets[i];
    PairBatch batch = {engines, settings_pair_setup(&t->match, t->tablebase), &t->book,
                       &t->order};
    Error inner = {{0}};
    bool ok = pair_batch_play(&batch, pairs, count, threads, abort, scores, &inner);
    if (!ok)
        error_set(err, "iteration %lld: %s", (long long)k, inner.text);
    for (int i = 0; ok && i < count; i++)
        half_points[i] = scores[i].half_points;
    free(pairs);
    free(scores);
    return ok;
}

/* Iteration k's pairs, on this process's threads or through the remote. */
static bool play_iteration(Tune *t, int64_t k, const TuneRemote *remote, int half_points[],
                           Error *err) {
    if (remote)
        return remote->play(remote->context, t, k, half_points, err);
    int *offsets = malloc(sizeof *offsets * (size_t)t->pairs);
    if (!offsets)
        return error_set(err, "out of memory");
    for (int j = 0; j < t->pairs; j++)
        offsets[j] = j;
    atomic_bool abort_flag;
    atomic_init(&abort_flag, false);
    bool ok = tune_play(t, k, offsets, t->pairs, t->match.concurrency, &abort_flag, half_points,
                        err);
    free(offsets);
    return ok;
}

static bool write_file(const Tune *t, int argc, char **argv, Error *err) {
    if (!t->out_path[0])
        return true;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", TUNE_FORMAT);
    cJSON *args = cJSON_AddArrayToObject(root, "arguments");
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", p->name);
        cJSON_AddStringToObject(item, "type", p->type == SPSA_INT ? "int" : "float");
        cJSON_AddNumberToObject(item, "start", p->start);
        cJSON_AddNumberToObject(item, "min", p->min);
        cJSON_AddNumberToObject(item, "max", p->max);
        cJSON_AddNumberToObject(item, "c_end", p->c_end);
        cJSON_AddNumberToObject(item, "r_end", p->r_end);
        cJSON_AddNumberToObject(item, "value", p->value);
        cJSON_AddItemToArray(params, item);
    }
    cJSON_AddItemReferenceToObject(root, "history", t->history);
    bool ok = report_write_json(root, t->out_path, err);
    cJSON_Delete(root);
    return ok;
}

/* One finished iteration, appended to the history and applied to theta. */
static void record_iteration(Tune *t, int64_t k, const int delta[], const double c_k[],
                             double result) {
    double c[TUNE_PARAMS_MAX], a[TUNE_PARAMS_MAX], d[TUNE_PARAMS_MAX], theta[TUNE_PARAMS_MAX];
    for (int i = 0; i < t->count; i++) {
        SpsaParam *p = &t->params[i];
        c[i] = c_k[i];
        a[i] = spsa_a_k(p, &t->schedule, k);
        d[i] = delta[i];
        theta[i] = spsa_update(p, c_k[i], spsa_r_k(p, &t->schedule, k), delta[i], result);
    }
    cJSON *item = cJSON_CreateObject();
    cJSON_AddNumberToObject(item, "k", (double)k);
    cJSON_AddItemToObject(item, "c", cJSON_CreateDoubleArray(c, t->count));
    cJSON_AddItemToObject(item, "a", cJSON_CreateDoubleArray(a, t->count));
    cJSON_AddItemToObject(item, "delta", cJSON_CreateDoubleArray(d, t->count));
    cJSON_AddItemToObject(item, "theta", cJSON_CreateDoubleArray(theta, t->count));
    cJSON_AddNumberToObject(item, "score", result);
    cJSON_AddItemToArray(t->history, item);
    t->done = k;
}

/* The history of a tuning file, checked and applied: theta after its last iteration. */
static bool restore_history(Tune *t, const cJSON *root, const char *path, Error *err) {
    const cJSON *history = cJSON_GetObjectItem(root, "history");
    if (!cJSON_IsArray(history))
        return error_set(err, "%s: no \"history\" list", path);
    int64_t k = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, history) {
        k++;
        const cJSON *number = cJSON_GetObjectItem(item, "k");
        const cJSON *theta = cJSON_GetObjectItem(item, "theta");
        if (!cJSON_IsNumber(number) || number->valuedouble != (double)k)
            return error_set(err, "%s: history entry %lld: k is not %lld", path, (long long)k,
                             (long long)k);
        if (!cJSON_IsArray(theta) || cJSON_GetArraySize(theta) != t->count)
            return error_set(err, "%s: history entry %lld: theta does not hold %d values", path,
                             (long long)k, t->count);
        for (int i = 0; i < t->count; i++) {
            const cJSON *value = cJSON_GetArrayItem(theta, i);
            if (!cJSON_IsNumber(value) || value->valuedouble < t->params[i].min ||
                value->valuedouble > t->params[i].max)
                return error_set(err,
                                 "%s: history entry %lld: theta of %s is not within "
                                 "[MIN, MAX]",
                                 path, (long long)k, t->params[i].name);
            t->params[i].value = value->valuedouble;
        }
    }
    if (k > t->schedule.iterations)
        return error_set(err, "%s: %lld iterations recorded, more than the %lld asked", path,
                         (long long)k, (long long)t->schedule.iterations);
    cJSON_Delete(t->history);
    t->history = cJSON_Duplicate(history, true);
    t->done = k;
    return true;
}

/* The trajectory: one panel per parameter, theta against the iteration, within [MIN, MAX]. */
static bool write_plot_data(FILE *f, const void *context) {
    const Tune *t = context;
    const cJSON *item;
    cJSON_ArrayForEach(item, t->history) {
        fprintf(f, "%.0f", cJSON_GetObjectItem(item, "k")->valuedouble);
        const cJSON *value;
        cJSON_ArrayForEach(value, cJSON_GetObjectItem(item, "theta")) {
            fprintf(f, " %.6f", value->valuedouble);
        }
        fputc('\n', f);
    }
    return !ferror(f);
}

static bool write_plot_script(FILE *f, const char *png, const char *data, const void *context) {
    const Tune *t = context;
    fprintf(f, "set terminal pngcairo size 900,%d noenhanced\nset output ", 160 + 220 * t->count);
    gnuplot_put_quoted(f, png);
    fprintf(f,
            "\nset multiplot layout %d,1 title 'SPSA: %lld of %lld iterations, %d pairs "
            "each'\nset grid\nset xlabel 'iteration'\nset xrange [0:%lld]\n",
            t->count, (long long)t->done, (long long)t->schedule.iterations, t->pairs,
            (long long)t->schedule.iterations);
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
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
    int64_t k = t->done > 0 ? t->done : 1;
    fprintf(out, "%-16s %10s %8s %8s %8s %8s %10s\n", "parameter", "current", "start", "min", "max",
            "c_k", "r_k");
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
        fprintf(out, "%-16s %10.3f %8g %8g %8g %8.3f %10.6f\n", p->name, p->value, p->start, p->min,
                p->max, spsa_c_k(p, &t->schedule, k), spsa_r_k(p, &t->schedule, k));
    }
}

static void print_final(const Tune *t, FILE *out) {
    fprintf(out, "engine: -engine name=tuned");
    for (int i = 0; i < t->count; i++)
        fprintf(out, " %s=%.0f", t->params[i].name, round(t->params[i].value));
    fprintf(out, "\nSPSA input (OpenBench, fishtest):\n");
    for (int i = 0; i < t->count; i++) {
        char line[256];
        spsa_format_line(&t->params[i], line, sizeof line);
        fprintf(out, "%s\n", line);
    }
}

static bool prepare_games(Tune *t, Error *err) {
    Error inner = {{0}};
    if (!book_load(&t->book, t->match.book_path, true, &inner))
        return error_set(err, "-openings: %s", inner.text);
    if (!schedule_init(&t->order, &t->book, &t->match))
        return error_set(err, "out of memory");
    if (t->match.tb_path[0]) {
        t->tablebase = tb_new(t->match.tb_path, CAPTURES_TO_WIN, &inner);
        if (!t->tablebase)
            return error_set(err, "-tb: %s", inner.text);
    }
    return true;
}

static void tune_destroy(Tune *t) {
    cJSON_Delete(t->history);
    schedule_destroy(&t->order);
    book_destroy(&t->book);
    tb_free(t->tablebase);
}

Tune *tune_open(int argc, char **argv, int default_threads, const char *tablebase_refusal,
                Error *err) {
    Tune *t = calloc(1, sizeof *t);
    if (!t) {
        error_set(err, "out of memory");
        return NULL;
    }
    bool ok = parse_run(t, argc, argv, err);
    if (ok && tablebase_refusal && t->match.tb_path[0])
        ok = error_set(err, "-tb: %s", tablebase_refusal);
    if (!ok || !prepare_games(t, err)) {
        tune_close(t);
        return NULL;
    }
    if (t->match.concurrency == 0)
        t->match.concurrency = default_threads;
    return t;
}

void tune_close(Tune *t) {
    if (!t)
        return;
    tune_destroy(t);
    free(t);
}

int tune_pairs(const Tune *t) { return t->pairs; }
int tune_threads(const Tune *t) { return t->match.concurrency; }
int tune_param_count(const Tune *t) { return t->count; }

void tune_theta(const Tune *t, double theta[]) {
    for (int i = 0; i < t->count; i++)
        theta[i] = t->params[i].value;
}

void tune_set_theta(Tune *t, const double theta[]) {
    for (int i = 0; i < t->count; i++)
        t->params[i].value = theta[i];
}

bool tune_fingerprint(const Tune *t, char *text, size_t size, Error *err) {
    Fingerprint fingerprint;
    if (!fingerprint_compute(t->match.engines, &t->book, &fingerprint, err))
        return false;
    fingerprint_text(&fingerprint, text, size);
    return true;
}

/* -resume FILE: the arguments recorded in it, to be parsed as on the first run. */
static cJSON *read_tuning_file(const char *path, Error *err) {
    char *text;
    size_t length;
    if (!textfile_read(path, TUNE_FILE_MAX, true, &text, &length, err))
        return NULL;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        error_set(err, "%s: not JSON", path);
        return NULL;
    }
    const cJSON *format = cJSON_GetObjectItem(root, "format");
    const cJSON *args = cJSON_GetObjectItem(root, "arguments");
    if (!cJSON_IsNumber(format) || format->valueint != TUNE_FORMAT || !cJSON_IsArray(args)) {
        cJSON_Delete(root);
        error_set(err, "%s: not a tuning file of format %d", path, TUNE_FORMAT);
        return NULL;
    }
    return root;
}

/* The run's arguments: those given, or those recorded in the tuning file -resume names. */
typedef struct {
    cJSON *resumed; /* the tuning file, when resumed */
    char *recorded[TUNE_ARGS_MAX];
    int argc;
    char **argv;
    const char *resume_path;
} RunArguments;

static bool run_arguments(int argc, char **argv, RunArguments *a, Error *err) {
    a->argc = argc;
    a->argv = argv;
    if (argc < 1 || strcmp(argv[0], "-resume") != 0)
        return true;
    if (argc != 2)
        return error_set(err, "-resume F.json takes nothing else: the run's arguments are in "
                              "the file");
    Error inner = {{0}};
    a->resumed = read_tuning_file(argv[1], &inner);
    if (!a->resumed)
        return error_set(err, "-resume: %s", inner.text);
    a->resume_path = argv[1];
    a->argc = 0;
    const cJSON *word;
    cJSON_ArrayForEach(word, cJSON_GetObjectItem(a->resumed, "arguments")) {
        if (!cJSON_IsString(word) || a->argc == TUNE_ARGS_MAX)
            return error_set(err, "-resume: %s: \"arguments\" is not a list of words", argv[1]);
        a->recorded[a->argc++] = word->valuestring;
    }
    a->argv = a->recorded;
    return true;
}

/* The run, its history restored when resumed. */
static Tune *open_resumed(const RunArguments *a, const TuneRemote *remote, Error *err) {
    Tune *t = remote ? tune_open(a->argc, a->argv, remote->default_threads,
                                 remote->tablebase_refusal, err)
                     : tune_open(a->argc, a->argv, cli_cores(), NULL, err);
    if (!t)
        return NULL;
    t->history = cJSON_CreateArray();
    if (!t->history) {
        error_set(err, "out of memory");
        tune_close(t);
        return NULL;
    }
    if (!a->resumed)
        return t;
    /* The file resumed is the one kept up to date, wherever it was moved. */
    snprintf(t->out_path, sizeof t->out_path, "%s", a->resume_path);
    Error inner = {{0}};
    if (!restore_history(t, a->resumed, a->resume_path, &inner)) {
        error_set(err, "-resume: %s", inner.text);
        tune_close(t);
        return NULL;
    }
    return t;
}

int abtest_tune_main(int argc, char **argv, const TuneRemote *remote) {
    if (argc >= 1 && (strcmp(argv[0], "-help") == 0 || strcmp(argv[0], "--help") == 0)) {
        printf("usage: abtest tune -param LINE ... | -params FILE -iterations N [-pairs P]\n"
               "                   [-alpha X] [-gamma X] [-a-ratio X] [-out F.json] [-plot F.png]\n"
               "                   [-each key=value ...] [-openings ...] [-concurrency N]\n"
               "                   [-srand S] [-tb ...]\n"
               "       abtest tune -resume F.json\n"
               "  SPSA over search options (docs/tuning.md): each iteration plays the -each\n"
               "  configuration with the parameters at theta + c_k * delta against theta - c_k *\n"
               "  delta over P pairs (default 8), then moves theta. LINE: NAME, int, START, MIN,\n"
               "  MAX, C_END, R_END (bench options -spsa prints them).\n");
        if (remote)
            remote->cancel(remote->context);
        return 0;
    }
    Error err = {{0}};
    RunArguments args = {0};
    Tune *t = NULL;
    int *half_points = NULL;
    bool ready = run_arguments(argc, argv, &args, &err) &&
                 (t = open_resumed(&args, remote, &err)) != NULL;
    if (ready && !(half_points = calloc((size_t)t->pairs, sizeof *half_points)))
        ready = error_set(&err, "out of memory");
    if (!ready) {
        if (remote)
            remote->cancel(remote->context);
        cli_error("tune: %s", err.text);
        tune_close(t);
        cJSON_Delete(args.resumed);
        return 2;
    }
    if (remote && !remote->begin(remote->context, t, args.argc, args.argv, &err)) {
        cli_error("tune: %s", err.text);
        free(half_points);
        tune_close(t);
        cJSON_Delete(args.resumed);
        return 2;
    }
    printf("tune: %d parameter(s), %lld iterations of %d pairs, %d thread(s)%s%s\n", t->count,
           (long long)t->schedule.iterations, t->pairs, t->match.concurrency,
           t->done ? " (resumed)" : "",
           settings_reproducible(&t->match) ? ""
                                            : "; moves timed on the wall clock: the trajectory "
                                              "is NOT reproducible (nodestime= makes a clock "
                                              "reproducible)");
    int status = 0;
    for (int64_t k = t->done + 1; k <= t->schedule.iterations; k++) {
        EngineSpec engines[MATCH_ENGINES];
        int delta[TUNE_PARAMS_MAX];
        double c_k[TUNE_PARAMS_MAX], result = 0;
        if (!make_engines(t, k, engines, delta, c_k, &err) ||
            !play_iteration(t, k, remote, half_points, &err)) {
            cli_error("tune: %s", err.text);
            status = 1;
            break;
        }
        for (int j = 0; j < t->pairs; j++)
            result += half_points[j] - 2; /* a pair's half points 0..4: wins - losses + 2 */
        record_iteration(t, k, delta, c_k, result);
        if (!write_file(t, args.argc, args.argv, &err)) {
            cli_error("tune: -out: %s", err.text);
            status = 1;
            break;
        }
        printf("iteration %lld/%lld: %+g", (long long)k, (long long)t->schedule.iterations, result);
        for (int i = 0; i < t->count; i++)
            printf("  %s %.2f", t->params[i].name, t->params[i].value);
        printf("\n");
        fflush(stdout);
    }
    if (remote)
        remote->end(remote->context, t);
    print_table(t, stdout);
    print_final(t, stdout);
    if (t->plot_path[0] && t->done > 0) {
        if (gnuplot_draw(t->plot_path, write_plot_data, write_plot_script, t, &err))
            printf("plot: %s\n", t->plot_path);
        else
            cli_error("tune: -plot: %s", err.text);
    }
    free(half_points);
    tune_close(t);
    cJSON_Delete(args.resumed);
    return status;
}

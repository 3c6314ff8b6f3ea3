// SPDX-License-Identifier: MIT
#include "engine_spec.h"

#include "parse.h"
#include "program_process.h"
#include "program_reply.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum {
    KEY_TEXT,    /* one word or more (args), in a fixed buffer */
    KEY_NUMBER,  /* a whole number in min..max */
    KEY_OPTIONS, /* option.NAME=VALUE, collected in order into "NAME=VALUE ..." */
} ProgramKeyType;

typedef struct {
    const char *key;
    ProgramKeyType type;
    size_t offset, size; /* of the field in ProgramSpec */
    int64_t min, max;    /* numbers */
    int64_t fallback;    /* a number's default */
    const char *usage;   /* how the usage writes it */
} ProgramKey;

#define TEXT(name, usage)                                                                          \
    {                                                                                              \
#name, KEY_TEXT, offsetof(ProgramSpec, name), sizeof((ProgramSpec *)0)->name, 0, 0, 0,   \
            usage                                                                                  \
    }
#define NUMBER(name, lo, hi, fallback, usage)                                                      \
    {                                                                                              \
#name, KEY_NUMBER, offsetof(ProgramSpec, name), sizeof(int64_t), lo, hi, fallback, usage  \
    }
static const ProgramKey PROGRAM_KEYS[] = {
    TEXT(cmd, "cmd=PROGRAM"),
    TEXT(args, "[args=\"...\"]"),
    TEXT(dir, "[dir=D]"),
    {"options", KEY_OPTIONS, offsetof(ProgramSpec, options), PROGRAM_OPTIONS_MAX, 0, 0, 0,
     "[option.NAME=VALUE ...]"},
    NUMBER(bench, PROGRAM_BENCH_OFF, (int64_t)PROGRAM_REPLY_NODES_MAX, 0, "[bench=NODES|off]"),
    NUMBER(startup, 1, 3600000, PROGRAM_DEFAULT_STARTUP_MS, "[startup=MS]"),
    NUMBER(stall, 1, 86400000, PROGRAM_DEFAULT_STALL_MS, "[stall=MS]"),
};
#define PROGRAM_KEY_COUNT (sizeof PROGRAM_KEYS / sizeof PROGRAM_KEYS[0])

static char *field_of(ProgramSpec *x, const ProgramKey *k) { return (char *)x + k->offset; }
static const char *const_field_of(const ProgramSpec *x, const ProgramKey *k) {
    return (const char *)x + k->offset;
}

static int64_t number_of(const ProgramSpec *x, const ProgramKey *k) {
    int64_t value;
    memcpy(&value, const_field_of(x, k), sizeof value);
    return value;
}

/* The timing keys (EngineTiming): the clock as tc= or st= text, the numbers. */
typedef enum { TIMING_TC, TIMING_ST, TIMING_NUMBER } TimingKeyType;

typedef struct {
    const char *key;
    TimingKeyType type;
    size_t offset;            /* numbers: of the field in EngineTiming */
    int64_t min, max, fallback;
    const char *usage;
} TimingKey;

static const TimingKey TIMING_KEYS[] = {
    {"tc", TIMING_TC, 0, 0, 0, 0, "[tc=[MOVES/]SECONDS[+INCREMENT]"},
    {"st", TIMING_ST, 0, 0, 0, 0, "| st=SECONDS]"},
    {"timemargin", TIMING_NUMBER, offsetof(EngineTiming, timemargin), 0, 3600000,
     PROGRAM_DEFAULT_TIMEMARGIN_MS, "[timemargin=MS]"},
    {"nodestime", TIMING_NUMBER, offsetof(EngineTiming, nodestime), 0, 1000000000, 0,
     "[nodestime=NODES_PER_MS|auto]"},
};
#define TIMING_KEY_COUNT (sizeof TIMING_KEYS / sizeof TIMING_KEYS[0])

static const TimingKey *timing_key(const char *key) {
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++)
        if (!strcmp(TIMING_KEYS[i].key, key))
            return &TIMING_KEYS[i];
    return NULL;
}

static int64_t timing_number(const EngineTiming *t, const TimingKey *k) {
    int64_t value;
    memcpy(&value, (const char *)t + k->offset, sizeof value);
    return value;
}

/* The clock's text under its key ("10+0.1" for tc, "0.1" for st), "" when the key is unset. */
static void timing_text(const EngineTiming *t, const TimingKey *k, char out[CLOCK_TEXT_MAX]) {
    out[0] = '\0';
    bool fixed = t->tc.fixed_ms != 0, any = t->tc.time_ms || t->tc.increment_ms || fixed;
    if (!any || (k->type == TIMING_ST) != fixed)
        return;
    clock_text(&t->tc, out);
    if (fixed)
        out[strcspn(out, "/")] = '\0'; /* "0.1/move" */
}

bool engine_spec_timing_key(EngineTiming *t, const char *key, const char *value, bool *handled,
                            Error *err) {
    *handled = true;
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++) {
        const TimingKey *k = &TIMING_KEYS[i];
        if (strcmp(key, k->key))
            continue;
        if (k->type == TIMING_NUMBER) {
            Error inner;
            int64_t number;
            bool nodestime = k->offset == offsetof(EngineTiming, nodestime);
            if (nodestime && !strcmp(value, "auto")) { /* measured before the first game */
                memset(&t->measured, 0, sizeof t->measured);
                t->measured.on = true;
                t->nodestime = 0;
                return true;
            }
            if (nodestime)
                memset(&t->measured, 0, sizeof t->measured);
            if (!parse_int64(value, k->min, k->max, &number, &inner))
                return error_set(err, "%s=%s: %s%s", k->key, value, inner.text,
                                 nodestime ? " (nodes per ms, or auto: measured before the first "
                                             "game)"
                                           : "");
            memcpy((char *)t + k->offset, &number, sizeof number);
            return true;
        }
        TimeControl tc;
        if (k->type == TIMING_TC ? !clock_parse_tc(value, &tc, err)
                                 : !clock_parse_st(value, &tc, err))
            return false;
        /* A later tc= replaces an earlier one (an engine's own after -each's: time odds), but
         * tc= and st= together are two clocks. */
        const TimeControl *had = &t->tc;
        bool had_clock = had->time_ms || had->increment_ms || had->fixed_ms;
        if (had_clock && (had->fixed_ms != 0) != (k->type == TIMING_ST))
            return error_set(err, "%s=%s: the engine already has %s (one clock per engine: tc= "
                                  "for a game clock, st= for a fixed time per move)",
                             k->key, value, had->fixed_ms ? "st=" : "tc=");
        t->tc = tc;
        return true;
    }
    *handled = false;
    return true;
}

void engine_spec_timing_usage(TextBuf *buf) {
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++)
        textbuf_printf(buf, "%s%s", i ? " " : "", TIMING_KEYS[i].usage);
}

void engine_spec_timing_tokens(const EngineTiming *t, TextBuf *buf) {
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++) {
        const TimingKey *k = &TIMING_KEYS[i];
        char text[CLOCK_TEXT_MAX];
        if (k->type != TIMING_NUMBER) {
            timing_text(t, k, text);
            if (text[0])
                textbuf_printf(buf, " %s=%s", k->key, text);
        } else if (k->offset == offsetof(EngineTiming, nodestime) && t->measured.on) {
            textbuf_printf(buf, " %s=auto", k->key);
        } else if (timing_number(t, k) != k->fallback) {
            textbuf_printf(buf, " %s=%lld", k->key, (long long)timing_number(t, k));
        }
    }
}

bool engine_spec_same_timing(const EngineTiming *a, const EngineTiming *b, const char **key) {
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++) {
        const TimingKey *k = &TIMING_KEYS[i];
        char text_a[CLOCK_TEXT_MAX], text_b[CLOCK_TEXT_MAX];
        bool same;
        if (k->offset == offsetof(EngineTiming, nodestime) &&
            (a->measured.on || b->measured.on)) {
            same = a->measured.on == b->measured.on;
        } else if (k->type == TIMING_NUMBER) {
            same = timing_number(a, k) == timing_number(b, k);
        } else {
            timing_text(a, k, text_a);
            timing_text(b, k, text_b);
            same = !strcmp(text_a, text_b);
        }
        if (!same) {
            *key = k->key;
            return false;
        }
    }
    return true;
}

static cJSON *measured_to_json(const NodestimeAuto *m) {
    cJSON *json = cJSON_CreateObject();
    cJSON *samples = cJSON_AddArrayToObject(json, "samples");
    for (int i = 0; i < m->samples; i++)
        cJSON_AddItemToArray(samples, cJSON_CreateNumber(m->sample[i]));
    cJSON_AddNumberToObject(json, "low", m->low);
    cJSON_AddNumberToObject(json, "high", m->high);
    cJSON_AddNumberToObject(json, "searches", m->searches);
    cJSON_AddNumberToObject(json, "movetime_ms", (double)m->movetime_ms);
    cJSON_AddNumberToObject(json, "load", m->load);
    cJSON_AddNumberToObject(json, "cpu_share", m->cpu_share);
    cJSON_AddNumberToObject(json, "cores", m->cores);
    cJSON_AddStringToObject(json, "host", m->host);
    cJSON_AddStringToObject(json, "utc", m->utc);
    return json;
}

/* A number of a "nodestime_auto" object within [low, high]. */
static bool measured_number(const cJSON *json, const char *key, double low, double high,
                            double *out, Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, key);
    if (!cJSON_IsNumber(item) || !(item->valuedouble >= low && item->valuedouble <= high))
        return error_set(err, "\"nodestime_auto\" \"%s\" must be a number, %g..%g", key, low,
                         high);
    *out = item->valuedouble;
    return true;
}

static bool measured_text(const cJSON *json, const char *key, char *out, size_t size,
                          Error *err) {
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, key));
    if (!text || strlen(text) >= size)
        return error_set(err, "\"nodestime_auto\" \"%s\" must be a text under %zu characters",
                         key, size);
    memcpy(out, text, strlen(text) + 1);
    return true;
}

/* "nodestime_auto" back, checked: the samples, the interval around them, how they were made. A
 * measured engine's "nodestime" must then be a measured speed (1 or more). */
static bool measured_from_json(const cJSON *json, int64_t nodestime, NodestimeAuto *m,
                               Error *err) {
    memset(m, 0, sizeof *m);
    m->on = true;
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(json, "samples");
    int count = cJSON_GetArraySize(samples);
    if (!cJSON_IsObject(json) || !cJSON_IsArray(samples) || count > NODESTIME_SAMPLES_MAX)
        return error_set(err, "\"nodestime_auto\" must be an object with up to %d \"samples\"",
                         NODESTIME_SAMPLES_MAX);
    m->samples = count;
    for (int i = 0; i < count; i++) {
        const cJSON *x = cJSON_GetArrayItem(samples, i);
        if (!cJSON_IsNumber(x) || !(x->valuedouble > 0 && x->valuedouble <= 1e9))
            return error_set(err, "\"nodestime_auto\" sample %d must be a speed in nodes per "
                                  "ms (above 0)", i + 1);
        m->sample[i] = x->valuedouble;
    }
    double searches = 0, movetime = 0, cores = 0;
    if (!measured_number(json, "low", 0, 1e9, &m->low, err) ||
        !measured_number(json, "high", m->low, 1e9, &m->high, err) ||
        !measured_number(json, "searches", 0, 1000, &searches, err) ||
        !measured_number(json, "movetime_ms", 0, 3600000, &movetime, err) ||
        !measured_number(json, "load", -1, 1e6, &m->load, err) ||
        !measured_number(json, "cpu_share", -1, 1e3, &m->cpu_share, err) ||
        !measured_number(json, "cores", 0, 1e6, &cores, err) ||
        !measured_text(json, "host", m->host, sizeof m->host, err) ||
        !measured_text(json, "utc", m->utc, sizeof m->utc, err))
        return false;
    m->searches = (int)searches;
    m->movetime_ms = (int64_t)movetime;
    m->cores = (int)cores;
    if ((count > 0) != (nodestime > 0))
        return error_set(err, "\"nodestime\" is %lld with %d samples of nodestime=auto: a "
                              "measured engine has its speed, an unmeasured one none",
                         (long long)nodestime, count);
    return true;
}

void engine_spec_timing_to_json(const EngineTiming *t, cJSON *engine) {
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++) {
        const TimingKey *k = &TIMING_KEYS[i];
        char text[CLOCK_TEXT_MAX];
        if (k->type == TIMING_NUMBER) {
            cJSON_AddNumberToObject(engine, k->key, (double)timing_number(t, k));
        } else {
            timing_text(t, k, text);
            cJSON_AddStringToObject(engine, k->key, text);
        }
    }
    if (t->measured.on)
        cJSON_AddItemToObject(engine, "nodestime_auto", measured_to_json(&t->measured));
}

bool engine_spec_timing_from_json(const cJSON *engine, EngineTiming *t, Error *err) {
    *t = engine_spec_default().timing;
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++) {
        const TimingKey *k = &TIMING_KEYS[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(engine, k->key);
        if (!item && !strcmp(k->key, "timemargin")) /* before clocks: a program key */
            item = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(engine, "program"), "timemargin");
        if (!item)
            continue; /* written before clocks: none */
        char text[64];
        if (k->type == TIMING_NUMBER) {
            double value = cJSON_IsNumber(item) ? item->valuedouble : -1;
            if (!(value >= (double)k->min && value <= (double)k->max) || value != floor(value))
                return error_set(err, "\"%s\" must be a whole number, %lld..%lld", k->key,
                                 (long long)k->min, (long long)k->max);
            snprintf(text, sizeof text, "%.0f", value);
        } else {
            const char *value = cJSON_GetStringValue(item);
            if (!value || strlen(value) >= sizeof text)
                return error_set(err, "\"%s\" must be a time control's text", k->key);
            if (!*value)
                continue;
            strcpy(text, value);
        }
        bool handled;
        if (!engine_spec_timing_key(t, k->key, text, &handled, err))
            return false;
    }
    const cJSON *measured = cJSON_GetObjectItemCaseSensitive(engine, "nodestime_auto");
    return !measured || measured_from_json(measured, t->nodestime, &t->measured, err);
}

EngineSpec engine_spec_default(void) {
    EngineSpec spec;
    memset(&spec, 0, sizeof spec);
    spec.config = config_default();
    spec.timing.timemargin = PROGRAM_DEFAULT_TIMEMARGIN_MS;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].type == KEY_NUMBER)
            memcpy(field_of(&spec.program, &PROGRAM_KEYS[i]), &PROGRAM_KEYS[i].fallback,
                   sizeof(int64_t));
    return spec;
}

/* Whether a key holds its default (text and options: empty). */
static bool is_default(const ProgramSpec *x, const ProgramKey *k) {
    if (k->type == KEY_NUMBER)
        return number_of(x, k) == k->fallback;
    return !*const_field_of(x, k);
}

void engine_spec_usage(TextBuf *buf) {
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].usage)
            textbuf_printf(buf, "%s%s", i ? " " : "", PROGRAM_KEYS[i].usage);
}

const char *engine_spec_closest_key(const char *key, size_t max_distance) {
    const char *names[PROGRAM_KEY_COUNT + TIMING_KEY_COUNT];
    size_t count = 0;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].type != KEY_OPTIONS)
            names[count++] = PROGRAM_KEYS[i].key;
    for (size_t i = 0; i < TIMING_KEY_COUNT; i++)
        names[count++] = TIMING_KEYS[i].key;
    return parse_closest(key, names, count, max_distance);
}

bool engine_spec_check_name(const char *name, Error *err) {
    size_t length = strlen(name);
    if (length == 0 || length >= MATCH_NAME_MAX)
        return error_set(err, "name empty or longer than %d characters", MATCH_NAME_MAX - 1);
    for (const char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
            return error_set(err,
                             "name '%s': use letters, digits and . _ + - only (names go "
                             "into per-game lines that parsers split on spaces and colons, "
                             "and into the records' quoted tags)",
                             name);
    return true;
}

/* The first control character of text (a newline, a tab, ESC...), or NULL. Such a character in
 * a value sent to an engine would end its line early and inject a command of its own. */
static const char *control_character(const char *text) {
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return p;
    return NULL;
}

static bool add_option(ProgramSpec *x, const char *name, const char *value, Error *err) {
    if (!*name || strpbrk(name, " =") || !*value || strchr(value, ' '))
        return error_set(err,
                         "option.NAME=VALUE: NAME and VALUE must be single words "
                         "(got 'option.%s=%s')",
                         name, value);
    size_t used = strlen(x->options);
    int n = snprintf(x->options + used, sizeof x->options - used, "%s%s=%s", used ? " " : "", name,
                     value);
    if (n < 0 || (size_t)n >= sizeof x->options - used)
        return error_set(err, "option.%s: the engine's options exceed %zu characters", name,
                         sizeof x->options - 1);
    return true;
}

static bool set_text(ProgramSpec *x, const ProgramKey *k, const char *value, Error *err) {
    if (strlen(value) >= k->size)
        return error_set(err, "%s=: longer than %zu characters", k->key, k->size - 1);
    if (!strcmp(k->key, "cmd") && !*value)
        return error_set(err, "cmd=: empty (give the engine program)");
    if (!strcmp(k->key, "args")) {
        char words_text[ENGINE_ARGS_TEXT_MAX], *words[ENGINE_ARGS_MAX];
        snprintf(words_text, sizeof words_text, "%s", value);
        if (program_args_split(words_text, words, ENGINE_ARGS_MAX) < 0)
            return error_set(err, "args=: more than %d words", ENGINE_ARGS_MAX);
    }
    strcpy(field_of(x, k), value);
    return true;
}

static bool set_number(ProgramSpec *x, const ProgramKey *k, const char *value, Error *err) {
    Error inner;
    int64_t number;
    /* bench=0 is "not checked" only as the default: given, it must be a real count, or off. */
    bool is_bench = !strcmp(k->key, "bench");
    if (is_bench && !strcmp(value, "off"))
        number = PROGRAM_BENCH_OFF;
    else if (!parse_int64(value, is_bench ? 1 : k->min, k->max, &number, &inner))
        return error_set(err, "%s=%s: %s%s", k->key, value, inner.text,
                         is_bench ? " (or off: a program without bench)" : "");
    memcpy(field_of(x, k), &number, sizeof number);
    return true;
}

bool engine_spec_program_key(ProgramSpec *x, const char *key, const char *value, bool *handled,
                             Error *err) {
    *handled = true;
    const char *control = control_character(key);
    if (!control)
        control = control_character(value);
    if (control)
        return error_set(err,
                         "%s: control character 0x%02x in the value (a newline or tab "
                         "would reach the engine as a command of its own)",
                         key, (unsigned)(unsigned char)*control);
    if (!strncmp(key, "option.", 7))
        return add_option(x, key + 7, value, err);
    if (!strcmp(key, "proto")) {
        if (strcmp(value, "uci"))
            return error_set(err,
                             "proto=%s: engine programs speak the engine protocol "
                             "(proto=uci, docs/engine.md)",
                             value);
        return true;
    }
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (strcmp(key, k->key) || k->type == KEY_OPTIONS)
            continue;
        return k->type == KEY_TEXT ? set_text(x, k, value, err) : set_number(x, k, value, err);
    }
    *handled = false;
    return true;
}

/* A clock excludes movetime= (fastchess sends either wtime/btime or movetime), and nodestime=
 * times a clock. */
static bool check_timing(const EngineSpec *spec, Error *err) {
    char text[CLOCK_TEXT_MAX];
    const TimingKey *clock_key = timing_key(spec->timing.tc.fixed_ms ? "st" : "tc");
    timing_text(&spec->timing, clock_key, text);
    if (engine_has_clock(spec) && spec->config.movetime)
        return error_set(err, "-engine %s: movetime=%lld and %s=%s are two limits on time: give "
                              "one (st=SECONDS is a fixed time per move on abtest's clock)",
                         spec->name, (long long)spec->config.movetime, clock_key->key, text);
    /* A program's movetime= is timed too; nothing else is without a clock. */
    if (spec->timing.timemargin != PROGRAM_DEFAULT_TIMEMARGIN_MS && !engine_has_clock(spec) &&
        !engine_is_program(spec))
        return error_set(err, "-engine %s: timemargin=%lld forgives an overrun of a clock: an "
                              "in-process engine has none without tc= or st=",
                         spec->name, (long long)spec->timing.timemargin);
    if (spec->timing.measured.on && !engine_has_clock(spec))
        return error_set(err, "-engine %s: nodestime=auto measures the engine's speed to count a "
                              "clock in nodes: give tc= or st= with it",
                         spec->name);
    if (spec->timing.nodestime && !engine_has_clock(spec))
        return error_set(err, "-engine %s: nodestime=%lld counts a clock in nodes: give tc= or "
                              "st= with it",
                         spec->name, (long long)spec->timing.nodestime);
    return true;
}

bool engine_spec_check_kind(const EngineSpec *spec, Error *err) {
    if (!check_timing(spec, err))
        return false;
    if (!engine_is_program(spec)) {
        for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
            const ProgramKey *k = &PROGRAM_KEYS[i];
            if (is_default(&spec->program, k))
                continue;
            if (k->type == KEY_OPTIONS)
                return error_set(err,
                                 "-engine %s: option.NAME=VALUE is for engine programs "
                                 "(cmd=); an in-process engine takes search options as "
                                 "plain key=value (`bench options`)",
                                 spec->name);
            return error_set(err,
                             "-engine %s: %s= belongs to engine programs (give cmd=); an "
                             "in-process engine has no program to wait for",
                             spec->name, k->key);
        }
        return true;
    }
    SearchConfig plain = config_default();
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *o = &CONFIG_OPTIONS[i];
        char mine[32], standard[32];
        if (o->kind == OPTION_KIND_LIMIT || !strcmp(config_value_text(&spec->config, o, mine),
                                                    config_value_text(&plain, o, standard)))
            continue;
        return error_set(err,
                         "-engine %s runs a program (cmd=): '%s=%s' is an in-process search "
                         "option; give the program's options as option.%s=%s",
                         spec->name, o->name, mine, o->name, mine);
    }
    return true;
}

void engine_spec_program_tokens(const ProgramSpec *x, TextBuf *buf) {
    if (!x->cmd[0])
        return;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (is_default(x, k))
            continue;
        if (k->type == KEY_NUMBER && number_of(x, k) == PROGRAM_BENCH_OFF) {
            textbuf_printf(buf, " %s=off", k->key); /* bench=off, the one negative number */
        } else if (k->type == KEY_NUMBER) {
            textbuf_printf(buf, " %s=%lld", k->key, (long long)number_of(x, k));
        } else if (k->type == KEY_TEXT) {
            const char *text = const_field_of(x, k);
            textbuf_printf(buf, strchr(text, ' ') ? " '%s=%s'" : " %s=%s", k->key, text);
        } else {
            char options[PROGRAM_OPTIONS_MAX];
            snprintf(options, sizeof options, "%s", x->options);
            char *save = NULL;
            for (char *word = strtok_r(options, " ", &save); word;
                 word = strtok_r(NULL, " ", &save))
                textbuf_printf(buf, " option.%s", word);
        }
    }
}

bool engine_spec_same_program(const ProgramSpec *a, const ProgramSpec *b, const char **key) {
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        bool same = k->type == KEY_NUMBER ? number_of(a, k) == number_of(b, k)
                                          : !strcmp(const_field_of(a, k), const_field_of(b, k));
        if (!same) {
            *key = k->key;
            return false;
        }
    }
    return true;
}

cJSON *engine_spec_program_to_json(const ProgramSpec *x) {
    cJSON *json = cJSON_CreateObject();
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (k->type == KEY_NUMBER)
            cJSON_AddNumberToObject(json, k->key, (double)number_of(x, k));
        else
            cJSON_AddStringToObject(json, k->key, const_field_of(x, k));
    }
    cJSON_AddItemToObject(json, "seen", program_identity_to_json(&x->seen));
    return json;
}

/* The recorded "NAME=VALUE ..." words, each checked as option.NAME=VALUE is. */
static bool options_from_text(ProgramSpec *x, const char *text, Error *err) {
    char copy[PROGRAM_OPTIONS_MAX];
    snprintf(copy, sizeof copy, "%s", text);
    char *save = NULL;
    bool handled;
    for (char *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        char *equals = strchr(word, '='), key[PROGRAM_OPTIONS_MAX + 8];
        if (!equals)
            return error_set(err, "options: '%.40s' is not NAME=VALUE", word);
        *equals = '\0';
        snprintf(key, sizeof key, "option.%s", word);
        if (!engine_spec_program_key(x, key, equals + 1, &handled, err))
            return false;
    }
    return true;
}

bool engine_spec_program_from_json(const cJSON *json, ProgramSpec *x, Error *err) {
    *x = engine_spec_default().program;
    if (!json)
        return true;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, k->key);
        if (k->type == KEY_NUMBER) {
            double value = cJSON_IsNumber(item) ? item->valuedouble : -1;
            if (!(value >= (double)k->min && value <= (double)k->max) || value != floor(value))
                return error_set(err, "\"%s\" must be a whole number, %lld..%lld", k->key,
                                 (long long)k->min, (long long)k->max);
            int64_t number = (int64_t)value;
            char text[32];
            snprintf(text, sizeof text, "%lld", (long long)number);
            if (number == PROGRAM_BENCH_OFF) /* only bench's range holds it */
                snprintf(text, sizeof text, "off");
            if (number != k->fallback && !set_number(x, k, text, err))
                return false;
            memcpy(field_of(x, k), &number, sizeof number);
            continue;
        }
        const char *text = cJSON_GetStringValue(item);
        if (!text || strlen(text) >= k->size)
            return error_set(err, "\"%s\" must be a string of at most %zu characters", k->key,
                             k->size - 1);
        bool handled;
        if (k->type == KEY_OPTIONS ? !options_from_text(x, text, err)
                                   : (*text || !strcmp(k->key, "cmd")) &&
                                         !engine_spec_program_key(x, k->key, text, &handled, err))
            return false;
    }
    /* What the program was when the run began; files of tslab 0.4.0 kept only its bench count
     * (bench_seen), older ones nothing: the resumed run compares what there is. */
    const cJSON *seen = cJSON_GetObjectItemCaseSensitive(json, "seen");
    const cJSON *bench_seen = cJSON_GetObjectItemCaseSensitive(json, "bench_seen");
    if (!program_identity_from_json(seen, &x->seen, err))
        return false;
    if (!seen && bench_seen) {
        double value = cJSON_IsNumber(bench_seen) ? bench_seen->valuedouble : -1;
        if (!(value >= 0 && value <= (double)PROGRAM_REPLY_NODES_MAX) || value != floor(value))
            return error_set(err, "\"bench_seen\" must be a whole number, 0..%" PRIu64,
                             PROGRAM_REPLY_NODES_MAX);
        x->seen.bench = (int64_t)value;
    }
    return true;
}

// SPDX-License-Identifier: MIT
// Settings and book are frozen before the pool's threads start. The pool (lab/match/pair_pool.c)
// hands out pair numbers in order, to this machine's threads and to other ranks alike; a pair's
// games depend only on its number. The main thread takes finished pairs strictly in pair order,
// so counts, SPRT decision and records are the same for any -concurrency or number of ranks.
#include "runner.h"

#include "calibrate.h"
#include "ladder.h"
#include "ladder_status.h"
#include "program.h"

#include "cli.h"
#include "describe.h"
#include "outputs.h"
#include "paths.h"
#include "pgn.h"
#include "plot.h"
#include "report_html.h"
#include "results.h"
#include "results_load.h"
#include "textbuf.h"
#include "tournament_status.h"
#include "runfiles.h"
#include "schedule.h"
#include "status.h"
#include "tablebase.h"
#include "tb_shared.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define STATUS_PERIOD_SECONDS 0.25

/* The signal that stopped the run (0: none). The handler runs on whichever thread the kernel
 * picks, often a game's worker, while the main loop reads it: a volatile sig_atomic_t is safe
 * only within one thread (TSan saw the race under load), a lock-free atomic on any thread. */
static atomic_int interrupt_signal = 0;
/* The running Runner's abort flag, raised by a signal at once: whatever a game or a start-up
 * waits on (a program's answer, its input) then ends within 100 ms (engine_process.h). */
static _Atomic(atomic_bool *) signal_abort = NULL;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2 &&
                   ATOMIC_BOOL_LOCK_FREE == 2,
               "a signal handler may store only to lock-free atomics");

static void on_signal(int signal_number) {
    atomic_store(&interrupt_signal, signal_number);
    atomic_bool *abort = atomic_load(&signal_abort);
    if (abort)
        atomic_store(abort, true);
}

/* The signal that stopped the run, 0 if none. */
static int stop_signal(void) { return atomic_load(&interrupt_signal); }

typedef struct {
    MatchSettings *settings;
    const PairRemote *remote; /* NULL: this machine's threads only */
    bool remote_begun;          /* remote->begin succeeded: remote->end is owed */
    Book book;
    Tablebase *tablebase; /* -tb (NULL: off); read-only, shared by every worker */
    /* -blunders: what judges each counted pair's moves (judge.sliding NULL: off); the sliding
     * file is -tb's, or judge_sliding opened for it. */
    TbJudge judge;
    Tablebase *judge_sliding;
    Schedule schedule;
    MatchTotals totals;
    RunFiles files;
    char command[4096];
    double session_start, seconds_before; /* wall time of this session, and of earlier ones */
    PairPool *pool;
    atomic_bool abort; /* makes running games and a program's start-up give up */
    int64_t limit; /* rounds */
    int concurrency_given; /* -concurrency as given (0: none), for the other ranks */
    bool page_failed; /* -html could not be written (said once) */
    /* A tournament (settings->tournament): each pairing's match, and the joint rating of the
     * counts so far (rated: every pairing has a pair). */
    bool tournament;
    bool ladder; /* a tournament whose pairings are a ladder's steps, one open at a time */
    TournamentTotals tour;
    RatingList rating;
    bool rated;
    /* The pairings playing from which pair (a match's one from pair 0), and a gauntlet's
     * family of SPRTs (settings->has_sprt): the pairs of a closed pairing that were in flight
     * when it closed are dropped, counted in closed_discards. */
    PairingSegment segment;
    Family family;
    int family_pairing[FAMILY_TESTS_MAX]; /* test i's pairing (a ladder's step: its candidates) */
    int64_t closed_discards;
    bool bounds_noted; /* small normalized bounds said (once) */
} Runner;

/* -html: the run's page, as abtest report writes it, rewritten after each checkpoint. The page
 * is a view, not the record: a failure is said once and the run goes on. */
static cJSON *page_details(void *context, const ReportEntry *entry, bool *owned) {
    (void)entry;
    *owned = false;
    return context;
}

static void write_page(Runner *r, RunState state) {
    const MatchSettings *s = r->settings;
    cJSON *json =
        r->tournament
            ? results_tournament_to_json(s, &r->totals, &r->tour, r->rated ? &r->rating : NULL,
                                         state, r->book.content_hash, r->book.count, r->command)
            : results_to_json(s, &r->totals, state, r->book.content_hash, r->book.count,
                              r->command);
    /* The entry abtest report would make of the file, read by its reader. */
    ReportEntry entry = {0};
    entry.run.file = s->out_path[0] ? s->out_path : "-";
    Error err = {{0}};
    bool ok = json && report_entry_read(&entry, json, &err) &&
              report_html_write_entries(&r->files.outputs.plan, s->html_path, &entry, 1,
                                        state == RUN_RUNNING, page_details, json, &err);
    if (!ok && !r->page_failed)
        cli_error("warning: -html %s: %s; the run goes on without its page", s->html_path,
                  json ? err.text : "out of memory");
    r->page_failed = !ok;
    if (entry.tournament)
        tournament_summary_destroy(entry.tournament);
    free(entry.tournament);
    cJSON_Delete(json);
}

/* A checkpoint: the records made durable, then the results file written atomically. A failure
 * is said once, by the main loop, which stops the run. */
static bool checkpoint(Runner *r, RunState state) {
    double session_seconds = cli_now_seconds() - r->session_start;
    r->totals.seconds = r->seconds_before + session_seconds;
    SessionRanks *session = &r->totals.session;
    session->seconds = session_seconds;
    pair_pool_traffic(r->pool, session);
    bool saved = runfiles_checkpoint(&r->files, &r->totals, r->tournament ? &r->tour : NULL,
                                     r->rated ? &r->rating : NULL, state, &r->book, r->command);
    if (saved && r->settings->html_path[0])
        write_page(r, state);
    return saved;
}

/* Exit status of a run stopped by a signal: the shell's 128 + signal (130 for SIGINT). */
static int signal_status(void) { return 128 + stop_signal(); }

/* Why the run did not reach its first game: a signal (nothing was saved), or the error. */
static void say_start_failure(const Error *err) {
    if (stop_signal())
        printf("abtest: stopped by signal %d before the first game: nothing to save\n",
               stop_signal());
    else
        cli_error("%s", err->text);
}

/* A program as it is now: its default bench (asked as fishtest's workers ask, printed with its
 * signature) and its file. False after saying why. */
static bool measure_program(Runner *r, const EngineSpec *spec, ProgramIdentity *now) {
    ProgramBenchReply bench;
    Error err;
    memset(now, 0, sizeof *now);
    bool asked = spec->program.bench != PROGRAM_BENCH_OFF; /* bench=off: its files alone */
    if (asked && !program_check_bench(spec, stdout, &r->abort, &bench, &err)) {
        say_start_failure(&err);
        return false;
    }
    if (asked) {
        /* nodes is at most PROGRAM_REPLY_NODES_MAX (2^40): it fits an int64_t. */
        now->bench = (int64_t)bench.nodes;
        memcpy(now->signature, bench.signature, sizeof now->signature);
    }
    if (!program_identity_stat(spec->program.cmd, spec->program.args, spec->program.dir, now,
                               &err)) {
        cli_error("engine %s: %s", spec->name, err.text);
        return false;
    }
    if (!asked)
        printf("engine %s (%s): bench=off: not asked for its bench; known by its files (%s%s%s)\n",
               spec->name, spec->program.cmd, now->path, now->args_files[0] ? ", " : "",
               now->args_files);
    return true;
}

/* Appends "pair N: what" to the changes the run resumed through. */
static void note_accepted_change(MatchTotals *t, const char *what) {
    size_t used = strlen(t->accepted_changes);
    snprintf(t->accepted_changes + used, sizeof t->accepted_changes - used,
             "pair %lld: %s\n", (long long)t->pairs + 1, what);
}

/* -rounds N on a resume, above the run's: each pairing plays to N, a run that had played its
 * rounds goes on (one decided by its SPRT stays ended), and the change is said and recorded. */
static void extend_rounds(Runner *r, int64_t recorded, RunState recorded_state,
                          bool *already_ended) {
    const MatchSettings *s = r->settings;
    char what[160];
    for (int p = 0; p < r->tour.pairings.count; p++)
        r->tour.settings[p].rounds = s->rounds;
    if (recorded_state == RUN_ROUNDS)
        *already_ended = false;
    snprintf(what, sizeof what, "-rounds %" PRId64 " (the run was started for %" PRId64 ")",
             s->rounds, recorded);
    printf("note: %s; resumed to play %s pairs%s\n", what,
           s->tournament != TOURNAMENT_MATCH ? "each pairing's" : "its",
           *already_ended ? " (its SPRT has decided: nothing more to play)" : "");
    note_accepted_change(&r->totals, what);
}

/* Refuses a change of what plays unless -allow-engine-change says it is meant, in which case
 * the change is said and recorded in the results file. engine: "engine NAME" or "engine NAME
 * (CMD)"; kind: "program" or "build". False after saying why. */
static bool accept_change(Runner *r, const char *engine, const char *kind, const char *what) {
    const MatchSettings *s = r->settings;
    if (!s->allow_engine_change) {
        cli_error("-resume %s: %s is not the %s the run began with: %s. Its games would be mixed "
                  "with the first build's: " PROVENANCE_ADVICE,
                  s->resume_path, engine, kind, what);
        return false;
    }
    printf("note: %s changed since the run began (%s); resumed as -allow-engine-change asks: "
           "the results mix both builds\n",
           engine, what);
    char line[TOTALS_CHANGES_MAX / 2]; /* a long change is cut: the note says which engine */
    TextBuf buf = textbuf(line, sizeof line);
    textbuf_printf(&buf, "%s: %s", engine, what);
    note_accepted_change(&r->totals, line);
    return true;
}

/* Normalized bounds that mean less than one logistic Elo at this run's pairs (nearly every pair
 * drawn, as between two almost identical engines) are said once, with their logistic
 * equivalent, when 100 pairs have given a draw ratio worth the name: in the start banner of a
 * run resumed past them, else at the first status block after them (before any pair, the draw
 * ratio, and so the equivalent, is unknown). */
#define BOUNDS_NOTE_PAIRS 100
static void note_small_bounds(Runner *r) {
    const MatchSettings *s = r->settings;
    const Pentanomial *penta = &r->totals.penta;
    if (r->bounds_noted || !s->has_sprt || s->sprt.model != SPRT_MODEL_NORMALIZED ||
        r->totals.pairs < BOUNDS_NOTE_PAIRS)
        return;
    r->bounds_noted = true;
    double elo0 = sprt_nelo_as_elo(s->sprt.elo0, penta),
           elo1 = sprt_nelo_as_elo(s->sprt.elo1, penta);
    if (!(fabs(elo0) < 1 && fabs(elo1) < 1))
        return;
    elo0 = fabs(elo0) < 0.005 ? 0 : elo0; /* no "-0.00" */
    elo1 = fabs(elo1) < 0.005 ? 0 : elo1;
    printf("note: at this run's pairs (%.1f%% drawn), the bounds [%g, %g] nElo are [%.2f, %.2f] "
           "logistic Elo: the test resolves differences under one Elo\n",
           100 * sprt_pair_draw_ratio(penta), s->sprt.elo0, s->sprt.elo1, elo0, elo1);
}

/* A run written before some options existed: they take this version's default, which may
 * change the engines, so the resume is refused unless -allow-engine-change says it is meant;
 * then it is said and recorded. False after saying why. */
static bool accept_defaulted_options(Runner *r, const MatchSettings *s, const char *defaulted) {
    if (!s->allow_engine_change) {
        cli_error("-resume %s: the run was written before some options existed; resuming gives "
                  "them this version's default (%s), which may change the engines. Give "
                  "-allow-engine-change to resume with them so (the results file says it)",
                  s->resume_path, defaulted);
        return false;
    }
    printf("note: options the run did not know take this version's default (%s); resumed as "
           "-allow-engine-change asks\n",
           defaulted);
    char line[TOTALS_CHANGES_MAX / 2];
    snprintf(line, sizeof line, "options at this version's default: %.900s", defaulted);
    note_accepted_change(&r->totals, line);
    return true;
}

/* An in-process engine is the build that runs it and its configuration's search: the build's
 * source identity and the engine's signature are recorded, and a resume that finds other code
 * (a rebuild after an edit, other flags) is refused as a changed program is. */
static bool check_in_process(Runner *r, int e, bool resuming, const BuildIdentity *build) {
    EngineSpec *spec = &r->settings->engines[e];
    EngineSignature now;
    Error err;
    if (!provenance_signature(&spec->config, &now, &err)) {
        cli_error("engine %s: %s", spec->name, err.text);
        return false;
    }
    char changes[512], engine[MATCH_NAME_MAX + 8];
    snprintf(engine, sizeof engine, "engine %s", spec->name);
    if (resuming &&
        provenance_changes(&r->totals.build, build, &r->totals.signatures[e], &now, changes,
                           sizeof changes) &&
        !accept_change(r, engine, "build", changes))
        return false;
    r->totals.signatures[e] = now;
    return true;
}

/* Before any game: each engine program answers `bench`, each in-process engine is signed, and
 * the tablebase of an in-process engine with egdb=on opens. What played when the run began (a
 * program's bench count and signature, its file's path, size and modification time; an
 * in-process engine's build and signature) is recorded in the results file; a resumed run that
 * finds anything else is refused, naming what changed, since its games would be mixed with
 * another build's (a rebuilt binary, a cmd= edited in the file), unless -allow-engine-change
 * says the change is meant (then recorded). False after saying why. */
static bool check_engines(Runner *r, MatchSettings *s) {
    bool resuming = s->resume_path[0] != '\0';
    BuildIdentity build;
    provenance_build(&build);
    for (int e = 0; e < s->engine_count; e++) {
        EngineSpec *spec = &s->engines[e];
        Error err;
        /* An in-process engine that probes the tablebase needs a sound one: said before any
         * game. */
        if (!engine_is_program(spec) && spec->config.egdb && !cli_tablebase(&err)) {
            cli_error("engine %s: egdb=on: %s", spec->name, err.text);
            return false;
        }
        if (!engine_is_program(spec)) {
            if (!check_in_process(r, e, resuming, &build))
                return false;
            continue;
        }
        ProgramIdentity now;
        if (!measure_program(r, spec, &now))
            return false;
        char changes[2 * PROGRAM_PATH_MAX + 256];
        if (program_identity_changes(&spec->program.seen, &now, changes, sizeof changes)) {
            char engine[MATCH_NAME_MAX + PROGRAM_TEXT_MAX + 16];
            snprintf(engine, sizeof engine, "engine %s (%s)", spec->name, spec->program.cmd);
            if (!accept_change(r, engine, "program", changes))
                return false;
        }
        spec->program.seen = now;
    }
    r->totals.build = build;
    return true;
}

/* Ends the pool's span: running games given up, the pairs handed out and not counted
 * counted as discarded. */
static void stop_pairs(Runner *r) {
    r->totals.discarded_pairs = pair_pool_end(r->pool) + r->closed_discards;
}

/* The decisions the family's tests already hold, from their pairings' counts. */
static void family_restore(Runner *r) {
    for (int i = 0; i < r->family.count; i++) {
        SprtDecision decision = r->tour.totals[r->family_pairing[i]].decision;
        if (decision == SPRT_H1) {
            r->family.decision[i] = FAMILY_H1;
            r->family.h1++;
        } else if (decision == SPRT_H0) {
            r->family.decision[i] = FAMILY_H0;
            r->family.h0++;
        }
    }
}

/* A ladder's open step (ladder.h): the pairings of its candidates still climbing, in turn from
 * their counts as a gauntlet's (tournament.h), after the pairs of the steps before; and a
 * gauntlet's step has a family of its candidates' SPRTs, with the decisions it already holds. */
static bool plan_ladder_step(Runner *r, Error *err) {
    const MatchSettings *s = r->settings;
    const LadderSpec *ladder = &s->ladder;
    int step = ladder_open_step(ladder, r->tour.totals, s->rounds);
    if (step < 0) { /* over: nothing follows */
        r->segment = (PairingSegment){.first_pair = r->totals.pairs, .count = 1};
        r->limit = r->totals.pairs;
        return true;
    }
    int first = step * ladder->candidates, tests = 0;
    int64_t pairs[TOURNAMENT_PAIRINGS_MAX];
    bool closed[TOURNAMENT_PAIRINGS_MAX];
    for (int c = 0; c < ladder->candidates; c++) {
        const MatchTotals *t = &r->tour.totals[first + c];
        bool climbs = ladder_climbs(ladder, r->tour.totals, step, c);
        pairs[c] = t->pairs;
        closed[c] = !climbs || t->decision != SPRT_CONTINUE;
        if (climbs)
            r->family_pairing[tests++] = first + c;
    }
    PairingSegment within;
    if (!tournament_segment_from_counts(ladder->candidates, pairs, closed, &within, err))
        return false;
    r->segment = within;
    int64_t ahead = 0; /* pairs of this round already counted */
    for (int i = 0; i < within.count; i++) {
        r->segment.open[i] = (uint8_t)(first + within.open[i]);
        ahead += pairs[within.open[i]] - within.first_round;
    }
    r->segment.first_pair = r->totals.pairs - ahead;
    r->limit = s->rounds < SETTINGS_UNBOUNDED_ROUNDS
                   ? r->segment.first_pair + r->segment.count * (s->rounds - within.first_round)
                   : SETTINGS_UNBOUNDED_ROUNDS;
    const MatchSettings *match = &r->tour.settings[first];
    if (!ladder->gauntlet || !match->has_sprt)
        return true;
    if (!family_init(&r->family, s->family, tests, match->sprt.alpha, match->sprt.beta, err))
        return false;
    family_restore(r);
    return true;
}

/* Which pairings play from which pair, from the counts (tournament.h), and the last pair they
 * may reach: -rounds pairs each. False with the reason when the counts cannot be the
 * schedule's. */
static bool plan_segment(Runner *r, Error *err) {
    const MatchSettings *s = r->settings;
    if (!r->tournament) {
        r->segment = tournament_segment_all(1);
        r->limit = s->rounds;
        return true;
    }
    if (r->ladder)
        return plan_ladder_step(r, err);
    int count = r->tour.pairings.count;
    int64_t pairs[TOURNAMENT_PAIRINGS_MAX];
    bool closed[TOURNAMENT_PAIRINGS_MAX];
    for (int p = 0; p < count; p++) {
        pairs[p] = r->tour.totals[p].pairs;
        closed[p] = r->tour.totals[p].decision != SPRT_CONTINUE;
    }
    if (!tournament_segment_from_counts(count, pairs, closed, &r->segment, err))
        return false;
    r->limit = s->rounds < SETTINGS_UNBOUNDED_ROUNDS
                   ? r->segment.first_pair + r->segment.count * (s->rounds - r->segment.first_round)
                   : SETTINGS_UNBOUNDED_ROUNDS;
    return true;
}

/* A gauntlet's family of SPRTs, with the decisions its pairings already hold (a resume): every
 * pairing is a test. A ladder's family is its open step's (plan_ladder_step). */
static bool family_from_counts(Runner *r, Error *err) {
    const MatchSettings *s = r->settings;
    int count = r->tour.pairings.count;
    if (r->ladder)
        return true;
    if (!family_init(&r->family, s->family, count, s->sprt.alpha, s->sprt.beta, err))
        return false;
    for (int p = 0; p < count; p++)
        r->family_pairing[p] = p;
    family_restore(r);
    return true;
}

/* The LLRs of the pairings a look has just decided, highest first for H1 and lowest first
 * for H0: the order in which the step-down gave them their levels. */
static void sort_decided(int decided[], int count, const double llr[], bool h1) {
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0; j--) {
            double a = llr[decided[j - 1]], b = llr[decided[j]];
            if (h1 ? b <= a : b >= a)
                break;
            int swap = decided[j];
            decided[j] = decided[j - 1];
            decided[j - 1] = swap;
        }
}

/* Closes the pairings a look decided: their decision at their count, a last trajectory point,
 * a line each with the bound its level held it to. */
static void close_decided(Runner *r, const double llr[], FamilyDecision kind, int taken_before,
                          bool live) {
    int decided[FAMILY_TESTS_MAX], count = 0;
    for (int test = 0; test < r->family.count; test++)
        if (r->family.decision[test] == kind &&
            r->tour.totals[r->family_pairing[test]].decision == SPRT_CONTINUE)
            decided[count++] = test;
    sort_decided(decided, count, llr, kind == FAMILY_H1);
    for (int i = 0; i < count; i++) {
        int test = decided[i], p = r->family_pairing[test];
        MatchTotals *t = &r->tour.totals[p];
        const MatchSettings *match = &r->tour.settings[p];
        t->decision = kind == FAMILY_H1 ? SPRT_H1 : SPRT_H0;
        t->decision_pair = t->pairs;
        totals_add_point(t, &match->sprt, true);
        if (r->settings->quiet)
            continue;
        if (live)
            status_line_clear(stdout);
        double bound = kind == FAMILY_H1 ? family_upper(&r->family, taken_before + i)
                                         : family_lower(&r->family, taken_before + i);
        printf("SPRT: %s vs %s: %s after %" PRId64 " pairs, LLR %.3f %s %.3f (%s, %s level %d "
               "of %d)\n",
               match->engines[0].name, match->engines[1].name,
               kind == FAMILY_H1 ? "H1 accepted" : "H0 accepted", t->pairs, llr[test],
               kind == FAMILY_H1 ? ">=" : "<=", bound, family_control_name(r->family.control),
               kind == FAMILY_H1 ? "H1" : "H0", taken_before + i + 1, r->family.count);
    }
}

/* A gauntlet's look at the end of a round of its open pairings: the step-down over every open
 * candidate's LLR. Returns RUN_SPRT when every candidate is decided; *closed tells whether
 * any pairing closed now. */
static RunState look(Runner *r, bool live, bool *closed) {
    double llr[FAMILY_TESTS_MAX] = {0};
    for (int test = 0; test < r->family.count; test++) {
        int p = r->family_pairing[test];
        SprtSample sample = totals_sample(&r->tour.totals[p]);
        llr[test] = sprt_llr(&sample, &r->tour.settings[p].sprt);
    }
    int h1 = r->family.h1, h0 = r->family.h0;
    *closed = family_look(&r->family, llr) > 0;
    if (!*closed)
        return RUN_RUNNING;
    close_decided(r, llr, FAMILY_H1, h1, live);
    close_decided(r, llr, FAMILY_H0, h0, live);
    return r->family.h1 + r->family.h0 == r->family.count ? RUN_SPRT : RUN_RUNNING;
}

/* Counts one pair (the next in order): totals, records, per-game lines, SPRT. Returns the new
 * state. */
static RunState count_pair(Runner *r, PairRecord *pair, bool live) {
    /* The pair's own match: the run's, or its pairing's in a tournament. */
    const MatchSettings *match = r->settings;
    if (r->judge.sliding) /* before anything counts or records the pair */
        blunders_judge_pair(&r->judge, pair);
    totals_add_pair(&r->totals, pair);
    if (r->tournament) {
        tournament_totals_add(&r->tour, pair);
        match = &r->tour.settings[pair->pairing];
    }
    if (r->files.pgn)
        pgn_write_pair(r->files.pgn, match, pair, r->book.entries[pair->opening].id,
                       r->totals.started);
    if (!r->settings->quiet) {
        if (live)
            status_line_clear(stdout);
        status_game_lines(stdout, match, pair, r->limit);
    }
    /* The rounds reached: a pairing's k-th pair plays round k (a match's pair k). */
    int64_t rounds = tournament_round_of(&r->segment, pair->index) + 1;
    if (rounds > r->book.count && !r->totals.book_exhausted) {
        r->totals.book_exhausted = true;
        if (live)
            status_line_clear(stdout);
        printf("note: pair %" PRId64 " replays an opening: the book has %d%s\n", r->totals.pairs,
               r->book.count, r->settings->random_plies ? "" : " (deterministic engines replay "
                                                                "the same games: use a larger "
                                                                "book or randomplies=)");
    }
    if (r->ladder) { /* a match's step: its own test; a gauntlet's looks at a round's end */
        if (r->settings->ladder.gauntlet)
            return RUN_RUNNING;
        MatchTotals *t = &r->tour.totals[pair->pairing];
        const MatchSettings *step = &r->tour.settings[pair->pairing];
        SprtDecision decision = step->has_sprt ? totals_decide(t, &step->sprt) : SPRT_CONTINUE;
        if (decision != SPRT_CONTINUE) {
            t->decision = decision;
            t->decision_pair = t->pairs;
        }
        return RUN_RUNNING;
    }
    if (r->settings->has_sprt && !r->tournament) {
        SprtDecision decision = totals_decide(&r->totals, &r->settings->sprt);
        if (decision != SPRT_CONTINUE) {
            r->totals.decision = decision;
            r->totals.decision_pair = r->totals.pairs;
            return RUN_SPRT;
        }
    }
    return r->totals.pairs >= r->limit ? RUN_ROUNDS : RUN_RUNNING;
}

/* One line per clocked engine: its time control, margin and what its clock runs on. */
static void print_clocks(const MatchSettings *s, FILE *out) {
    for (int e = 0; e < s->engine_count; e++) {
        const EngineTiming *t = &s->engines[e].timing;
        char text[CLOCK_TEXT_MAX], runs_on[64] = "the wall clock";
        if (!engine_has_clock(&s->engines[e]))
            continue;
        if (t->nodestime)
            snprintf(runs_on, sizeof runs_on, "nodes (nodestime %lld a ms%s)",
                     (long long)t->nodestime, t->measured.on ? ", measured" : "");
        fprintf(out, "clock %s: %s, timemargin %lld ms, on %s\n", s->engines[e].name,
                clock_text(&t->tc, text), (long long)t->timemargin, runs_on);
    }
}

static void print_start(const Runner *r, FILE *out, bool resuming) {
    const MatchSettings *s = r->settings;
    const SessionRanks *session = &r->totals.session;
    int workers = 0;
    for (int i = 0; i < session->count; i++)
        workers += session->ranks[i].threads;
    char ranks[32] = "";
    if (session->count > 1)
        snprintf(ranks, sizeof ranks, " on %d ranks", session->count);
    const char *timed = settings_reproducible(s) ? ""
                                                 : "; moves timed on the wall clock: results are "
                                                   "NOT reproducible (nodestime= makes a clock "
                                                   "reproducible)";
    if (r->ladder) {
        char steps[LADDER_STEPS_MAX * (LADDER_STEP_TEXT + LADDER_PRESET_TEXT) + 16];
        char first[MATCH_NAME_MAX], second[MATCH_NAME_MAX];
        ladder_text(&s->ladder, steps, sizeof steps);
        ladder_base_name(s->engines[0].name, first, sizeof first);
        ladder_base_name(s->engines[1].name, second, sizeof second);
        if (!s->ladder.gauntlet) {
            fprintf(out, "abtest: ladder of %s vs %s over %s (each step its own test, every "
                         "number from the first engine's side), %d worker(s)%s%s\n",
                    first, second, steps, workers, ranks, timed);
        } else {
            char names[TOURNAMENT_RUN_ENGINES_MAX * (MATCH_NAME_MAX + 2)];
            TextBuf buf = textbuf(names, sizeof names);
            for (int c = 0; c < s->ladder.candidates; c++) {
                ladder_base_name(s->engines[1 + c].name, second, sizeof second);
                textbuf_printf(&buf, "%s%s", c ? ", " : "", second);
            }
            fprintf(out, "abtest: ladder of a gauntlet, %s against %s, over %s (each step a "
                         "gauntlet; a candidate climbs until a step accepts H0; each candidate's "
                         "numbers from its own side), %d worker(s)%s%s\n",
                    names, first, steps, workers, ranks, timed);
            fprintf(out, "SPRT: at each step its candidates' tests are a family, its family-wise "
                         "alpha and beta held by -family %s (Wald's bounds at each level, a look "
                         "at the end of every round)\n",
                    family_control_name(s->family));
        }
    } else if (r->tournament) {
        char names[TOURNAMENT_RUN_ENGINES_MAX * (MATCH_NAME_MAX + 2)];
        TextBuf buf = textbuf(names, sizeof names);
        for (int e = 0; e < s->engine_count; e++)
            textbuf_printf(&buf, "%s%s", e ? ", " : "", s->engines[e].name);
        char length[64] = "until every candidate is decided";
        if (s->rounds < SETTINGS_UNBOUNDED_ROUNDS)
            snprintf(length, sizeof length, "of %lld pairs%s", (long long)s->rounds,
                     s->has_sprt ? " at most" : "");
        fprintf(out, "abtest: %s of %s: %d pairings %s (each pairing's numbers from its first "
                     "engine's side), %d worker(s)%s%s\n",
                tournament_kind_name(s->tournament), names, r->tour.pairings.count, length,
                workers, ranks, timed);
        if (s->has_sprt)
            fprintf(out, "SPRT: each candidate against %s, elo0 %g elo1 %g, family-wise alpha %g "
                         "beta %g held by -family %s (Wald's bounds at each level, a look at the "
                         "end of every round)\n",
                    s->engines[0].name, s->sprt.elo0, s->sprt.elo1, s->sprt.alpha, s->sprt.beta,
                    family_control_name(s->family));
    } else {
        fprintf(out, "abtest: %s vs %s (every number from the first engine's side), %d "
                     "worker(s)%s%s\n",
                s->engines[0].name, s->engines[1].name, workers, ranks, timed);
    }
    fprintf(out, "command: %s\n", r->command);
    /* An in-process engine is its configuration; a program is its build, whose bench line
     * (check_engines) carries its signature: a config hash would be the same for every
     * program and look like an identity it is not. */
    for (int e = 0; e < s->engine_count; e++)
        if (!engine_is_program(&s->engines[e]))
            fprintf(out, "config hash %s: %016llx\n", s->engines[e].name,
                    (unsigned long long)config_hash(&s->engines[e].config));
    print_clocks(s, out);
    if (!r->tournament || r->ladder) /* a ladder's engines are the first step's two */
        calibrate_print_ratio(out, s);
    /* With time on the wall clock, games that share a core slow each other down and lose on
     * time: the result measures the machine. fastchess warns alike. */
    bool wall = false;
    for (int e = 0; e < s->engine_count; e++)
        wall |= engine_on_wall_time(&s->engines[e]);
    int threads = session->count ? session->ranks[0].threads : workers;
    if (wall && threads > cli_cores())
        fprintf(out, "warning: %d games at once on %d cores with moves timed on the wall clock: "
                     "engines will lose time to each other (give -concurrency %d or less, or "
                     "nodestime=)\n",
                threads, cli_cores(), cli_cores());
    fprintf(out, "book: %s, %d openings, %s order, seed %llu\n", s->book_path, r->book.count,
            s->order == ORDER_RANDOM ? "random" : "sequential", (unsigned long long)s->seed);
    /* Only a planned maximum can exceed the book; an SPRT without -rounds gets a note if and
     * when it passes the book's size. */
    if (s->rounds != SETTINGS_UNBOUNDED_ROUNDS && s->rounds > r->book.count)
        fprintf(out, "note: -rounds %" PRId64 " is more than the book's %d openings; beyond them, "
                     "openings are replayed%s\n",
                s->rounds, r->book.count, s->random_plies ? "" : " (deterministic engines replay "
                                                                "the same games: use a larger "
                                                                "book or randomplies=)");
    if (resuming)
        fprintf(out, "resuming at pair %lld from %s\n", (long long)r->totals.pairs + 1,
                s->resume_path);
    if (!s->out_path[0])
        fprintf(out, "note: no -out file: nothing is saved, and an interrupted run cannot be "
                     "resumed\n");
    fflush(out);
}

/* What is safe after a checkpoint failed, said once. */
static void report_save_failure(const Runner *r) {
    const MatchSettings *s = r->settings;
    cli_error("cannot save: %s", r->files.save_error.text);
    if (r->files.saved_pairs >= 0 && s->out_path[0])
        cli_error("the run stopped; %s holds its first %lld pairs (the last save), and resumes "
                  "from there once the cause is fixed: %s -resume %s",
                  s->out_path, (long long)r->files.saved_pairs, cli_program(), s->out_path);
    else
        cli_error("the run stopped before anything was saved");
}

/* The joint rating of the counts so far (a tournament's, once every pairing has a pair). */
static void refit(Runner *r) {
    Error unused;
    /* A ladder's steps share no engine: no joint rating, each step's Elo alone. */
    r->rated = r->tournament && !r->ladder &&
               tournament_totals_rating(&r->tour, r->settings->engine_count, &r->rating, &unused);
}

/* A point of every pairing's trajectory (a tournament's interval and end). */
static void add_pairing_points(Runner *r) {
    for (int p = 0; p < r->tour.pairings.count; p++) {
        MatchTotals *t = &r->tour.totals[p];
        if (t->trajectory_count == 0 || t->trajectory[t->trajectory_count - 1].pairs != t->pairs)
            totals_add_point(t, &r->tour.settings[p].sprt, r->tour.settings[p].has_sprt);
    }
}

static int finish_tournament(Runner *r, RunState state) {
    const MatchSettings *s = r->settings;
    if (state != RUN_INTERRUPTED)
        add_pairing_points(r);
    refit(r);
    bool saved = !r->files.save_failed && checkpoint(r, state);
    if (r->ladder) {
        ladder_status_final(stdout, s, &r->totals, &r->tour, state);
        calibrate_print_ratio(stdout, s);
    } else {
        tournament_status_final(stdout, s, &r->totals, &r->tour, r->rated ? &r->rating : NULL,
                                state);
    }
    if (!saved) {
        report_save_failure(r);
        return 2;
    }
    if (s->out_path[0])
        printf("results: %s\n", s->out_path);
    if (state == RUN_INTERRUPTED) {
        if (s->out_path[0])
            printf("resume with: %s -resume %s\n", cli_program(), s->out_path);
        else
            printf("no -out file: this run cannot be resumed\n");
        return stop_signal() ? signal_status() : 130;
    }
    printf(r->ladder ? "Finished ladder\n" : "Finished tournament\n");
    return 0;
}

static int finish(Runner *r, RunState state) {
    const MatchSettings *s = r->settings;
    FILE *out = stdout;
    if (r->tournament)
        return finish_tournament(r, state);
    if (r->totals.trajectory_count == 0 ||
        r->totals.trajectory[r->totals.trajectory_count - 1].pairs != r->totals.pairs)
        if (state != RUN_INTERRUPTED) /* an interrupted run adds its points when it goes on */
            totals_add_point(&r->totals, &s->sprt, s->has_sprt);
    bool saved = !r->files.save_failed && checkpoint(r, state);
    if (!s->quiet || state != RUN_INTERRUPTED)
        status_block(out, s, &r->totals);
    status_final(out, s, &r->totals, state, r->book.count);
    calibrate_print_ratio(out, s); /* how much of the Elo an error in it could explain */
    if (s->plot_path[0]) {
        Error err;
        if (plot_write(&r->files.outputs.plan, s->plot_path, s, &r->totals, state, &err))
            fprintf(out, "plot: %s\n", s->plot_path);
        else
            fprintf(out, "plot: not drawn: %s\n", err.text);
    }
    if (!saved) {
        report_save_failure(r);
        return 2;
    }
    if (s->out_path[0])
        fprintf(out, "results: %s\n", s->out_path);
    if (state == RUN_INTERRUPTED) {
        if (s->out_path[0])
            fprintf(out, "resume with: %s -resume %s\n", cli_program(), s->out_path);
        else
            fprintf(out, "no -out file: this run cannot be resumed\n");
        return stop_signal() ? signal_status() : 130;
    }
    fprintf(out, "Finished match\n"); /* fastchess's last line */
    return 0;
}

/* Loads the book, checks it against the settings (and, on resume, the recorded hash). */
static bool load_book(Runner *r, bool resuming, uint64_t recorded_hash, Error *err) {
    const MatchSettings *s = r->settings;
    Error inner;
    if (!book_load(&r->book, s->book_path, true, &inner))
        return error_set(err, "-openings: %s", inner.text);
    if (resuming && r->book.content_hash != recorded_hash)
        return error_set(err, "-resume: the book %s has changed since the run started",
                         s->book_path);
    if (s->start > r->book.count)
        return error_set(err, "-openings start=%d: the book %s has %d positions", s->start,
                         s->book_path, r->book.count);
    return true;
}

static void install_signal_handlers(atomic_bool *abort) {
    atomic_store(&interrupt_signal, 0);
    atomic_store(&signal_abort, abort);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    /* A closed terminal (SIGHUP) or a closed pipe (SIGPIPE: `abtest ... | head`) stops the
     * run like Ctrl-C: saved, resumable. */
    const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
        sigaction(stops[i], &action, NULL);
    /* A file-size limit makes writes fail (EFBIG), which a checkpoint reports, instead of
     * killing the process between checkpoints. */
    signal(SIGXFSZ, SIG_IGN);
}

/* Everything before the first game but the files: settings, book, schedule. False after
 * saying why. */
static bool prepare(Runner *r, MatchSettings *s, bool resuming, bool *already_ended,
                    RunState *recorded_state) {
    Error err;
    ResultsFile file;
    uint64_t recorded_hash = 0;
    *already_ended = false;
    if (resuming) {
        if (!results_load(s->resume_path, &file, &err)) {
            cli_error("-resume %s", err.text);
            return false;
        }
        r->totals = file.totals;
        r->tour = file.tournament; /* the runner's now (zero for a match) */
        if (file.defaulted[0] && !accept_defaulted_options(r, s, file.defaulted))
            return false;
        recorded_hash = file.book_hash;
        *recorded_state = file.state;
        *already_ended = file.state == RUN_SPRT || file.state == RUN_ROUNDS;
        if (!settings_merge_resume(s, &file.settings, file.totals.pairs, &err)) {
            cli_error("-resume %s: %s", s->resume_path, err.text);
            return false;
        }
        if (s->rounds != file.settings.rounds)
            extend_rounds(r, file.settings.rounds, file.state, already_ended);
    } else {
        cli_utc_now(r->totals.started);
        if (s->tournament != TOURNAMENT_MATCH && !tournament_totals_init(&r->tour, s, &err)) {
            cli_error("%s", err.text);
            return false;
        }
    }
    r->tournament = s->tournament != TOURNAMENT_MATCH;
    r->ladder = s->tournament == TOURNAMENT_LADDER;
    if (r->tournament && s->plot_path[0]) { /* a resume may add it */
        cli_error("-plot: a tournament has no plot of one SPRT; its page (-html) charts the "
                  "rating, and abtest report lists every pairing");
        return false;
    }
    refit(r);
    /* An ended run plays nothing: it has no next pairs (a decided gauntlet has no open
     * pairing). */
    if (!*already_ended &&
        (!plan_segment(r, &err) ||
         (r->tournament && s->has_sprt && !family_from_counts(r, &err)))) {
        if (resuming)
            cli_error("-resume %s: %s", s->resume_path, err.text);
        else
            cli_error("%s", err.text);
        return false;
    }
    if (!load_book(r, resuming, recorded_hash, &err)) {
        cli_error("%s", err.text);
        return false;
    }
    r->concurrency_given = s->concurrency;
    if (!s->concurrency)
        s->concurrency = r->remote ? r->remote->default_threads : cli_cores();
    settings_command_line(s, r->command, sizeof r->command);
    if (!schedule_init(&r->schedule, &r->book, s)) {
        cli_error("out of memory for the book's order");
        return false;
    }
    return true;
}

/* The results file and the game records, once the run is sure to play: locked, fresh or cut
 * back for the resume. False after saying why. */
static bool open_outputs(Runner *r, bool resuming) {
    const MatchSettings *s = r->settings;
    Error err;
    if (!runfiles_lock(&r->files, s, &err) ||
        (!resuming && !outputs_prepare_fresh(&r->files.outputs, stdout, &err)) ||
        !runfiles_open_records(&r->files, resuming, r->totals.pgn_bytes, &err)) {
        cli_error("%s", err.text);
        return false;
    }
    return true;
}

/* This machine alone: one rank, its threads. */
static bool describe_local_session(Runner *r) {
    SessionRanks *session = &r->totals.session;
    session->ranks = calloc(1, sizeof *session->ranks);
    if (!session->ranks)
        return false;
    session->count = 1;
    cli_hostname(session->ranks[0].host, sizeof session->ranks[0].host);
    session->ranks[0].threads = r->settings->concurrency;
    return true;
}

/* The job the pool plays: the settings' engines and games over the book in its order, from
 * the segment's first pair. */
static PairJob runner_job(const Runner *r) {
    return (PairJob){r->settings, &r->book, &r->schedule, r->tablebase, r->concurrency_given,
                     &r->segment};
}

/* After a look closed pairings: the pairs of the old segment still out are dropped, and the
 * open pairings go on from the next pair. False with the reason (an engine would not start). */
static bool reopen(Runner *r, Error *err) {
    r->closed_discards += pair_pool_end(r->pool);
    if (!plan_segment(r, err))
        return false;
    PairJob job = runner_job(r);
    if (!pair_pool_set_job(r->pool, &job, err))
        return false;
    pair_pool_start(r->pool, r->totals.pairs, r->limit);
    return true;
}

/* A ladder's pair counted: at the end of a round of its step (a match's step: every pair), a
 * gauntlet's SPRTs look; every -ratinginterval rounds of the step a block and a checkpoint;
 * when the step ends (every candidate decided, or its rounds played), its lines, then the next
 * step, or the end. */
static RunState ladder_pair(Runner *r, int64_t index, RunState state, bool live) {
    const MatchSettings *s = r->settings;
    if (state != RUN_RUNNING || !tournament_round_ends(&r->segment, index))
        return state;
    int step = ladder_step_of(&s->ladder, r->segment.open[0]);
    /* Every open pairing has played the same rounds now. */
    int64_t rounds = r->tour.totals[r->segment.open[0]].pairs;
    bool closed = false;
    if (s->ladder.gauntlet && r->tour.settings[r->segment.open[0]].has_sprt)
        look(r, live, &closed);
    int next = ladder_open_step(&s->ladder, r->tour.totals, s->rounds);
    bool ended = next != step, decided = false;
    for (int c = 0; c < s->ladder.candidates; c++)
        decided |= r->tour.totals[step * s->ladder.candidates + c].decision != SPRT_CONTINUE;
    if (rounds % s->rating_interval == 0 || ended) {
        add_pairing_points(r);
        if (live)
            status_line_clear(stdout);
        if (!s->quiet && !ended)
            ladder_status_block(stdout, s, &r->totals, &r->tour);
    }
    if (!ended) {
        if (rounds % s->rating_interval == 0)
            checkpoint(r, RUN_RUNNING);
    } else if (!s->quiet) {
        ladder_status_step_end(stdout, s, &r->tour, step);
    }
    if (next < 0) /* every step done, or every candidate stopped by an H0 */
        return decided ? RUN_SPRT : RUN_ROUNDS;
    if (!ended && !closed)
        return RUN_RUNNING;
    if (ended)
        checkpoint(r, RUN_RUNNING);
    Error err;
    if (!reopen(r, &err)) {
        cli_error("%s", err.text);
        return RUN_INTERRUPTED;
    }
    return RUN_RUNNING;
}

/* A tournament's pair counted (a ladder's: ladder_pair): at the end of a round of its open
 * pairings, a gauntlet's SPRTs look, and every -ratinginterval rounds the points, the rating, a
 * block and a checkpoint. Returns the state. */
static RunState tournament_round(Runner *r, int64_t index, RunState state, bool live) {
    const MatchSettings *s = r->settings;
    if (r->ladder)
        return ladder_pair(r, index, state, live);
    if (!tournament_round_ends(&r->segment, index))
        return state;
    bool closed = false;
    if (s->has_sprt && look(r, live, &closed) == RUN_SPRT)
        return RUN_SPRT;
    /* Every open pairing has played the same rounds now. */
    int64_t rounds = r->tour.totals[r->segment.open[0]].pairs;
    if (state == RUN_RUNNING && rounds % s->rating_interval == 0) {
        add_pairing_points(r);
        refit(r);
        if (live)
            status_line_clear(stdout);
        if (!s->quiet)
            tournament_status_block(stdout, s, &r->totals, &r->tour, r->rated ? &r->rating : NULL);
        checkpoint(r, RUN_RUNNING);
    }
    Error err;
    if (closed && state == RUN_RUNNING && !reopen(r, &err)) {
        cli_error("%s", err.text);
        return RUN_INTERRUPTED;
    }
    return state;
}

/* The main loop: counts finished pairs in order until the run ends or stops. */
static RunState count_pairs(Runner *r, int64_t session_first, bool live) {
    const MatchSettings *s = r->settings;
    RunState state = RUN_RUNNING;
    while (state == RUN_RUNNING) {
        if (stop_signal() || r->files.save_failed ||
            (s->debug_stop_after && r->totals.pairs - session_first >= s->debug_stop_after))
            return RUN_INTERRUPTED;
        PairRecord pair;
        PoolNext next = pair_pool_next(r->pool, STATUS_PERIOD_SECONDS, &pair);
        if (next == POOL_FAILED)
            return RUN_INTERRUPTED;
        if (next == POOL_WAITING)
            continue;
        state = count_pair(r, &pair, live);
        int64_t index = pair.index;
        match_pair_destroy(&pair);
        double now = cli_now_seconds();
        if (r->tournament)
            state = tournament_round(r, index, state, live);
        else if (r->totals.pairs % s->rating_interval == 0) {
            totals_add_point(&r->totals, &s->sprt, s->has_sprt);
            if (state == RUN_RUNNING) {
                if (live)
                    status_line_clear(stdout);
                if (!s->quiet)
                    status_block(stdout, s, &r->totals);
                if (!s->quiet)
                    note_small_bounds(r);
                if (!s->quiet && !live) /* a log: no status line, so a progress line */
                    status_progress(stdout, s, &r->totals,
                                    (double)(r->totals.pairs - session_first) /
                                        (now - r->session_start),
                                    r->seconds_before + now - r->session_start);
                checkpoint(r, RUN_RUNNING);
            }
        }
        if (live && !r->tournament) { /* the game lines scrolled it away: it stays below */
            double rate = (double)(r->totals.pairs - session_first) / (now - r->session_start);
            status_line(stdout, s, &r->totals, rate);
        }
    }
    return state;
}

/* -tb: the tablebase that adjudicates, the rules' game (tb_new checks it). */
static bool open_tablebase(Runner *r) {
    const MatchSettings *s = r->settings;
    if (!s->tb_path[0])
        return true;
    Error err;
    r->tablebase = tb_new(s->tb_path, CAPTURES_TO_WIN, &err);
    if (!r->tablebase)
        cli_error("-tb: %s", err.text);
    return r->tablebase != NULL;
}

/* -blunders, a fresh run: the sheep in hand up to which the layers of dir are judged. Their
 * values may take a quarter of this machine's memory; their indexes (one a number of sheep in
 * hand) add about one and a half times as much (measured: layers 1..8, 5.3 GB of values, a run
 * peaks at 13.1 GB), and the whole phase (8.3 GB of values) was OOM-killed at 22 GB on a 24 GB
 * machine. What the run judges is said and recorded (blunders_in_hand). */
static int layers_that_fit(const char *dir) {
    double memory = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE), bytes = 0;
    int h = 0;
    for (; h < SHEEP_TOTAL; h++) {
        double layer = 0;
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            char path[TB_PLACE_PATH_MAX];
            struct stat info;
            tb_place_path(dir, h + 1, (Side)side, path, sizeof path);
            layer += stat(path, &info) == 0 ? (double)info.st_size : 0;
        }
        if (memory > 0 && bytes + layer > memory / 4) {
            printf("blunders: the layers of 1..%d sheep in hand are judged: with %d their values "
                   "would take more than a quarter of this machine's memory (%.1f GB), their "
                   "indexes one and a half times as much again\n",
                   h, h + 1, memory / 1e9);
            break;
        }
        bytes += layer;
    }
    return h;
}

/* -blunders: the sliding file and every placement layer solved, read and checked before the
 * first game (judging then only reads). A resumed run judges as far as its first session did. */
static bool open_judge(Runner *r) {
    const MatchSettings *s = r->settings;
    if (!s->blunders_dir[0])
        return true;
    Error err;
    const Tablebase *sliding = r->tablebase;
    char path[PATHS_MAX];
    if (!sliding) {
        if (!paths_tablebase(NULL, path, sizeof path, &err) ||
            !(r->judge_sliding = tb_new(path, CAPTURES_TO_WIN, &err))) {
            cli_error("-blunders: %s", err.text);
            return false;
        }
        sliding = r->judge_sliding;
    }
    struct stat info;
    if (stat(s->blunders_dir, &info) != 0 || !S_ISDIR(info.st_mode)) { /* a typo, most likely */
        cli_error("-blunders: %s is not a directory (bench tbplace -dir %s solves the layers "
                  "into one)",
                  s->blunders_dir, s->blunders_dir);
        return false;
    }
    TbPlaceProber *prober = tb_place_prober_new(s->blunders_dir, sliding);
    if (!prober) {
        cli_error("-blunders: out of memory");
        return false;
    }
    r->judge = (TbJudge){.sliding = sliding, .placement = prober};
    int recorded = r->totals.blunders_in_hand;
    int limit = recorded >= 0 ? recorded : layers_that_fit(s->blunders_dir);
    double wall = cli_now_seconds();
    if (!tb_place_prober_load(prober, limit, &r->judge.in_hand, &err)) {
        cli_error("-blunders: %s", err.text);
        return false;
    }
    if (recorded >= 0 && r->judge.in_hand < recorded) {
        cli_error("-blunders: the run judged moves with up to %d sheep in hand, but %s has the "
                  "layers only up to %d: solve them (bench tbplace -in-hand %d -dir %s) or give "
                  "the run's directory",
                  recorded, s->blunders_dir, r->judge.in_hand, recorded, s->blunders_dir);
        return false;
    }
    r->totals.blunders_in_hand = r->judge.in_hand;
    double bytes = 0;
    for (int h = 1; h <= r->judge.in_hand; h++)
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++)
            bytes += (double)tb_layer_bytes(tb_place_prober_layer(prober, h, (Side)side, &err));
    if (r->judge.in_hand)
        printf("blunders: every move judged where the game is solved: the sliding phase and "
               "the placement layers of 1..%d sheep in hand (%s, %.0f MB read in %.1f s)\n",
               r->judge.in_hand, s->blunders_dir, bytes / 1e6, cli_now_seconds() - wall);
    else
        printf("blunders: moves judged in the sliding phase only (no placement layer in %s: "
               "bench tbplace solves them)\n",
               s->blunders_dir);
    return true;
}

/* A resumed run that had already ended plays nothing and changes nothing: it shows the result. */
static void show_ended_run(Runner *r, RunState recorded_state) {
    const MatchSettings *s = r->settings;
    printf("%s: the run has already ended (%s after %lld pairs): nothing to play\n",
           s->resume_path, recorded_state == RUN_SPRT ? "SPRT decided" : "rounds played",
           (long long)r->totals.pairs);
    if (r->tournament) {
        tournament_status_final(stdout, s, &r->totals, &r->tour, r->rated ? &r->rating : NULL,
                                recorded_state);
        return;
    }
    status_block(stdout, s, &r->totals);
    status_final(stdout, s, &r->totals, recorded_state, r->book.count);
}

/* nodestime=auto: each engine's speed measured before the first game, or on resume the
 * measurement recorded (never measured again). False after saying why. */
static bool calibrate(Runner *r, bool resuming) {
    const MatchSettings *s = r->settings;
    for (int e = 0; resuming && e < s->engine_count; e++) {
        const NodestimeAuto *a = &s->engines[e].timing.measured;
        if (a->on && a->samples)
            printf("nodestime=auto: engine %s searches %lld nodes a ms as measured on %s at %s "
                   "(load %.2f on %d cores); a resumed run keeps it\n",
                   s->engines[e].name, (long long)s->engines[e].timing.nodestime, a->host,
                   a->utc, a->load, a->cores);
    }
    fflush(stdout);
    Error err;
    if (calibrate_engines(r->settings, &r->book, &r->abort, stdout, &err))
        return true;
    say_start_failure(&err);
    return false;
}

/* A runner with nothing opened yet; NULL when memory is short. */
static Runner *runner_new(MatchSettings *s, const PairRemote *remote) {
    Runner *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->settings = s;
    r->remote = remote;
    runfiles_init(&r->files);
    totals_init(&r->totals);
    atomic_init(&r->abort, false);
    install_signal_handlers(&r->abort);
    return r;
}

/* Everything before the first game: settings, book and schedule; the refusals; the engine
 * programs' bench; the tablebase; the pool and the other ranks; the outputs. Returns -1 when
 * the run is ready to play, else the exit code (the reason said). */
static int runner_open(Runner *r) {
    MatchSettings *s = r->settings;
    const PairRemote *remote = r->remote;
    bool resuming = s->resume_path[0] != '\0', already_ended;
    RunState recorded_state = RUN_RUNNING;
    if (!prepare(r, s, resuming, &already_ended, &recorded_state))
        return 2;
    if (already_ended) {
        show_ended_run(r, recorded_state);
        return 0;
    }
    if (remote && remote->refuses(remote->context, s))
        return 2;
    /* An output that cannot be written fails here, before any program's bench or signature. */
    Error err;
    if (!outputs_check_writable(s, &r->files.outputs, &err)) {
        cli_error("%s", err.text);
        return 2;
    }
    if (!check_engines(r, s) || !calibrate(r, resuming))
        return stop_signal() ? signal_status() : 2;
    if (!open_tablebase(r) || !open_judge(r))
        return 2;
    if (!(r->pool = pair_pool_new(s->concurrency, &r->abort, &err))) {
        cli_error("%s", err.text);
        return 2;
    }
    PairJob job = runner_job(r);
    if (remote ? !remote->begin(remote->context, r->pool, &job, &r->totals.session)
               : !describe_local_session(r))
        return 2; /* the hook has said why */
    /* Once the ranks have begun they wait for the end, whatever stops the run. */
    r->remote_begun = remote != NULL;
    if (!open_outputs(r, resuming))
        return 2;
    print_start(r, stdout, resuming);
    if (!s->quiet) /* a resumed run's pairs give its draw ratio now: said in the banner */
        note_small_bounds(r);
    return -1;
}

/* Plays until the run ends or stops, then writes the end. Returns the exit code. */
static int runner_play(Runner *r) {
    const MatchSettings *s = r->settings;
    const PairRemote *remote = r->remote;
    r->session_start = cli_now_seconds();
    r->seconds_before = r->totals.seconds;
    int64_t session_first = r->totals.pairs;
    if (r->totals.pairs >= r->limit)
        return finish(r, RUN_ROUNDS);
    PairJob job = runner_job(r);
    Error failure;
    if (!pair_pool_set_job(r->pool, &job, &failure)) {
        cli_error("%s", failure.text);
        /* A program's start-up was cut short: saved as it was. */
        return stop_signal() ? finish(r, RUN_INTERRUPTED) : 2;
    }
    pair_pool_start(r->pool, r->totals.pairs, r->limit);
    bool live = !s->quiet && isatty(STDOUT_FILENO);
    RunState state = count_pairs(r, session_first, live);
    bool failed = pair_pool_failure(r->pool, &failure);
    stop_pairs(r);
    if (r->remote_begun)
        remote->end(remote->context, r->pool);
    r->remote_begun = false;
    if (live)
        status_line_clear(stdout);
    if (failed)
        cli_error("%s", failure.text);
    if (state == RUN_INTERRUPTED && stop_signal())
        fprintf(stdout, "abtest: stopped by signal %d\n", stop_signal());
    int code = finish(r, state);
    return failed ? 2 : code;
}

/* Releases everything runner_open took, whatever it reached: the ranks told to end, files
 * unlocked, memory freed. */
static void runner_free(Runner *r) {
    if (r->remote_begun)
        r->remote->end(r->remote->context, r->pool);
    pair_pool_free(r->pool);
    runfiles_destroy(&r->files);
    schedule_destroy(&r->schedule);
    book_destroy(&r->book);
    tb_free(r->tablebase);
    tb_place_prober_free(r->judge.placement);
    tb_free(r->judge_sliding);
    totals_destroy(&r->totals);
    tournament_totals_destroy(&r->tour);
    atomic_store(&signal_abort, NULL); /* before r goes: a late signal must not reach freed memory */
    free(r);
}

int runner_run(MatchSettings *s, const PairRemote *remote) {
    Runner *r = runner_new(s, remote);
    if (!r) {
        cli_error("out of memory");
        return 2;
    }
    int code = runner_open(r);
    if (code < 0)
        code = runner_play(r);
    runner_free(r);
    return code;
}

// SPDX-License-Identifier: MIT
// The files a report lists: named one by one or found in directories (their *.json files,
// subdirectories included), each read by what its "tool" says it is (a match's results file
// into a RunSummary, a tuning or booktest file into its record, with the reader a resume uses)
// or kept with the reason it could not be; filtered by engine name and state, sorted by start
// date.
#pragma once

#include "booktest_file.h"
#include "run_summary.h"
#include "tune_file.h"

#include <cJSON.h>

typedef enum {
    REPORT_UNREAD,   /* reason says why */
    REPORT_RUN,      /* a match's results file: run */
    REPORT_TOURNAMENT, /* a tournament's results file: tournament */
    REPORT_TUNING,   /* abtest tune's file: tuning */
    REPORT_BOOKTEST, /* abtest booktest's file: booktest */
} ReportKind;

typedef struct {
    ReportKind kind;
    RunSummary run;            /* REPORT_RUN; run.file points at path whatever the kind */
    TuneRecord *tuning;        /* REPORT_TUNING: the file as read (malloc'd, owned) */
    BooktestRecord *booktest;  /* REPORT_BOOKTEST: the file as read (malloc'd, owned) */
    TournamentSummary *tournament; /* REPORT_TOURNAMENT: malloc'd, owned */
    /* a tuning's or booktest's: finished, running, unfinished; a tournament's: its run's */
    char state[RUN_SUMMARY_SHORT];
    char reason[RUN_SUMMARY_TEXT]; /* "not JSON", "not a results file ...", ... */
    char *path;                    /* the file as found, whole (malloc'd; no length limit) */
} ReportEntry;

/* entry (zeroed, run.file set) from a parsed file, by what its "tool" says it is, with that
 * file's own reader (a tuning's or booktest's state set "finished" or "unfinished"); false with
 * why, entry->kind then REPORT_UNREAD. */
bool report_entry_read(ReportEntry *entry, const cJSON *json, Error *why);

/* Releases what an entry owns: its path and its record. */
void report_entry_release(ReportEntry *entry);

/* "TOOL ARGUMENTS": the command a tuning or booktest was played with ("abtest tune -params
 * ..."). */
void report_command_text(const char *tool, const WordList *arguments, char *out, size_t size);

/* How many entries of the list are of that kind. */
int report_list_count(const ReportEntry entries[], int count, ReportKind kind);

/* The words that follow each -each of a tuning's or booktest's arguments ("nodes=300 iir=on"),
 * as the configuration both sides share. */
void report_each_words(const WordList *arguments, char *out, size_t size);

/* A directory already walked (its device and inode): a link back up is not walked twice. */
typedef struct {
    unsigned long long device, inode;
} ReportDirectory;

typedef struct {
    ReportEntry *entries;
    int count, capacity;
    ReportDirectory *walked;
    int walked_count, walked_capacity;
} ReportList;

/* Adds path: a file (always listed, read or not) or a directory (its *.json files, in name
 * order, subdirectories too, each directory once however many links lead to it). A FIFO, device
 * or socket named *.json is listed as not read, never opened; a directory or file that cannot be
 * read is listed with the reason and the rest is still walked. False only when path itself does
 * not exist or memory runs out. */
bool report_list_add(ReportList *list, const char *path, Error *err);

/* A run (or tournament) whose file says "running" while no process holds its lock (PATH.lock, which a live
 * abtest holds; checked without blocking, a FIFO or a link there is no lock) was stopped
 * without saving its end (kill -9, a crash, a lost machine): its state becomes "stopped". A
 * tuning or booktest with work left is "running" while its lock is held, else "unfinished". */
void report_list_check_running(ReportList *list);

/* Keeps the runs and tournaments with an engine of that name (NULL: any) and of that state
 * (NULL: any; or "decided" for H0 and H1 and a gauntlet whose every SPRT ended, "undecided" for
 * the rest). Tunings, booktests and files not read are kept only when neither filter is
 * given. */
void report_list_filter(ReportList *list, const char *engine, const char *state);

/* Runs, then tournaments, by start, newest or oldest first; then tunings, booktests and files
 * not read, each by name. */
void report_list_sort(ReportList *list, bool newest_first);

void report_list_free(ReportList *list);

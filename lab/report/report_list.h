// SPDX-License-Identifier: MIT
// The runs a report lists: results files named one by one or found in directories (their
// *.json files, subdirectories included), each read into a RunSummary or kept with the reason it
// could not be; filtered by engine name and state, sorted by start date.
#pragma once

#include "run_summary.h"

typedef struct {
    RunSummary run;                /* run.file points at path */
    bool read;                     /* false: reason says why the file is not listed as a run */
    char reason[RUN_SUMMARY_TEXT]; /* "not JSON", "not an abtest results file ...", ... */
    char *path;                    /* the file as found, whole (malloc'd; no length limit) */
} ReportEntry;

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

/* A run whose file says "running" while no process holds its lock (PATH.lock, which a live
 * abtest holds; checked without blocking, a FIFO or a link there is no lock) was stopped
 * without saving its end (kill -9, a crash, a lost machine): its state becomes "stopped". */
void report_list_check_running(ReportList *list);

/* Keeps the runs with an engine of that name (NULL: any) and of that state (NULL: any; or
 * "decided" for H0 and H1, "undecided" for the rest). Files not read are kept only when neither
 * filter is given. */
void report_list_filter(ReportList *list, const char *engine, const char *state);

/* Newest start first, or oldest first; files not read last, by name. */
void report_list_sort(ReportList *list, bool newest_first);

void report_list_free(ReportList *list);

// SPDX-License-Identifier: MIT
// What built a run of in-process engines, so that a resume never mixes two searches under one
// name: the commit and whether the tree was dirty (for people), the build's source identity (a
// hash of every source file, the compiler and the flags: cli/version.h), a hash of the running
// program's file, and for each in-process engine its own signature (its configuration's search
// of the fingerprint suite at depth 6: moves, scores and nodes). A resume compares the source
// identity and the signatures; the commit and the program's file are recorded but not compared
// (a docs-only commit, or abtest-mpi for abtest, plays the same code). Engine programs carry their
// own record (program_identity.h).
#pragma once

#include "config.h"
#include "error.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROVENANCE_TEXT_MAX 48

typedef struct {
    char commit[PROVENANCE_TEXT_MAX]; /* "0e3432dbabaf", "0e3432dbabaf-dirty", "unknown" */
    bool dirty;
    char source[PROVENANCE_TEXT_MAX];     /* 16 hex digits (version_source_id) */
    char executable[PROVENANCE_TEXT_MAX]; /* 16 hex digits: FNV-1a of the program's file */
} BuildIdentity;

typedef struct {
    bool measured;  /* false: not recorded (an engine program, or a file from before) */
    uint64_t hash;  /* of every move, score and node count */
    uint64_t nodes; /* their nodes */
} EngineSignature;

/* This build. The program's file is hashed from /proc/self/exe ("unknown" when unreadable). */
void provenance_build(BuildIdentity *out);

/* An in-process configuration's signature (some tenths of a second). */
bool provenance_signature(const SearchConfig *config, EngineSignature *out, Error *err);

/* What differs between what a run recorded and what would play now, and decides play: the
 * build's source identity ("the build's source 1a2b... -> 3c4d... (commit X -> Y)"), then the
 * signature ("signature 1a2b.../123456 nodes -> 3c4d.../123999 nodes (its search plays
 * differently)"), joined by ", ". A build recorded as "unknown" or a signature never measured
 * (a file from before they were kept) is not compared. False, out empty, when nothing differs. */
bool provenance_changes(const BuildIdentity *recorded_build, const BuildIdentity *build,
                        const EngineSignature *recorded_signature,
                        const EngineSignature *signature, char *out, size_t size);

/* The end of every refusal of a changed engine, after "Its games would be mixed with the first
 * build's: " (or cells, or iterations). */
#define PROVENANCE_ADVICE                                                                          \
    "restore that build, start a new run, or give -allow-engine-change if the change is meant"

/* {"commit", "dirty", "source", "executable"} and back, every field checked; NULL JSON (a file
 * from before) reads as an unknown build. */
cJSON *provenance_build_to_json(const BuildIdentity *build);
bool provenance_build_from_json(const cJSON *json, BuildIdentity *build, Error *err);

/* {"depth", "hash", "nodes"} (null when not measured) and back. */
cJSON *provenance_signature_to_json(const EngineSignature *signature);
bool provenance_signature_from_json(const cJSON *json, EngineSignature *signature, Error *err);

/* "0e3432dbabaf-dirty, source 1a2b3c4d5e6f7a8b": the build as a report shows it. */
void provenance_build_text(const BuildIdentity *build, char *out, size_t size);

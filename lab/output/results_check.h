// SPDX-License-Identifier: MIT
// A results file's derived figures recomputed from its counts when it is read back: the SPRT's
// decision of a match or a ladder's match step (checked after every pair), a gauntlet's family of
// decisions (replayed look by look), each figure written from the counts (LLR, bounds, Elo and
// their intervals, the pentanomial, the joint rating, a ladder's steps, slope and verdict), and
// a measured nodestime against its calibration samples. A file where one differs is refused
// naming the field and both values, so that a resume never goes on from a forged figure.
#pragma once

#include "results.h"

#include <cJSON.h>

/* json: the file as parsed; file: as read from it (counts checked against each other). False
 * with "FIELD is X, but its counts give Y". */
bool results_check_derived(const cJSON *json, ResultsFile *file, Error *err);

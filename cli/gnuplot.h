// SPDX-License-Identifier: MIT
// Charts drawn by gnuplot (the match's plot, the simulator's operating characteristic): the data
// and the script go to private temporary files, and gnuplot runs without a shell.
#pragma once

#include "error.h"
#include "output.h"

#include <stdio.h>

/* Draws any chart: write_points fills a temporary data file, write_commands a gnuplot script
 * that draws it (given the PNG's and the data file's paths) into a temporary beside path, which
 * replaces path only when it is a whole PNG (cli/output.h's discipline); gnuplot runs without a
 * shell. False with the reason (no gnuplot, a write error, gnuplot failed, an incomplete chart),
 * path then as it was. */
typedef bool (*GnuplotDataWriter)(FILE *f, const void *context);
typedef bool (*GnuplotScriptWriter)(FILE *f, const char *png, const char *data,
                                    const void *context);
bool gnuplot_draw(const OutputPlan *outputs, const char *path, GnuplotDataWriter write_points,
                  GnuplotScriptWriter write_commands, const void *context, Error *err);

/* Writes text as a gnuplot single-quoted string (a quote doubled; newlines become spaces). */
void gnuplot_put_quoted(FILE *f, const char *text);

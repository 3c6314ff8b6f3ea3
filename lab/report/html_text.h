// SPDX-License-Identifier: MIT
// Text into the report page's HTML, and into its SVG: the five characters that could open
// markup or end an attribute are written as entities, so a file name, an engine name or a
// parameter's name read from a file can never become markup.
#pragma once

#include <stdio.h>

void html_put_escaped(FILE *out, const char *text);

/* A section's last lines: the command that reproduces it, and for an unfinished one the command
 * that resumes it (resume, e.g. "build/abtest -resume ", then file; NULL: none). */
void html_commands(FILE *out, const char *command, const char *resume, const char *file);

// SPDX-License-Identifier: MIT
// Text into the report page's HTML, and into its SVG: the five characters that could open
// markup or end an attribute are written as entities, so a file name, an engine name or a
// parameter's name read from a file can never become markup.
#pragma once

#include <stdio.h>

void html_put_escaped(FILE *out, const char *text);

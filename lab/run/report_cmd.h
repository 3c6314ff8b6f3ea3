// SPDX-License-Identifier: MIT
// abtest report: the runs of results files and directories as a terminal table, JSON for scripts
// (docs/abtest.md, "Reports").
#pragma once

/* argv: the words after "report". Exit status 0, or 2 on bad options or a path that is not
 * there (files that are not results files are listed with the reason, not refused). */
int abtest_report_main(int argc, char **argv);

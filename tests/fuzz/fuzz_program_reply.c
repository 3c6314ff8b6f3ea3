// SPDX-License-Identifier: MIT
// What an engine program sends, line by line (programs/program_reply.c): any bytes give a reply whose
// numbers are within their bounds (nodes at most PROGRAM_REPLY_NODES_MAX, depths at most the
// search's) and whose move, bench id and signature are bounded strings; a line of the reply's own
// making reads back.
#include "fuzz.h"
#include "program_reply.h"
#include "search.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *line = fuzz_string(data, size);
    if (!line)
        return 0;
    ProgramReply reply;
    program_reply_parse(line, SEARCH_MAX_DEPTH, &reply);
    if ((reply.has_nodes && reply.nodes > PROGRAM_REPLY_NODES_MAX) ||
        (reply.has_depth && (reply.depth < 0 || reply.depth > SEARCH_MAX_DEPTH)) ||
        memchr(reply.move, '\0', sizeof reply.move) == NULL ||
        memchr(reply.bench_id, '\0', sizeof reply.bench_id) == NULL ||
        memchr(reply.signature, '\0', sizeof reply.signature) == NULL)
        abort();
    /* Values come from info lines (before an `info string error`, too), bench totals and tslab's
     * per-position bench lines, which carry every value. */
    if ((reply.has_depth || reply.has_nodes) && reply.kind != REPLY_INFO &&
        reply.kind != REPLY_INFO_ERROR && reply.kind != REPLY_BENCH_NODES &&
        reply.kind != REPLY_BENCH_POSITION)
        abort();
    if (reply.kind == REPLY_BENCH_POSITION &&
        (!reply.has_nodes || !reply.has_depth || !reply.has_score || !reply.bench_id[0]))
        abort();
    if (reply.kind == REPLY_BENCH_SIGNATURE && strlen(reply.signature) != 16)
        abort();
    if (reply.kind == REPLY_BENCH_POSITION) { /* and reads back as written */
        char again[256];
        snprintf(again, sizeof again,
                 "info string bench position %s move %s score %d depth %d nodes %" PRIu64,
                 reply.bench_id, reply.move, reply.score, reply.depth, reply.nodes);
        ProgramReply back;
        program_reply_parse(again, SEARCH_MAX_DEPTH, &back);
        if (back.kind != REPLY_BENCH_POSITION || strcmp(back.bench_id, reply.bench_id) ||
            strcmp(back.move, reply.move) || back.score != reply.score ||
            back.depth != reply.depth || back.nodes != reply.nodes)
            abort();
    }
    if (reply.kind == REPLY_INFO && reply.has_nodes && reply.has_depth) {
        char again[96];
        snprintf(again, sizeof again, "info depth %d nodes %" PRIu64, reply.depth, reply.nodes);
        ProgramReply back;
        program_reply_parse(again, SEARCH_MAX_DEPTH, &back);
        if (back.kind != REPLY_INFO || back.nodes != reply.nodes || back.depth != reply.depth)
            abort();
    }
    free(line);
    return 0;
}

// SPDX-License-Identifier: MIT
// The engine protocol: any bytes, split into lines, fed to one session. It must answer, never
// crash, leak or hang. Each line is followed by `stop` so that a `go` with a huge limit ends at
// once (its first pass always finishes, so the search code runs too); `bench` lines are left out
// (a deep bench is slow by design, not a fault), and the session's output goes to /dev/null.
#include "fuzz.h"
#include "protocol.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    FILE *sink = fopen("/dev/null", "w");
    if (!text || !sink) {
        free(text);
        if (sink)
            fclose(sink);
        return 0;
    }
    EngineSession session;
    Error err;
    if (protocol_init(&session, sink, &err)) {
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (!strncmp(line + strspn(line, " \t"), "bench", 5))
                continue;
            if (!protocol_handle_line(&session, line))
                break;
            protocol_handle_line(&session, "stop");
        }
        protocol_destroy(&session);
    }
    fclose(sink);
    free(text);
    return 0;
}

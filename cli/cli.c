// SPDX-License-Identifier: MIT
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *program_name = "tslab";
static const char *program_path = "tslab";

void cli_init(const char *argv0) {
    if (!argv0 || !*argv0)
        return;
    program_path = argv0;
    const char *slash = strrchr(argv0, '/');
    program_name = slash ? slash + 1 : argv0;
}

const char *cli_program(void) { return program_path; }
const char *cli_program_name(void) { return program_name; }

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when the bytes there are not one. */
static int utf8_length(const unsigned char *p) {
    int length = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3
                               : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (length == 0 || (length == 2 && p[0] < 0xc2))
        return 0;
    for (int i = 1; i < length; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return length;
}

/* A message goes out as valid UTF-8 without control characters: a broken byte or an escape
 * sequence from a file name or an argument is written \xHH, so it cannot garble a terminal.
 * It is made whole first and written at once: stderr is unbuffered, and written byte by byte
 * the warnings of two game threads came out interleaved character by character. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 0)))
#endif
static void print_error(const char *format, va_list args) {
    char message[2048];
    vsnprintf(message, sizeof message, format, args);
    char line[4 * sizeof message + 128]; /* every byte may become \xHH */
    size_t used = (size_t)snprintf(line, 128, "%s: ", program_name);
    if (used >= 128)
        used = 127;
    for (const unsigned char *p = (const unsigned char *)message; *p;) {
        int length = utf8_length(p);
        if (length == 0 || (length == 1 && (*p < 0x20 || *p == 0x7f) && *p != '\n')) {
            used += (size_t)snprintf(line + used, 5, "\\x%02x", *p++);
            continue;
        }
        memcpy(line + used, p, (size_t)length);
        used += (size_t)length;
        p += length;
    }
    line[used++] = '\n';
    flockfile(stderr);
    fwrite(line, 1, used, stderr);
    funlockfile(stderr);
}

void cli_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    print_error(format, args);
    va_end(args);
}

void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    print_error(format, args);
    va_end(args);
    exit(2);
}

double cli_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int64_t cli_now_ms(void) { return (int64_t)(cli_now_seconds() * 1000.0); }

int64_t cli_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

double cli_cpu_seconds(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *cli_utc_now(char out[CLI_UTC_TEXT_MAX]) {
    time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc) || !strftime(out, CLI_UTC_TEXT_MAX, "%Y-%m-%dT%H:%M:%SZ", &utc))
        snprintf(out, CLI_UTC_TEXT_MAX, "unknown");
    return out;
}

char *cli_hostname(char *out, size_t size) {
    if (gethostname(out, size) != 0 || !out[0])
        snprintf(out, size, "unknown");
    out[size - 1] = '\0';
    return out;
}

int cli_cores(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
}

void cli_hms_text(double seconds, char *out, size_t size) {
    /* Beyond a century the value is not a duration any run had (a damaged or edited file):
     * shown as unknown, never passed to llround. */
    if (!isfinite(seconds) || seconds < 0 || seconds > CLI_HMS_SECONDS_MAX) {
        snprintf(out, size, "?");
        return;
    }
    long long whole = llround(seconds);
    snprintf(out, size, "%lld:%02lld:%02lld", whole / 3600, whole / 60 % 60, whole % 60);
}

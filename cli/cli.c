// SPDX-License-Identifier: MIT
#include "cli.h"

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

#if defined(__GNUC__)
__attribute__((format(printf, 1, 0)))
#endif
static void print_error(const char *format, va_list args) {
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
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

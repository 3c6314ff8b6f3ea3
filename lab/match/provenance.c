// SPDX-License-Identifier: MIT
#include "provenance.h"

#include "fingerprint.h"
#include "fnv.h"
#include "textfile.h"
#include "version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXECUTABLE_MAX_BYTES ((size_t)1 << 30)

/* FNV-1a of the running program's file, or "unknown". */
static void executable_hash(char *out, size_t size) {
    snprintf(out, size, "unknown");
    size_t length;
    int fd = textfile_open("/proc/self/exe", true, &length, &(Error){{0}});
    if (fd < 0)
        return;
    uint64_t hash = FNV_OFFSET_BASIS;
    unsigned char buffer[65536];
    size_t total = 0;
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) > 0 && total < EXECUTABLE_MAX_BYTES) {
        hash = fnv_bytes(hash, buffer, (size_t)got);
        total += (size_t)got;
    }
    close(fd);
    if (got == 0)
        snprintf(out, size, "%016" PRIx64, hash);
}

void provenance_build(BuildIdentity *out) {
    memset(out, 0, sizeof *out);
    const char *commit = version_git_commit();
    snprintf(out->commit, sizeof out->commit, "%s", commit);
    size_t length = strlen(commit);
    out->dirty = length > 6 && !strcmp(commit + length - 6, "-dirty");
    snprintf(out->source, sizeof out->source, "%s", version_source_id());
    executable_hash(out->executable, sizeof out->executable);
}

bool provenance_signature(const SearchConfig *config, EngineSignature *out, Error *err) {
    memset(out, 0, sizeof *out);
    if (!fingerprint_signature(config, &out->hash, &out->nodes, err))
        return false;
    out->measured = true;
    return true;
}

static bool build_changes(const BuildIdentity *recorded, const BuildIdentity *now, char *out,
                          size_t size) {
    out[0] = '\0';
    if (!recorded->source[0] || !strcmp(recorded->source, "unknown") ||
        !strcmp(recorded->source, now->source))
        return false;
    if (strcmp(recorded->commit, now->commit))
        snprintf(out, size, "source %s -> %s (commit %s -> %s)", recorded->source, now->source,
                 recorded->commit, now->commit);
    else /* edited, rebuilt with other flags or another compiler, at the same commit */
        snprintf(out, size, "source %s -> %s (both at commit %s)", recorded->source,
                 now->source, now->commit);
    return true;
}

static bool signature_changes(const EngineSignature *recorded, const EngineSignature *now,
                              char *out, size_t size) {
    out[0] = '\0';
    if (!recorded->measured || !now->measured ||
        (recorded->hash == now->hash && recorded->nodes == now->nodes))
        return false;
    snprintf(out, size, "signature %016" PRIx64 "/%" PRIu64 " nodes -> %016" PRIx64 "/%" PRIu64
                        " nodes",
             recorded->hash, recorded->nodes, now->hash, now->nodes);
    return true;
}

bool provenance_changes(const BuildIdentity *recorded_build, const BuildIdentity *build,
                        const EngineSignature *recorded_signature,
                        const EngineSignature *signature, char *out, size_t size) {
    char part[256];
    out[0] = '\0';
    if (build_changes(recorded_build, build, part, sizeof part))
        snprintf(out, size, "the build's %s", part);
    if (signature_changes(recorded_signature, signature, part, sizeof part)) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s (its search plays differently)",
                 used ? ", " : "", part);
    }
    return out[0] != '\0';
}

cJSON *provenance_build_to_json(const BuildIdentity *build) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "commit", build->commit);
    cJSON_AddBoolToObject(json, "dirty", build->dirty);
    cJSON_AddStringToObject(json, "source", build->source);
    cJSON_AddStringToObject(json, "executable", build->executable);
    return json;
}

/* A short printable word (a commit, 16 hex digits), copied; false when missing or odd. */
static bool word_at(const cJSON *json, const char *key, char *out, size_t size, Error *err) {
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, key));
    if (!text || strlen(text) >= size)
        return error_set(err, "\"build\": \"%s\" is missing or longer than %zu characters", key,
                         size - 1);
    for (const char *p = text; *p; p++)
        if (*p <= ' ' || *p > '~')
            return error_set(err, "\"build\": \"%s\" holds a character that is not printable",
                             key);
    snprintf(out, size, "%s", text);
    return true;
}

bool provenance_build_from_json(const cJSON *json, BuildIdentity *build, Error *err) {
    memset(build, 0, sizeof *build);
    if (!json || cJSON_IsNull(json)) {
        snprintf(build->commit, sizeof build->commit, "unknown");
        snprintf(build->source, sizeof build->source, "unknown");
        snprintf(build->executable, sizeof build->executable, "unknown");
        return true;
    }
    if (!cJSON_IsObject(json))
        return error_set(err, "\"build\" is not an object");
    const cJSON *dirty = cJSON_GetObjectItemCaseSensitive(json, "dirty");
    if (!cJSON_IsBool(dirty))
        return error_set(err, "\"build\": \"dirty\" is missing or not true/false");
    build->dirty = cJSON_IsTrue(dirty);
    return word_at(json, "commit", build->commit, sizeof build->commit, err) &&
           word_at(json, "source", build->source, sizeof build->source, err) &&
           word_at(json, "executable", build->executable, sizeof build->executable, err);
}

cJSON *provenance_signature_to_json(const EngineSignature *signature) {
    if (!signature->measured)
        return cJSON_CreateNull();
    cJSON *json = cJSON_CreateObject();
    char hash[20];
    snprintf(hash, sizeof hash, "%016" PRIx64, signature->hash);
    cJSON_AddNumberToObject(json, "depth", FINGERPRINT_DEPTH);
    cJSON_AddStringToObject(json, "hash", hash);
    cJSON_AddNumberToObject(json, "nodes", (double)signature->nodes);
    return json;
}

bool provenance_signature_from_json(const cJSON *json, EngineSignature *signature, Error *err) {
    memset(signature, 0, sizeof *signature);
    if (!json || cJSON_IsNull(json))
        return true;
    const cJSON *depth = cJSON_GetObjectItemCaseSensitive(json, "depth");
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(json, "nodes");
    const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "hash"));
    if (!cJSON_IsObject(json) || !cJSON_IsNumber(depth) || !cJSON_IsNumber(nodes) || !hash)
        return error_set(err, "\"signature\" is not {\"depth\", \"hash\", \"nodes\"}");
    if (depth->valuedouble != FINGERPRINT_DEPTH)
        return error_set(err, "\"signature\" is of depth %g; this build signs at depth %d",
                         depth->valuedouble, FINGERPRINT_DEPTH);
    char *end;
    if (strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16)
        return error_set(err, "\"signature\": \"hash\" is not 16 hex digits");
    signature->hash = strtoull(hash, &end, 16);
    if (!(nodes->valuedouble >= 0 && nodes->valuedouble <= 9007199254740992.0) ||
        nodes->valuedouble != (double)(uint64_t)nodes->valuedouble)
        return error_set(err, "\"signature\": \"nodes\" is not a count");
    signature->nodes = (uint64_t)nodes->valuedouble;
    signature->measured = true;
    return true;
}

void provenance_build_text(const BuildIdentity *build, char *out, size_t size) {
    snprintf(out, size, "%s, source %s", build->commit, build->source);
}

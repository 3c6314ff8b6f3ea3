// SPDX-License-Identifier: MIT
#include "json_text.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Integers up to 2^53 are exact doubles and are written in full, as cJSON writes them. */
#define EXACT_INTEGER_MAX 9007199254740992.0

char *json_text_number(double value, char out[JSON_NUMBER_MAX]) {
    if (!isfinite(value)) {
        snprintf(out, JSON_NUMBER_MAX, "null");
        return out;
    }
    if (value == floor(value) && fabs(value) <= EXACT_INTEGER_MAX) {
        snprintf(out, JSON_NUMBER_MAX, "%.0f", value); /* -0 keeps its sign */
        return out;
    }
    /* 17 significant digits always read back exactly; fewer often do. */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(out, JSON_NUMBER_MAX, "%.*g", digits, value);
        if (strtod(out, NULL) == value)
            break;
    }
    return out;
}

/* A string as cJSON writes one: quotes, backslashes and control characters escaped, every
 * other byte (UTF-8 included) as it is. */
static void write_string(FILE *f, const char *text) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\b':
            fputs("\\b", f);
            break;
        case '\f':
            fputs("\\f", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 32)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void indent(FILE *f, int depth) {
    for (int i = 0; i < depth; i++)
        fputc('\t', f);
}

static void write_value(FILE *f, const cJSON *item, int depth);

/* {\n\t"key":\tvalue,\n ... } with the closing brace at the parent's depth. */
static void write_object(FILE *f, const cJSON *object, int depth) {
    fputs("{\n", f);
    for (const cJSON *member = object->child; member; member = member->next) {
        indent(f, depth + 1);
        write_string(f, member->string);
        fputs(":\t", f);
        write_value(f, member, depth + 1);
        fputs(member->next ? ",\n" : "\n", f);
    }
    indent(f, depth);
    fputc('}', f);
}

/* [a, b, c] on one line, as cJSON formats arrays; an object inside is one level deeper. */
static void write_array(FILE *f, const cJSON *array, int depth) {
    fputc('[', f);
    for (const cJSON *element = array->child; element; element = element->next) {
        write_value(f, element, depth + 1);
        if (element->next)
            fputs(", ", f);
    }
    fputc(']', f);
}

static void write_value(FILE *f, const cJSON *item, int depth) {
    char number[JSON_NUMBER_MAX];
    switch (item->type & 0xff) {
    case cJSON_False:
        fputs("false", f);
        break;
    case cJSON_True:
        fputs("true", f);
        break;
    case cJSON_Number:
        fputs(json_text_number(item->valuedouble, number), f);
        break;
    case cJSON_String:
        write_string(f, item->valuestring);
        break;
    case cJSON_Raw:
        fputs(item->valuestring ? item->valuestring : "", f);
        break;
    case cJSON_Array:
        write_array(f, item, depth);
        break;
    case cJSON_Object:
        write_object(f, item, depth);
        break;
    default: /* cJSON_NULL, and an invalid item */
        fputs("null", f);
    }
}

bool json_text_write(FILE *f, const cJSON *json) {
    write_value(f, json, 0);
    return !ferror(f);
}

char *json_text(const cJSON *json) {
    char *text = NULL;
    size_t length = 0;
    FILE *f = open_memstream(&text, &length);
    if (!f)
        return NULL;
    bool ok = json_text_write(f, json);
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

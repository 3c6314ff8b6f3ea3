// SPDX-License-Identifier: MIT
// Which opening each pair plays: the book shuffled once with the run's seed (Fisher-Yates), or
// kept in order, read from -openings start on and wrapping around. A function of (book, order,
// seed, start, pair) alone, so every thread and every machine agrees.
#pragma once

#include "book.h"
#include "settings.h"

typedef struct {
    int *order;  /* book index of each opening slot */
    int count;   /* the book's positions */
    int start;   /* 1-based first slot */
} Schedule;

/* Builds the order for book under the settings; false when memory is short. */
bool schedule_init(Schedule *schedule, const Book *book, const MatchSettings *settings);
void schedule_destroy(Schedule *schedule);

/* The book index of the opening pair (0-based) plays. */
int schedule_opening(const Schedule *schedule, int64_t pair);

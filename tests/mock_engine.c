// SPDX-License-Identifier: MIT
// A misbehaving engine for the tests of abtest's engine programs (tests/test_program.c).
//   mock_engine MODE [N]
// It speaks the engine protocol and plays the first legal move, except that at its N-th `go`
// (default 1; counted from its start, so a restarted mock misbehaves again), MODE decides:
//   good     never misbehaves
//   slow     sleeps 3 s before it reads anything (a slow start)
//   overrun  sleeps 1 s before its bestmove (a time loss under movetime)
//   sleep    sleeps N ms before every bestmove (N is the number here, not a go count) and
//            writes each go line it gets to stderr ("mock: go ...")
//   crash    exits without answering
//   stall    never answers `go` again (reads and ignores everything)
//   illegal  answers a well-formed but illegal move
//   garbage  prints garbage (bytes, a 100 KB line, bogus info) before every answer, and an
//            unreadable move at the N-th go
// `bench` (with arguments or without) answers "Nodes searched  : 4242".
#include "board.h"
#include "game.h"
#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

/* The position of a `position fen T moves ...` line, or the start when unreadable. */
static Board read_position(char *line) {
    Board b = board_start();
    Error err;
    char *moves = strstr(line, " moves ");
    if (moves)
        *moves = '\0';
    if (!strncmp(line, "position fen ", 13))
        board_from_text(line + 13, &b, &err);
    if (!moves)
        return b;
    Game game;
    if (!game_init(&game, &b, &err))
        return b;
    char *save = NULL;
    for (char *word = strtok_r(moves + 7, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        Move m;
        if (move_from_text(word, &m, &err))
            game_play(&game, m, &err);
    }
    b = *game_current(&game);
    game_destroy(&game);
    return b;
}

/* A well-formed move that the position does not allow. */
static Move illegal_move(const Board *b) {
    for (int from = 0; from < 25; from++)
        for (int to = 0; to < 25; to++) {
            Move m = move_step(from, to);
            Error err;
            if (from != to && move_is_well_formed(m) && !board_check_move(b, m, &err))
                return m;
        }
    return move_place(0);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "good";
    int from_go = argc > 2 ? atoi(argv[2]) : 1;
    if (!strcmp(mode, "slow"))
        sleep_ms(3000);
    char line[1 << 16];
    Board position = board_start();
    int go_count = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strcmp(line, "uci")) {
            say("id name mock");
            say("uciok");
        } else if (!strcmp(line, "isready")) {
            say("readyok");
        } else if (!strncmp(line, "position", 8)) {
            position = read_position(line);
        } else if (!strcmp(line, "bench") || !strncmp(line, "bench ", 6)) {
            say("Nodes searched  : 4242");
        } else if (!strcmp(line, "quit")) {
            return 0;
        } else if (!strncmp(line, "go", 2)) {
            bool misbehave = ++go_count == from_go && strcmp(mode, "good");
            if (!strcmp(mode, "sleep")) {
                fprintf(stderr, "mock: %s\n", line);
                sleep_ms(from_go);
                misbehave = false;
            }
            MoveList list;
            movegen_all(&position, &list);
            char text[MOVE_TEXT_MAX], answer[64];
            Move m = list.count ? list.moves[0] : MOVE_NONE;
            if (!strcmp(mode, "garbage")) {
                say("\x01\x02 garbage \xff\xfe");
                static char long_line[100001];
                memset(long_line, 'g', sizeof long_line - 1);
                say(long_line);
                say("info depth x nodes y");
                say("bestmovex a1");
                if (misbehave) {
                    say("bestmove ???");
                    continue;
                }
            }
            if (misbehave && !strcmp(mode, "crash"))
                return 3;
            if (misbehave && !strcmp(mode, "stall")) {
                while (fgets(line, sizeof line, stdin))
                    if (!strncmp(line, "quit", 4))
                        return 0;
                return 0;
            }
            if (misbehave && !strcmp(mode, "overrun"))
                sleep_ms(1000);
            if (misbehave && !strcmp(mode, "illegal"))
                m = illegal_move(&position);
            say("info depth 1 nodes 1");
            snprintf(answer, sizeof answer, "bestmove %s", move_to_text(m, text));
            say(answer);
            if (!strcmp(mode, "twice")) /* a stale answer left for the next go to find */
                say(answer);
        }
    }
    return 0;
}

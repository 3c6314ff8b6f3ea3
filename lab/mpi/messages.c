// SPDX-License-Identifier: MIT
#include "messages.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void messages_pause(void) {
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
}

MPI_Status messages_wait(int source, int tag) {
    MPI_Status status;
    int arrived = 0;
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status);
        if (arrived)
            return status;
        messages_pause();
    }
}

bool messages_wait_until(int source, int tag, double deadline, MPI_Status *status) {
    int arrived = 0;
    for (;;) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, status);
        if (arrived)
            return true;
        if (cli_now_seconds() >= deadline)
            return false;
        messages_pause();
    }
}

char *messages_receive_bytes(const MPI_Status *probed, int *size) {
    int count = 0;
    MPI_Get_count(probed, MPI_BYTE, &count);
    char *data = malloc((size_t)count + 1);
    if (!data) { /* the message cannot be left unreceived: the job cannot go on */
        fprintf(stderr, "abtest-mpi: out of memory for a message of %d bytes\n", count);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Recv(data, count, MPI_BYTE, probed->MPI_SOURCE, probed->MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    data[count] = '\0';
    *size = count;
    return data;
}

void messages_send_text(int dest, int tag, const char *text) {
    MPI_Send(text, (int)strlen(text), MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

int messages_split_lines(char *text, char *lines[], int most) {
    int count = 0;
    for (char *line = text; line && count < most; count++) {
        lines[count] = line;
        line = strchr(line, '\n');
        if (line)
            *line++ = '\0';
    }
    return count;
}

char *messages_receive_setup(void) {
    MPI_Status status = messages_wait(0, TAG_SETUP);
    int size;
    char *setup = messages_receive_bytes(&status, &size);
    if (size > 0)
        return setup;
    free(setup);
    return NULL;
}

void messages_send_go(int ranks, bool go) {
    unsigned char byte = go;
    for (int k = 1; k < ranks; k++)
        MPI_Send(&byte, 1, MPI_BYTE, k, TAG_GO, MPI_COMM_WORLD);
}

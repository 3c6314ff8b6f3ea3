#!/usr/bin/env python3
# An engine program that never reads its input: it answers the handshake unasked, then floods
# readyok and bestmove lines. abtest's commands pile up in its input pipe until a write to it
# cannot go through; when the pipe is that full, the file named by the first argument is made
# (the test's sign that abtest now waits on a write to it).
import fcntl
import os
import struct
import sys
import termios
import time

F_GETPIPE_SZ = 1032
marker = sys.argv[1] if len(sys.argv) > 1 else None
capacity = fcntl.fcntl(0, F_GETPIPE_SZ)
out = sys.stdout
out.write("id name deaf\nuciok\nreadyok\nNodes searched  : 1\n")
out.flush()
while True:
    out.write("readyok\nbestmove a1\n")
    out.flush()
    waiting = struct.unpack("i", fcntl.ioctl(0, termios.FIONREAD, b"\0\0\0\0"))[0]
    if marker and waiting > capacity - 512 and not os.path.exists(marker):
        open(marker, "w").close()
    time.sleep(0.001)

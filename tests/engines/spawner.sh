#!/bin/sh
# An engine program that leaves a child behind: `sleep SECONDS` in the background (SECONDS is
# the test's marker), then the engine ENGINE in its place.
#   spawner.sh SECONDS ENGINE
sleep "$1" &
exec "$2"

#!/bin/sh
# An engine program that will not go: it ignores SIGTERM, SIGINT and SIGHUP, keeps a child
# `sleep SECONDS` in the background, plays through ENGINE as its child, and when that engine
# quits, stays (a loop of sleeps) until it is killed.
#   stubborn.sh SECONDS ENGINE
trap '' TERM INT HUP
sleep "$1" &
"$2"
while :; do sleep 1; done

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that abtest tune resumes bit for bit: for each parameter set, a run of N iterations is
played once; its tuning file cut after every iteration k (0..N-1: the history, "done" and each
parameter's value as they stood then) is resumed, and the resumed history must be the
uninterrupted one, every number to the bit; then runs killed with SIGKILL at random moments
(seeded) are resumed, killed again, ... until they finish, and must end with the same history.

    python3 tools/tune_resume_check.py build/abtest [-iterations 40] [-kills 10] [-seed 1]

Each kill lands at a random moment between 2% and 90% of the time the uninterrupted run took.

Python's json reads and writes floats by repr, which round-trips every double, so comparing
the parsed histories compares the bits. Prints one line per set and exits 1 on any divergence.
"""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                    "book_small.txt")

PARAMETER_SETS = [
    ("futility + eval_mobility", ["-param", "futility, int, 150, 0, 300, 10, 0.002",
                                  "-param", "eval_mobility, int, 2, 0, 10, 1, 0.002",
                                  "-each", "nodes=300"]),
    ("eval weights x3", ["-param", "eval_captured, int, 100, 40, 250, 8, 0.002",
                         "-param", "eval_jumps, int, 20, 0, 80, 3, 0.002",
                         "-param", "eval_trapped, int, -15, -80, 0, 3, 0.002",
                         "-each", "nodes=300"]),
    ("lmr on tslab-0.3", ["-param", "lmr_depth, int, 3, 2, 8, 1, 0.02",
                          "-param", "lmr_moves, int, 3, 1, 12, 1, 0.02",
                          "-each", "preset=tslab-0.3", "nodes=400", "-a-ratio", "0.2"]),
    ("tm_soft on a nodestime clock", ["-param", "tm_soft, int, 60, 20, 200, 8, 0.02",
                                      "-each", "tc=0.2+0.002", "nodestime=300"]),
]


def tune(abtest, arguments, cwd, check=True):
    done = subprocess.run([abtest, "tune"] + arguments, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"tune_resume_check: abtest tune {' '.join(arguments)}: exit "
                         f"{done.returncode}: {done.stderr}")
    return done.returncode


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cut(source, target, keep):
    data = load(source)
    data["history"] = data["history"][:keep]
    data["done"] = keep
    for i, param in enumerate(data["params"]):
        param["value"] = data["history"][-1]["theta"][i] if keep else param["start"]
    with open(target, "w", encoding="utf-8") as f:
        json.dump(data, f, indent="\t")


def killed_runs(abtest, arguments, cwd, name, rng, reference, seconds):
    """A run killed with SIGKILL at random moments within the seconds an uninterrupted run
    takes, and resumed until it finishes; returns (kills that landed, whether the final history
    is the reference)."""
    path = os.path.join(cwd, name)
    command = [abtest, "tune"] + arguments + ["-out", name]
    landed = 0
    while True:
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, 0.9) * seconds)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            landed += 1
        process.wait()
        if process.returncode == 0:
            break
        if process.returncode != -signal.SIGKILL:
            raise SystemExit(f"tune_resume_check: {name}: exit {process.returncode}")
        command = [abtest, "tune", "-resume", name]
        if not os.path.exists(path):  # killed before its first write: start again
            command = [abtest, "tune"] + arguments + ["-out", name]
    return landed, load(path)["history"] == reference


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    abtest = os.path.abspath(sys.argv[1])
    options = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    iterations = int(options.get("-iterations", 40))
    kills = int(options.get("-kills", 10))
    rng = random.Random(int(options.get("-seed", 1)))
    divergent = 0
    with tempfile.TemporaryDirectory(prefix="tslab_tune_resume_") as cwd:
        for index, (name, parameters) in enumerate(PARAMETER_SETS):
            arguments = parameters + ["-iterations", str(iterations), "-pairs", "3",
                                      "-openings", "file=" + BOOK, "-concurrency", "2"]
            full = f"full{index}.json"
            start = time.monotonic()
            tune(abtest, arguments + ["-out", full], cwd)
            seconds = time.monotonic() - start
            reference = load(os.path.join(cwd, full))["history"]
            cuts_bad = 0
            for keep in range(iterations):
                target = f"cut{index}_{keep}.json"
                cut(os.path.join(cwd, full), os.path.join(cwd, target), keep)
                tune(abtest, ["-resume", target], cwd)
                if load(os.path.join(cwd, target))["history"] != reference:
                    cuts_bad += 1
                os.remove(os.path.join(cwd, target))
            kills_bad = landed_total = 0
            for run in range(kills):
                landed, same = killed_runs(abtest, arguments, cwd, f"kill{index}_{run}.json", rng,
                                           reference, seconds)
                landed_total += landed
                kills_bad += not same
            divergent += cuts_bad + kills_bad
            print(f"{name}: {iterations} cuts resumed, {cuts_bad} divergent; {kills} runs killed "
                  f"{landed_total} times with SIGKILL and resumed, {kills_bad} divergent",
                  flush=True)
    print(f"tune_resume_check: {divergent} divergent resumes")
    sys.exit(1 if divergent else 0)


if __name__ == "__main__":
    main()

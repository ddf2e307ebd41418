#!/usr/bin/env python3
"""sonicsim's own mutation fuzzer over the shipped scenarios.

Each run takes a shipped config (shrunk to a few jobs so a run takes a second), changes one value to a
troublesome one (zero, negative, huge, tiny, infinite, not a number, wrong type, invalid UTF-8, a number scaled
by 10^k with its unit kept), runs `sonicsim run` on it under a time limit and an address-space limit, and sorts
the outcome:
  ok        exit 0 and every number in summary.json's results is finite
  rejected  exit 2 with an error that names FILE:LINE:COL (and the key, where the YAML parsed)
  no events exit 1 saying that no event completed (e.g. every request rejected): a simulated outcome
  FAILURE   anything else: a signal, a timeout, exit 1, exit 2 without a location, exit 0 with a non-finite or
            missing figure. The input is kept in --keep for reproduction.
Usage: fuzz_scenarios.py SONICSIM CONFIGS_DIR [--seconds 60] [--seed 1] [--keep DIR] [--timeout 20]
Exit code 1 when any run is a FAILURE.
"""
import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# Shrinks applied before mutating, so that the unmutated config runs in about a second.
SHRINKS = [
    (r"^(\s*jobs:) \d+", r"\1 4"),
    (r"^(\s*events_per_job:) \d+", r"\1 2"),
    (r'^(\s*window:) "5h"', r'\1 "40min"'),
    (r'^(\s*warmup:) "1h"', r'\1 "10min"'),
]

NASTY = [
    "0", "-1", "1", "1e308", "-1e308", "1e15", "5e-324", "1e-300", ".nan", ".inf", "-.inf", "2147483647",
    "4294967296", "9223372036854775807", "-2147483648", '""', "null", "[]", "{}", "true", "abc", "0.5",
    '"1e308h"', '"0s"', '"1ns"', '"-5s"', '"1e15s"', '"5e-320Gbps"', '"0Gbps"', '"1e308Gbps"', '"1e15B"',
    '"0B"', '"5e-320MB"', '"1y"', '"10 s"', '"\\xe9"', '"../../x"', '"/tmp/x"', '"a,b"',
]

# A scalar after "key: " in block or flow style (a quoted string, or up to the next , } ] or comment).
VALUE = re.compile(r'(?<=: )("(?:[^"\\]|\\.)*"|[^,\{\}\[\]\n#">|][^,\}\]\n#"]*?)(?=\s*(?:[,\}\]]|#|$))', re.M)
NUMBER_WITH_UNIT = re.compile(r'^"?(-?[0-9.]+(?:e-?[0-9]+)?)([A-Za-z]*)"?$')


def mutate(text, rng):
    matches = [m for m in VALUE.finditer(text) if m.group(1).strip()]
    if not matches:
        return text, "no value"
    m = rng.choice(matches)
    old = m.group(1)
    line = text.count("\n", 0, m.start()) + 1
    number = NUMBER_WITH_UNIT.match(old.strip())
    if number and rng.random() < 0.4:
        # Extreme exponents only: the bounds are what is tested, not merely large (slow but valid) workloads.
        exponent = rng.choice([rng.randint(-330, -100), rng.randint(100, 330)])
        value = "%se%d" % (number.group(1).rstrip("."), exponent)
        new = ('"%s%s"' % (value, number.group(2))) if number.group(2) else value
    else:
        new = rng.choice(NASTY)
    return text[: m.start()] + new + text[m.end():], "line %d: %s -> %s" % (line, old.strip(), new)


def non_finite(value, path=""):
    """Paths of figures that are missing (null) or not finite in a JSON tree."""
    if value is None:
        return [path]
    if isinstance(value, float) and not math.isfinite(value):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, path + "." + k)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in non_finite(v, "%s[%d]" % (path, i))]
    return []


def limit_memory():
    four_gib = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (four_gib, four_gib))


def run_one(sonicsim, scenario_path, out_dir, timeout_s):
    try:
        done = subprocess.run([sonicsim, "run", scenario_path, "--out", out_dir], capture_output=True,
                              timeout=timeout_s, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return "FAILURE", "timeout after %g s" % timeout_s
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode < 0:
        return "FAILURE", "signal %d: %s" % (-done.returncode, stderr[-300:])
    if done.returncode == 2:
        # FILE:LINE:COL, with the key where one applies (malformed YAML has a position but no key).
        located = re.search(r"\.yaml:\d+:\d+: ", stderr)
        return ("rejected", "") if located else ("FAILURE", "exit 2 without FILE:LINE:COL: " + stderr[:300])
    if done.returncode == 1 and "sonicsim: error: no event completed" in stderr:
        return "no events", ""  # a legitimate simulated outcome (every request rejected, say), said as such
    if done.returncode != 0:
        return "FAILURE", "exit %d: %s" % (done.returncode, stderr[:300])
    try:
        with open(os.path.join(out_dir, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError) as error:
        return "FAILURE", "exit 0 but summary.json unreadable: %s" % error
    bad = non_finite(summary.get("results"), "results")
    if bad:
        return "FAILURE", "exit 0 with missing or non-finite figures: " + ", ".join(bad[:5])
    return "ok", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sonicsim")
    parser.add_argument("configs")
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20.0, help="per run (default 20 s)")
    parser.add_argument("--keep", help="directory for failing inputs (default: a temporary one, printed)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    configs = sorted(os.path.join(args.configs, f) for f in os.listdir(args.configs) if f.endswith(".yaml"))
    bases = []
    for path in configs:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for pattern, replacement in SHRINKS:
            text = re.sub(pattern, replacement, text, flags=re.M)
        bases.append((os.path.basename(path), text))

    work = tempfile.mkdtemp(prefix="sonicsim_fuzz_")
    keep = args.keep or os.path.join(work, "failures")
    os.makedirs(keep, exist_ok=True)
    counts = {"ok": 0, "rejected": 0, "no events": 0, "FAILURE": 0}
    start = time.monotonic()
    runs = 0
    while time.monotonic() - start < args.seconds:
        name, text = bases[runs % len(bases)]
        mutated, what = mutate(text, rng)
        scenario = os.path.join(work, "case.yaml")
        with open(scenario, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutated)
        out_dir = os.path.join(work, "out")
        shutil.rmtree(out_dir, ignore_errors=True)
        outcome, detail = run_one(args.sonicsim, scenario, out_dir, args.timeout)
        counts[outcome] += 1
        runs += 1
        if outcome == "FAILURE":
            kept = os.path.join(keep, "failure_%04d_%s" % (runs, name))
            shutil.copy(scenario, kept)
            print("FAILURE %s (%s): %s\n  input kept in %s" % (name, what, detail, kept), flush=True)
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    print("fuzz: %d runs in %.0f s (seed %d): %d ok, %d rejected with a location, %d completed no event "
          "(exit 1, said so), %d failures" % (runs, time.monotonic() - start, args.seed, counts["ok"],
                                              counts["rejected"], counts["no events"], counts["FAILURE"]))
    if not args.keep and counts["FAILURE"] == 0:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if counts["FAILURE"] else 0


if __name__ == "__main__":
    sys.exit(main())

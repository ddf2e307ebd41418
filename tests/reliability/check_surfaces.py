#!/usr/bin/env python3
"""Runs every input-surface reproducer of tests/reliability/surfaces/ and checks what it promises.

Each folder holds cmd.sh (the command, run from a copy of the folder with SONICSIM and REPO, the repository
root, set), the inputs it reads, and `expect`: one line, either
  2 REGEX   exit code 2, and stderr matches REGEX (the input's location: file and line, CSV row and column,
            or the option as typed)
  1 REGEX   exit code 1 (the run could not give a result, or an output could not be written), and stderr
            matches REGEX
  0         exit code 0, and no output (stdout, or a JSON/YAML/CSV file the command wrote) holds a null, NaN or
            infinite figure
and optionally check.sh, run after it in the same folder (stderr is in stderr.txt), which must exit 0: what
else must hold (an input unchanged, a figure in its range, a page without a raw name). cmd.sh exits 77 to be
skipped, printing why (a case that needs root). Every case also fails on a signal, a time-out (20 s), a
library's exception text or an error that blames a --set the command line never typed.
Usage: check_surfaces.py SONICSIM [--dir FOLDER] [NAME...]    FOLDER: surfaces/ by default.
Exit code 1 when any case does not behave as promised.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SURFACES = os.path.join(HERE, "surfaces")
REPO = os.path.dirname(os.path.dirname(HERE))
# Longer under a sanitizer build: SONICSIM_SURFACE_TIMEOUT (seconds).
TIMEOUT_S = float(os.environ.get("SONICSIM_SURFACE_TIMEOUT", "20"))
# Texts that only a library (not sonicsim) writes: they mean an error escaped unexplained.
INTERNAL = re.compile(r"json\.exception|filesystem error|basic_string|stoi|stod|std::|terminate called|"
                      r"what\(\)|Assertion|AddressSanitizer|runtime error:")
NON_FINITE = re.compile(r"(?<![A-Za-z_])(-?nan|-?inf|null|NaN|Infinity)(?![A-Za-z_])")


def outputs(work):
    """The text of every result file the command wrote (not its inputs)."""
    texts = []
    for root, _, files in os.walk(os.path.join(work, "out")):
        for name in files:
            if name.endswith((".json", ".yaml", ".csv")):
                with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if name == "summary.json":
                    # The scenario's echo writes null for a setting left out; the figures never do.
                    document = json.loads(text)
                    text = json.dumps({key: document.get(key) for key in ("figures", "results")})
                texts.append((name, text))
    return texts


def check(name, sonicsim, surfaces):
    folder = os.path.join(surfaces, name)
    with open(os.path.join(folder, "expect"), encoding="utf-8") as f:
        expect = f.readline().rstrip("\n")
    code_expected, _, pattern = expect.partition(" ")
    work = tempfile.mkdtemp(prefix="surface_")
    try:
        shutil.copytree(folder, work, dirs_exist_ok=True)
        for root, dirs, files in os.walk(work):
            for entry in dirs + files:
                os.chmod(os.path.join(root, entry), 0o755)
        env = dict(os.environ, SONICSIM=sonicsim, REPO=REPO)
        try:
            run = subprocess.run(["sh", os.path.join(work, "cmd.sh")], env=env, capture_output=True,
                                 timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "timed out after %d s" % TIMEOUT_S
        stderr = run.stderr.decode("utf-8", "replace")
        stdout = run.stdout.decode("utf-8", "replace")
        if run.returncode == 77:
            return "SKIP " + stdout.strip()[:200]
        with open(os.path.join(work, "stderr.txt"), "wb") as f:
            f.write(run.stderr)
        shown = stderr.strip()[:300]
        if run.returncode < 0 or run.returncode > 128:
            return "killed by a signal (exit %d): %s" % (run.returncode, shown)
        if INTERNAL.search(stderr):
            return "library or internal text in the error: %s" % shown
        with open(os.path.join(folder, "cmd.sh"), encoding="utf-8", errors="replace") as f:
            command = [line for line in f if not line.startswith("#")]
        for typed in re.findall(r"--set (\S+?)=", stderr):
            if not any("--set " + typed in line or "--set '" + typed in line for line in command):
                return "blames --set %s, which the command line does not type: %s" % (typed, shown)
        if str(run.returncode) != code_expected:
            return "exit %d, expected %s: %s" % (run.returncode, code_expected, shown)
        if code_expected in ("1", "2") and not re.search(pattern, stderr):
            return "the error does not match /%s/: %s" % (pattern, shown)
        if code_expected == "0":
            for source, text in [("stdout", stdout)] + outputs(work):
                bad = NON_FINITE.search(text)
                if bad:
                    return "exit 0 with a non-finite figure '%s' in %s" % (bad.group(0), source)
        if os.path.exists(os.path.join(work, "check.sh")):
            try:
                after = subprocess.run(["sh", os.path.join(work, "check.sh")], cwd=work, env=env,
                                       capture_output=True, timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                return "check.sh timed out after %d s" % TIMEOUT_S
            if after.returncode != 0:
                return "check.sh failed: %s" % (after.stdout + after.stderr).decode("utf-8", "replace").strip()[:300]
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    sonicsim = os.path.abspath(sys.argv[1])
    arguments = sys.argv[2:]
    surfaces = SURFACES
    if arguments[:1] == ["--dir"]:
        surfaces = os.path.abspath(arguments[1])
        arguments = arguments[2:]
    names = arguments or sorted(n for n in os.listdir(surfaces) if os.path.isdir(os.path.join(surfaces, n)))
    failures = skipped = 0
    for name in names:
        problem = check(name, sonicsim, surfaces)
        if problem and problem.startswith("SKIP"):
            print("skip %s: %s" % (name, problem[5:]), flush=True)
            skipped += 1
            continue
        print(("FAIL %s: %s" % (name, problem)) if problem else ("ok   %s" % name), flush=True)
        failures += problem is not None
    print("%d of %d surface reproducers behave as promised%s" % (
        len(names) - skipped - failures, len(names) - skipped, " (%d skipped)" % skipped if skipped else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""sonicsim's mutation fuzzer over every input surface other than the scenario file.

Each run takes a real input a user brings, changes one thing in it, runs the command that reads it under a time
limit and an address-space limit, and sorts the outcome with the classifier of fuzz_scenarios.py:
  ok        exit 0 and no output figure is null, NaN or infinite
  rejected  exit 2 with an error that names the input: the file and its line (CSV, config.pbtxt, state file),
            or the option as typed
  no events exit 1 saying that no event completed: a simulated outcome, said as such
  incomplete exit 1 of a merge or status whose results are not all there, said so (a damaged point file is
            named and counted as not done)
  FAILURE   anything else: a signal, a time-out, a memory blow-up, exit 1 for bad input, exit 2 without the
            input's location, a library's exception text, an error blaming a --set the command did not type,
            or exit 0 with a non-finite figure. The input is kept in --keep for reproduction.

Surfaces (the files mutated are the repository's own: validation/data/, tests/data/):
  perf-analyzer   perf_analyzer -f CSVs of validation/data/cms_miniaod_2024     import perf-analyzer
  scenario-measurements  the same files read by a scenario (the CMS all-models config)  run
  model-analyzer  tests/data/model_analyzer/metrics-model-inference.csv          import model-analyzer
  triton-config   tests/data/triton/emtrkmichelid_config.pbtxt                   import triton-config
  calibrate       validation/data/protodune_2020_fig7_left.csv, and the options  calibrate
  plan-target     --target TEXT                                                  plan
  sweep-vary      --vary KEY=RANGE                                               sweep
  state           a sweep's sweep_plan.json, point files, jobs.json              status, sweep --resume/--merge
  options         option values and --set values of run                          run

Usage: fuzz_surfaces.py SONICSIM REPO_ROOT [--seconds 60] [--seed 1] [--keep DIR] [--timeout 20]
                        [--surface NAME ...]
Exit code 1 when any run is a FAILURE. A longer run: --seconds 1800 (README, "Testing").
"""
import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_scenarios import non_finite  # noqa: E402  (one classifier for both fuzzers)

INTERNAL = re.compile(r"json\.exception|filesystem error|basic_string|stoi|stod|std::|terminate called|"
                      r"what\(\)|Assertion|AddressSanitizer|runtime error:|Run with --help")
NON_FINITE = re.compile(r"(?<![A-Za-z_])(-?nan|-?inf|null|NaN|Infinity)(?![A-Za-z_])")

CELLS = ["", "0", "-0", "-1", "-0.001", "1e308", "1e-310", "5e-324", "inf", "-inf", "nan", "-nan", "1e999",
         "2.5", "12\x00", "12\xa0", "\uff11\uff12", "abc", "1" * 60, "4294967296", "-2147483648",
         "9223372036854775807", "\"", "\"12\"", "1,2", " 12 ", "0x10", "1e9", "\x1b[31m"]
# (Not 1e6: as a calibration x it is a valid million jobs, a legitimate but minutes-long simulation.)
NUMBERS = ["0", "-1", "1", "-2147483648", "2147483647", "4294967295", "4294967296", "18446744073709551615",
           "9223372036854775807", "-9223372036854775808", "1e9", "1.5", "100000"]


def limit_memory():
    # AddressSanitizer reserves terabytes of shadow address space: under it (the sanitize preset sets
    # ASAN_OPTIONS) the limit is left to ASan's own allocator checks.
    if "ASAN_OPTIONS" in os.environ:
        return
    four_gib = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (four_gib, four_gib))


def run(argv, cwd, timeout_s):
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout_s, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return None
    return (done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def written_figures(directory):
    """(file, [non-finite paths]) of every JSON result under directory: summary.json's results (its scenario
    echo writes null for what is not set), every figure of the others (calibration.json, plan.json)."""
    found = []
    for root, _, files in os.walk(directory):
        for name in files:
            if not name.endswith(".json") or name.startswith(("sweep_plan", "jobs", "tasks")) or \
                    "points" in root:
                continue
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                try:
                    tree = json.loads(f.read(), parse_constant=lambda c: float(c))
                except ValueError:
                    found.append((name, ["unreadable"]))
                    continue
            if name == "summary.json":
                tree = tree.get("results")
            elif name == "plan.json":
                tree = {k: v for k, v in tree.items() if k != "scenario"}
            bad = non_finite(tree)
            if bad:
                found.append((name, bad))
    return found


def classify(result, argv, location, outputs, incomplete=None):
    """The outcome of one run: (class, detail). `location` is the regex an exit-2 error must match;
    `incomplete` the regex (on stdout and stderr) of an exit 1 that is the right answer: results that are not all
    there, said so (a merge with a point missing, a status with a failed shard)."""
    if result is None:
        return "FAILURE", "time-out"
    code, stdout, stderr = result
    shown = stderr.strip()[:300]
    if code < 0 or code > 128:
        return "FAILURE", "signal / exit %d: %s" % (code, shown)
    if INTERNAL.search(stderr):
        return "FAILURE", "library or internal text: " + shown
    typed = " ".join(argv)
    for key in re.findall(r"--set (\S+?)=", stderr):
        if "--set " + key not in typed and "--set=" + key not in typed:
            return "FAILURE", "blames --set %s, not typed: %s" % (key, shown)
    if code == 2:
        return ("rejected", "") if re.search(location, stderr) else ("FAILURE", "exit 2, unlocated: " + shown)
    if code == 1 and "no event completed" in stderr:
        return "no events", ""
    if code == 3 and "no configuration meets the targets" in stderr:
        return "no configuration", ""
    if code == 1 and incomplete and re.search(incomplete, stdout + stderr):
        return "incomplete", ""
    if code != 0:
        return "FAILURE", "exit %d: %s" % (code, shown)
    if outputs is None:  # the result is the YAML printed on stdout
        bad = NON_FINITE.search(stdout)
        if bad:
            return "FAILURE", "exit 0 with '%s' on stdout" % bad.group(0)
        return "ok", ""
    for source, paths in outputs():
        return "FAILURE", "exit 0 with null or non-finite figures in %s: %s" % (source, ", ".join(paths[:4]))
    return "ok", ""


# ---------------------------------------------------------------------------------------------------------
# Mutations of CSV files, config.pbtxt and JSON state files.


def mutate_csv(text, rng):
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line.strip()]
    kind = rng.choice(["cell", "cell", "cell", "drop_row", "dup_row", "header", "crlf", "bom", "truncate",
                       "drop_column", "quote", "binary"])
    if kind == "cell":
        i = rng.choice(rows[1:] or rows)
        cells = lines[i].split(",")
        c = rng.randrange(len(cells))
        new = rng.choice(CELLS)
        cells[c] = new
        lines[i] = ",".join(cells)
        return "\n".join(lines), "line %d column %d -> %r" % (i + 1, c + 1, new)
    if kind == "drop_row" and len(rows) > 1:
        del lines[rng.choice(rows[1:])]
    elif kind == "dup_row":
        i = rng.choice(rows)
        lines.insert(i, lines[i])
    elif kind == "header":
        cells = lines[rows[0]].split(",")
        cells[rng.randrange(len(cells))] = rng.choice(["", "x", "Concurrency", "series", "\xff"])
        lines[rows[0]] = ",".join(cells)
    elif kind == "crlf":
        return text.replace("\n", "\r\n"), kind
    elif kind == "bom":
        return "\ufeff" + text, kind
    elif kind == "truncate":
        return text[: rng.randrange(len(text) + 1)], kind
    elif kind == "drop_column":
        c = rng.randrange(len(lines[rows[0]].split(",")))
        lines = [",".join(x for k, x in enumerate(line.split(",")) if k != c) if line.strip() else line
                 for line in lines]
    elif kind == "quote":
        i = rng.choice(rows)
        lines[i] = '"' + lines[i]
    elif kind == "binary":
        i = rng.choice(rows)
        lines[i] = "".join(chr(rng.randrange(256)) for _ in range(rng.randrange(1, 80)))
    return "\n".join(lines), kind


def mutate_pbtxt(text, rng):
    numbers = list(re.finditer(r"(?<=: )-?\d+", text))
    kind = rng.choice(["number", "number", "number", "nest", "truncate", "field", "dims"])
    if kind == "number" and numbers:
        m = rng.choice(numbers)
        new = rng.choice(NUMBERS)
        return text[: m.start()] + new + text[m.end():], "number %s -> %s" % (m.group(0), new)
    if kind == "nest":
        depth = rng.choice([10, 63, 65, 1000, 100000])
        return text + "\noptimization " + "{ x " * depth + "}" * depth + "\n", "nested %d" % depth
    if kind == "truncate":
        return text[: rng.randrange(len(text) + 1)], kind
    if kind == "field":
        extra = rng.choice(["instance_group [ { count: %s gpus: [ %s ] } ]" % (rng.choice(NUMBERS),
                                                                              rng.choice(NUMBERS)),
                            "dynamic_batching { max_queue_delay_microseconds: %s }" % rng.choice(NUMBERS),
                            "dynamic_batching { preferred_batch_size: [ %s ] }" % rng.choice(NUMBERS),
                            "dynamic_batching { default_queue_policy { max_queue_size: %s } }" %
                            rng.choice(NUMBERS),
                            "max_batch_size: %s" % rng.choice(NUMBERS)])
        return text + "\n" + extra + "\n", extra
    dims = list(re.finditer(r"dims: \[[^\]]*\]", text))
    if dims:
        m = rng.choice(dims)
        new = "dims: [ %s ]" % ", ".join(rng.choice(NUMBERS) for _ in range(rng.randrange(1, 4)))
        return text[: m.start()] + new + text[m.end():], new
    return text, "unchanged"


def mutate_json(text, rng):
    kind = rng.choice(["truncate", "type", "type", "drop", "garbage"])
    if kind == "truncate":
        return text[: rng.randrange(len(text) + 1)], kind
    if kind == "garbage":
        return "".join(chr(rng.randrange(256)) for _ in range(rng.randrange(1, 60))), kind
    try:
        value = json.loads(text)
    except ValueError:
        return text, "unparsable already"

    def paths(node, prefix=()):
        yield prefix
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node[:3]):
                yield from paths(v, prefix + (i,))

    candidates = [p for p in paths(value) if p]
    if not candidates:
        return text, "nothing"
    path = rng.choice(candidates)
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    if kind == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice([{}, [], "x", -1, 1e300, None, 2 ** 70, True])
    return json.dumps(value), "%s %s" % (kind, "/".join(map(str, path)))


# ---------------------------------------------------------------------------------------------------------
# Surfaces: each returns (argv, cwd, location regex, outputs function, what was changed).


class Surfaces:
    def __init__(self, sonicsim, root, work):
        self.sonicsim = sonicsim
        self.root = root
        self.work = work
        pa = os.path.join(root, "validation/data/cms_miniaod_2024/perf_analyzer")
        self.perf_sets = [os.path.join(pa, d) for d in sorted(os.listdir(pa)) if os.path.isdir(os.path.join(pa, d))]
        self.scenario = os.path.join(root, "configs/protodune_2020_large_batch.yaml")
        self.sweep_dir = None

    def fresh(self):
        case = os.path.join(self.work, "case")
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        return case

    def perf_analyzer(self, rng):
        case = self.fresh()
        source = rng.choice(self.perf_sets)
        files = sorted(f for f in os.listdir(source) if f.endswith(".csv"))
        for f in files:
            shutil.copy(os.path.join(source, f), case)
        victim = rng.choice(files)
        with open(os.path.join(case, victim), encoding="utf-8") as f:
            text, what = mutate_csv(f.read(), rng)
        with open(os.path.join(case, victim), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        argv = [self.sonicsim, "import", "perf-analyzer"] + files
        if rng.random() < 0.2:
            argv += rng.choice([["--input-bytes", rng.choice(["-1B", "1e15B", "0B", "abc", "9216"])],
                                ["--device-time", rng.choice(["merged-async", "x"])],
                                ["--batch", rng.choice(["0", "-1", "1e9", "3"])]])
        return argv, case, r"\.csv(:\d+)?: |--(input-bytes|device-time|batch)", None, "%s %s: %s" % (
            os.path.basename(source), victim, what)

    def scenario_measurements(self, rng):
        """A scenario whose curves and host costs read perf_analyzer files (the CMS config), one file mutated."""
        case = self.fresh()
        os.makedirs(os.path.join(case, "configs"))
        with open(os.path.join(self.root, "configs/cms_miniaod_2024_all_models_one_t4.yaml"), encoding="utf-8") as f:
            text = f.read()
        for pattern, replacement in [(r"^(\s*jobs:) \d+", r"\1 4"), (r"^(\s*events_per_job:) \d+", r"\1 3"),
                                     (r"^(\s*warmup_events:) \d+", r"\1 1")]:
            text = re.sub(pattern, replacement, text, flags=re.M)
        with open(os.path.join(case, "configs", "s.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        sets = sorted(set(re.findall(r"perf_analyzer: \.\./(validation/data/\S+)", text)))
        for folder in sets:
            shutil.copytree(os.path.join(self.root, folder), os.path.join(case, folder))
        folder = rng.choice(sets)
        victim = rng.choice(sorted(f for f in os.listdir(os.path.join(case, folder)) if f.endswith(".csv")))
        path = os.path.join(case, folder, victim)
        with open(path, encoding="utf-8") as f:
            mutated, what = mutate_csv(f.read(), rng)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutated)
        return ([self.sonicsim, "run", "configs/s.yaml", "--quiet", "--out", "out"], case,
                r"s\.yaml:\d+:\d+: .*\.csv(:\d+)?: ", lambda: written_figures(os.path.join(case, "out")),
                "%s/%s: %s" % (os.path.basename(folder), victim, what))

    def model_analyzer(self, rng):
        case = self.fresh()
        with open(os.path.join(self.root, "tests/data/model_analyzer/metrics-model-inference.csv"),
                  encoding="utf-8") as f:
            text, what = mutate_csv(f.read(), rng)
        with open(os.path.join(case, "m.csv"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        return [self.sonicsim, "import", "model-analyzer", "m.csv"], case, r"m\.csv(:\d+)?: ", None, what

    def triton_config(self, rng):
        case = self.fresh()
        with open(os.path.join(self.root, "tests/data/triton/emtrkmichelid_config.pbtxt"), encoding="utf-8") as f:
            text, what = mutate_pbtxt(f.read(), rng)
        with open(os.path.join(case, "config.pbtxt"), "w", encoding="utf-8") as f:
            f.write(text)
        return ([self.sonicsim, "import", "triton-config", "config.pbtxt"], case, r"config\.pbtxt(:\d+)?: ",
                None, what)

    def calibrate(self, rng):
        case = self.fresh()
        with open(os.path.join(self.root, "validation/data/protodune_2020_fig7_left.csv"), encoding="utf-8") as f:
            text = f.read()
        options = {"--x": "clients", "--y": "emtrk_time_mean_s", "--sd": "emtrk_time_sd_s",
                   "--series": "large_batch", "--fit": "models.emtrkmichelid.compute_input.per_byte=0ns:10ns"}
        if rng.random() < 0.7:
            text, what = mutate_csv(text, rng)
        else:
            key = rng.choice(list(options) + ["--exclude", "--x-key", "--holdout", "--max-evaluations"])
            value = rng.choice(["", "nan", "clients", "series", "emtrk_time_sd_s", "workload.jobz", "seed",
                                "models.emtrkmichelid.compute_input.per_byte=-1ns:1ns", "workload.jobs=1:1e9",
                                "nope.yaml:small_batch", "data.csv:small_batch", "0", "1e9", "-1"])
            options[key] = value
            what = "%s %r" % (key, value)
        with open(os.path.join(case, "data.csv"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        argv = [self.sonicsim, "calibrate", self.scenario, "--set", "workload.events_per_job=2", "--set", "output.precision=off",
                "--set", "workload.warmup_events=1", "--data", "data.csv", "--observable", "module:EmTrkMichelId",
                "-j", "1", "--max-evaluations", "2", "--out", "out"]
        for key, value in options.items():
            argv += [key, value]
        return (argv, case, r"data\.csv(:\d+)?: |--(x|y|sd|series|fit|exclude|x-key|holdout|max-evaluations)\b",
                lambda: written_figures(os.path.join(case, "out")), what)

    def plan_target(self, rng):
        case = self.fresh()
        figure = rng.choice(["module_time", "event_time", "event_time_p95", "throughput", "cost_per_event",
                             "gpu_hour", "", "module_time<"])
        op = rng.choice(["<=", ">=", "<", "=", "", "<=<="])
        value = rng.choice(["1.10x", "15s", "0s", "-1s", "1e308s", "nan", "infs", "2", "0", "-0.5x", "1e-300",
                            "abc", "1.05xx", "15", "15ms", "0.01", "1e9x"])
        target = figure + op + value
        argv = [self.sonicsim, "plan", "--jobs", "20", "--set", "workload.events_per_job=2", "--set", "output.precision=off", "--set",
                "workload.warmup_events=1", "--target", target, "--max-replications", "3", "-j", "1", "--out",
                "out"]
        # An infeasible target is told by its text ("target cost_per_event<=1e-300 not met: ..."), as planned.
        return (argv, case, r"--target|target \S+[<>]=\S* not met", lambda: written_figures(os.path.join(case, "out")),
                target)

    def sweep_vary(self, rng):
        case = self.fresh()
        key = rng.choice(["workload.jobs", "workload.pipeline.EmTrkMichelId.max_batch", "platform.wan.rtt",
                          "workload.jobz", "", "seed"])
        value = rng.choice(["1:10:5", "1:1e9:1", "10:1:1", "1:10:0", "1:10:-1", "1,2,,3", "nan:10:1", "1:inf:1",
                            "2", "", "a,b", "1:10", "5ms,10ms", "1:2:1e-300", "0", "-1"])
        # 4 jobs: a valid value that is merely expensive (max_batch 2 is 27,500 requests per event) stays fast.
        argv = [self.sonicsim, "sweep", self.scenario, "--set", "workload.jobs=4", "--set", "workload.events_per_job=2", "--set", "output.precision=off",
                "--set", "workload.warmup_events=1", "--vary", key + "=" + value, "-j", "1", "--out", "out"]
        return argv, case, r"--vary", lambda: written_figures(os.path.join(case, "out")), key + "=" + value

    def state(self, rng):
        if self.sweep_dir is None:
            self.sweep_dir = os.path.join(self.work, "sweep_base")
            subprocess.run([self.sonicsim, "sweep", self.scenario, "--set", "workload.events_per_job=2", "--set", "output.precision=off", "--set",
                            "workload.warmup_events=1", "--vary", "workload.jobs=2,4", "-j", "1", "--out",
                            self.sweep_dir], capture_output=True, check=True)
            os.makedirs(os.path.join(self.sweep_dir, "slurm"), exist_ok=True)
            with open(os.path.join(self.sweep_dir, "slurm", "jobs.json"), "w", encoding="utf-8") as f:
                json.dump({"array_job": "1", "merge_job": "2", "shards": 1, "shards_submitted": [1]}, f)
        case = self.fresh()
        shutil.copytree(self.sweep_dir, os.path.join(case, "sw"))
        files = ["sw/sweep_plan.json", "sw/slurm/jobs.json"] + [
            "sw/points/" + f for f in sorted(os.listdir(os.path.join(case, "sw", "points")))]
        victim = rng.choice(files)
        with open(os.path.join(case, victim), encoding="utf-8") as f:
            text, what = mutate_json(f.read(), rng)
        with open(os.path.join(case, victim), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        command = rng.choice([["status", "sw"],
                              ["sweep", self.scenario, "--set", "workload.events_per_job=2", "--set", "output.precision=off", "--set",
                               "workload.warmup_events=1", "--vary", "workload.jobs=2,4", "-j", "1", "--out",
                               "sw", "--resume"],
                              ["sweep", self.scenario, "--set", "workload.events_per_job=2", "--set", "output.precision=off", "--set",
                               "workload.warmup_events=1", "--vary", "workload.jobs=2,4", "--out", "sw", "--merge"]])
        # squeue is not asked about a job record that names no real job: status reads the files only.
        return ([self.sonicsim] + command, case, r"sw/(sweep_plan|slurm/jobs|points/[^:]+)\.json: ",
                lambda: [], "%s: %s (%s)" % (victim, what, command[0]),
                r"sweep\.csv and fits\.csv not written|failed shards ended without")

    def options(self, rng):
        case = self.fresh()
        option = rng.choice(["-j", "--replications", "--seed", "--campaign-windows", "--set", "--out",
                             "--variant", "--set"])
        value = rng.choice(["0", "-1", "1e9", "nan", "", "abc", "100000", "2147483648", "1.5",
                            "workload.jobs=nan", "workload.jobs=1e9", "workload.jobz=1", "=1", "workload.jobs",
                            "platform.wan.rtt=-1ms", "workload.events_per_job=10000000", "seed=-1",
                            "models.emtrkmichelid.triton.max_batch_size=0"])
        argv = [self.sonicsim, "run", "--set", "workload.events_per_job=2", "--set", "output.precision=off", "--set", "workload.warmup_events=1",
                "--set", "workload.jobs=4", "--quiet", option, value]
        if option != "--out":
            argv += ["--out", "out"]
        long_name = {"-j": "--parallel"}.get(option, option)
        return (argv, case, "(%s|%s)\\b|--set %s" % (re.escape(option), re.escape(long_name),
                                                    re.escape(value.split("=")[0])),
                lambda: written_figures(os.path.join(case, "out")), "%s %r" % (option, value))


SURFACES = ["perf_analyzer", "scenario_measurements", "model_analyzer", "triton_config", "calibrate", "plan_target", "sweep_vary", "state",
            "options"]


def fuzz_main(description, surfaces_class, surface_names, label):
    """The fuzzer's command line and loop, shared with fuzz_operations_surfaces.py: each surface in turn,
    each outcome classified and counted, every FAILURE kept with a cmd.sh that reproduces it."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sonicsim")
    parser.add_argument("root")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--keep")
    parser.add_argument("--surface", action="append", choices=surface_names)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="sonicsim_%s_" % label)
    keep = args.keep or os.path.join(work, "failures")
    os.makedirs(keep, exist_ok=True)
    surfaces = surfaces_class(os.path.abspath(args.sonicsim), os.path.abspath(args.root), work)
    chosen = args.surface or surface_names
    counts = {name: {"ok": 0, "rejected": 0, "no events": 0, "incomplete": 0, "FAILURE": 0} for name in chosen}
    start = time.monotonic()
    runs = 0
    while time.monotonic() - start < args.seconds:
        name = chosen[runs % len(chosen)]
        runs += 1
        argv, cwd, location, outputs, what, *incomplete = getattr(surfaces, name)(rng)
        outcome, detail = classify(run(argv, cwd, args.timeout), argv, location, outputs, *incomplete)
        counts[name][outcome] = counts[name].get(outcome, 0) + 1
        if outcome == "FAILURE":
            kept = os.path.join(keep, "failure_%05d_%s" % (runs, name))
            try:
                shutil.copytree(cwd, kept, symlinks=True)
            except shutil.Error:  # a FIFO or a device among the inputs: kept as far as it copies
                pass
            with open(os.path.join(kept, "cmd.sh"), "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("#!/bin/sh\n# %s: %s\n# %s\ncd \"$(dirname \"$0\")\" && %s\n" % (
                    name, what.replace("\n", " "), detail.replace("\n", " ")[:300],
                    " ".join("'" + a.replace("'", "'\\''") + "'" for a in ["${SONICSIM:-sonicsim}"] + argv[1:])
                    .replace("'${SONICSIM:-sonicsim}'", '"${SONICSIM:-sonicsim}"')))
            print("FAILURE %s (%s): %s\n  kept in %s" % (name, what.replace("\n", " ")[:120], detail, kept),
                  flush=True)
    print("%s: %d runs in %.0f s (seed %d)" % (label, runs, time.monotonic() - start, args.seed))
    failures = 0
    for name in chosen:
        c = counts[name]
        failures += c["FAILURE"]
        print("  %-15s %5d ok, %5d rejected with a location, %3d no event, %3d incomplete (said so), "
              "%3d failures" % (name, c["ok"], c["rejected"], c["no events"], c["incomplete"], c["FAILURE"]))
    if not args.keep and failures == 0:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def main():
    return fuzz_main(__doc__, Surfaces, SURFACES, "fuzz_surfaces")


if __name__ == "__main__":
    sys.exit(main())

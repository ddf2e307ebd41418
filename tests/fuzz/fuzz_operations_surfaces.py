#!/usr/bin/env python3
"""sonicsim's mutation fuzzer over the surfaces added with operations, joint calibration, validation cases and
reports. The same method and classifier as fuzz_surfaces.py (see there): a real input changed in one place, the
command that reads it run under a time and an address-space limit, the outcome sorted as ok, rejected (exit 2
naming the input), no events, or FAILURE (a signal, a time-out, a memory blow-up, exit 1 for bad input, exit 2
without the location, a library's text, exit 0 with a non-finite figure, or an input the command changed).

Surfaces (the inputs are the repository's own):
  operations     configs/supersonic_autoscaling.yaml (two hours), one operations key set to a hostile value
  joint-spec     a calibrate --spec file (tests/reliability/surfaces_operations/predict_from_empty_covariance),
                 one value changed
  predict-from   that spec's calibration.json (cal_good.json), damaged         calibrate --spec --predict-from
  case           a validation case (validation/cases/cpu_only_event_time.yaml), one value changed   validate
  report         a small run's summary.json, events.csv or timeseries.csv, damaged                    report
  output-paths   --yaml and --out naming an input, a folder, a device or nothing   import perf-analyzer, report
  metrics-start  --metrics-start values                                        run --openmetrics

Usage: fuzz_operations_surfaces.py SONICSIM REPO_ROOT [--seconds 60] [--seed 1] [--keep DIR] [--timeout 20]
                                   [--surface NAME ...]
Exit code 1 when any run is a FAILURE.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_surfaces import NUMBERS, fuzz_main, mutate_csv, mutate_json, written_figures  # noqa: E402

# Values a YAML scalar is replaced with: numbers at the edges, durations, shapes, aliases and bytes.
YAML_VALUES = ["0", "-1", "1e308", "nan", ".inf", "\"\"", "[]", "{}", "null", "abc", "\"0s\"", "\"1ns\"",
               "\"1e9s\"", "\"-5s\"", "\"100ms\"", "\"24h\"", "2147483648", "true", "&a [*a]", "\"\\x80\"",
               "\"T\\u0080\"", "1.5", "100000"] + NUMBERS
OPERATION_KEYS = [
    "platform.server_groups.triton.autoscaler.min", "platform.server_groups.triton.autoscaler.max",
    "platform.server_groups.triton.autoscaler.threshold", "platform.server_groups.triton.autoscaler.poll_interval",
    "platform.server_groups.triton.autoscaler.metric_window", "platform.server_groups.triton.autoscaler.step",
    "platform.server_groups.triton.autoscaler.step_period", "platform.server_groups.triton.autoscaler.tolerance",
    "platform.server_groups.triton.autoscaler.startup_delay", "platform.server_groups.triton.autoscaler.metric",
    "platform.server_groups.triton.autoscaler.scale_down_window", "platform.server_groups.triton.proxy.balancing",
    "workload.client.timeout", "workload.client.retries", "workload.client.retry_backoff",
    "workload.client.retry_on", "workload.preemption", "workload.preemption.mean_time",
    "workload.preemption.max_resubmissions", "platform.server_groups.triton.failures",
    "platform.wan.down", "workload.campaign.window"]
OPERATION_VALUES = ["0", "-1", "1", "100000", "nan", "\"\"", "0.1s", "1ms", "100ms", "1s", "10s", "1e9s",
                    "{mean_time: 1s}", "{mean_time: 40s, resubmit: true}", "{mean_time: 1s, max_resubmissions: 0}",
                    "{mean_time_between: 60s, restart_delay: 10s}", "[{from: 100s, to: 200s}]", "other",
                    "random", "[]", "{}", "1000", "0.5", "2147483648"]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def mutate_yaml(text, rng):
    """One `key: value` line's value replaced (or the line cut), keeping the indentation."""
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if re.match(r"^\s*(- )?[A-Za-z_]+: ?\S", line)]
    if not candidates:
        return text, "unchanged"
    i = rng.choice(candidates)
    if rng.random() < 0.1:
        what = "line %d cut" % (i + 1)
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    else:
        value = rng.choice(YAML_VALUES)
        lines[i] = re.sub(r"^(\s*(- )?[A-Za-z_]+:).*$", lambda m: m.group(1) + " " + value, lines[i])
        what = "line %d: %s" % (i + 1, lines[i].strip())
    return "\n".join(lines), what


class Surfaces:
    def __init__(self, sonicsim, root, work):
        self.sonicsim = sonicsim
        self.root = root
        self.work = work
        self.spec_dir = os.path.join(root, "tests/reliability/surfaces_operations/predict_from_empty_covariance")
        self.run_dir = None

    def fresh(self):
        case = os.path.join(self.work, "case")
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        return case

    def operations(self, rng):
        case = self.fresh()
        shutil.copy(os.path.join(self.root, "configs/supersonic_autoscaling.yaml"), os.path.join(case, "s.yaml"))
        key, value = rng.choice(OPERATION_KEYS), rng.choice(OPERATION_VALUES)
        argv = [self.sonicsim, "run", "s.yaml", "-q", "--out", "out", "--set", "workload.campaign.window=2h",
                "--set", "workload.pipeline.EmTrkMichelId.preprocess.mean=20s", "--set", "%s=%s" % (key, value)]
        return (argv, case, r"s\.yaml:\d+|--set %s" % re.escape(key.split(".")[0]),
                lambda: written_figures(os.path.join(case, "out")), "%s=%s" % (key, value))

    def joint_spec(self, rng):
        case = self.fresh()
        shutil.copytree(self.spec_dir, case, dirs_exist_ok=True)
        with open(os.path.join(case, "spec.yaml"), encoding="utf-8") as f:
            text, what = mutate_yaml(f.read(), rng)
        with open(os.path.join(case, "spec.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        argv = [self.sonicsim, "calibrate", "--spec", "spec.yaml", "-j", "1", "--out", "out", "-q"]
        return argv, case, r"spec\.yaml(:\d+)?|series\.csv:\d+|configs/", lambda: written_figures(
            os.path.join(case, "out")), what

    def predict_from(self, rng):
        case = self.fresh()
        shutil.copytree(self.spec_dir, case, dirs_exist_ok=True)
        with open(os.path.join(case, "cal_good.json"), encoding="utf-8") as f:
            text, what = mutate_json(f.read(), rng)
        with open(os.path.join(case, "cal.json"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        argv = [self.sonicsim, "calibrate", "--spec", "spec.yaml", "--predict-from", "cal.json", "-j", "1",
                "--out", "out", "-q"]
        return argv, case, r"cal\.json", lambda: written_figures(os.path.join(case, "out")), what

    def case(self, rng):
        case = self.fresh()
        os.makedirs(os.path.join(case, "cases"))
        with open(os.path.join(self.root, "validation/cases/cpu_only_event_time.yaml"), encoding="utf-8") as f:
            text, what = mutate_yaml(f.read(), rng)
        text = text.replace("workload.jobs=50", "workload.jobs=4")
        with open(os.path.join(case, "cases", "case.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        os.symlink(os.path.join(self.root, "configs"), os.path.join(case, "configs"))
        argv = [self.sonicsim, "validate", "--cases-dir", "cases", "--report", "rep", "--work-dir", "work",
                "-j", "1"]
        # A verdict of "fail" (exit 1) is a valid outcome of a changed measurement or tolerance.
        return (argv, case, r"case\.yaml(:\d+)?", lambda: [], what,
                r"\d+ of \d+ cases? (passed|failed)|FAIL|failed")

    def report(self, rng):
        if self.run_dir is None:
            self.run_dir = os.path.join(self.work, "run")
            subprocess.run([self.sonicsim, "run", "-q", "--out", self.run_dir, "--set", "workload.jobs=4", "--set",
                            "workload.events_per_job=2", "--set", "output.precision=off"], capture_output=True,
                           check=True)
        case = self.fresh()
        shutil.copytree(self.run_dir, os.path.join(case, "r1"))
        victim = rng.choice(["summary.json", "events.csv", "timeseries.csv"])
        path = os.path.join(case, "r1", victim)
        with open(path, encoding="utf-8") as f:
            text, what = (mutate_json if victim.endswith(".json") else mutate_csv)(f.read(), rng)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        argv = [self.sonicsim, "report", "r1", "--out", "page.html", "-q"]
        return argv, case, r"r1/(summary\.json|events\.csv|timeseries\.csv)", lambda: [], "%s: %s" % (victim, what)

    def output_paths(self, rng):
        case = self.fresh()
        source = os.path.join(self.root, "validation/data/cms_miniaod_2024/perf_analyzer")
        folder = os.path.join(source, sorted(os.listdir(source))[0])
        files = sorted(f for f in os.listdir(folder) if f.endswith(".csv"))[:2]
        for f in files:
            shutil.copy(os.path.join(folder, f), case)
        os.makedirs(os.path.join(case, "adir"))
        target = rng.choice(files + ["adir", ".", "", "new.yaml", "adir/new.yaml", "/dev/null", "missing/x.yaml"])
        before = {f: sha256(os.path.join(case, f)) for f in files}
        argv = [self.sonicsim, "import", "perf-analyzer"] + files + ["--yaml", target]

        def unchanged():
            changed = [f for f in files if sha256(os.path.join(case, f)) != before[f]]
            return [("inputs", ["%s changed" % f for f in changed])] if changed else []
        return argv, case, r"--yaml|cannot write", unchanged, "--yaml %r" % target

    def metrics_start(self, rng):
        case = self.fresh()
        value = rng.choice(["2023-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
                            "2024-13-01T00:00:00Z", "1969-12-31T23:59:59Z", "2024-01-01T24:00:00Z", "",
                            "2024-01-01", "9999-01-01T00:00:00Z", "2024-01-01T00:00:60Z", "x" * 80,
                            "2100-02-29T00:00:00Z", "2000-02-29T00:00:00Z"])
        argv = [self.sonicsim, "run", "-q", "--out", "out", "--set", "workload.jobs=4", "--set",
                "workload.events_per_job=2", "--set", "output.precision=off", "--openmetrics", "--metrics-start",
                value]
        return argv, case, r"--metrics-start", lambda: written_figures(os.path.join(case, "out")), repr(value)


SURFACES = ["operations", "joint_spec", "predict_from", "case", "report", "output_paths", "metrics_start"]


def main():
    return fuzz_main(__doc__, Surfaces, SURFACES, "fuzz_operations_surfaces")


if __name__ == "__main__":
    sys.exit(main())

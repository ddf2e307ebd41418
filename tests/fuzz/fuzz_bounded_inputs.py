#!/usr/bin/env python3
"""sonicsim's fuzzer of the rule "every input is bounded before it is read", over the surfaces of the fifth
hardening round (tests/reliability/turn5/) and the older ones they share code with.

Each run takes a real input, changes one thing in it, runs the command that reads it under a time limit and an
address-space limit, and sorts the outcome with the classifier of fuzz_surfaces.py (ok, rejected with the
input's location, no events, FAILURE: a signal, a time-out, a memory blow-up, exit 1 for bad input, exit 2
without the location, a library's text, exit 0 with a non-finite figure). Some surfaces check more:

  yaml-aliases    an alias graph (up to 10^10 paths) at a random place of a scenario, a validation case, a
                  calibration spec or a values file                                    run, validate, calibrate, import
  input-kinds     a file an input names replaced by a FIFO, /dev/zero, a directory, an empty or an
                  oversized file                                                       run, calibrate, import, validate
  number-options  a floating-point option of a random command given nan, inf, 1e999   every command
  cfg             --cfg KEY:VALUE from SimGrid's keys and edge values                  run, sweep
  json-stdout     --json with --html, -q: stdout must be exactly one JSON document     run, sweep, analytic, plan
  preemption      random preemption, threads, failures, retries: completed + failed + abandoned events must
                  equal jobs x events_per_job                                          run
  values-keys     a key of a SuperSONIC values file written twice                      import supersonic
  replay-inputs   a recorded series (a Prometheus range query's JSON) changed in one place: a key dropped,
                  a value of another kind, times out of order, text cut short, or a FIFO, /dev/zero, a
                  folder, an empty or an oversized file in its place                   replay

Usage: fuzz_bounded_inputs.py SONICSIM REPO_ROOT [--seconds 60] [--seed 1] [--keep DIR] [--timeout 20]
                              [--surface NAME ...]
Exit code 1 when any run is a FAILURE.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_surfaces import Surfaces as SurfaceFolders, fuzz_main, written_figures  # noqa: E402

SMALL = ["--set", "workload.jobs=4", "--set", "workload.events_per_job=2", "--set", "workload.warmup_events=1",
         "--set", "output.precision=off"]
NON_FINITE_TEXTS = ["nan", "-nan", "NaN", "inf", "-inf", "1e999", "-1e999", "infinity"]


def alias_graph(rng):
    """A flow list of `levels` anchors, each `fan` aliases of the one before: fan^levels paths."""
    levels, fan = rng.randint(3, 10), rng.randint(2, 10)
    parts = ["&g0 [1, 1]"]
    for level in range(1, levels):
        parts.append("&g%d [%s]" % (level, ", ".join(["*g%d" % (level - 1)] * fan)))
    return "[" + ", ".join(parts) + "]"


def insert_at_random_key(text, value, rng):
    """Replaces the value of a random `key: value` line of a YAML text (a block-style key, any depth)."""
    lines = text.split("\n")
    keys = [i for i, line in enumerate(lines) if re.match(r"^\s*[A-Za-z_][\w.\-]*:\s*\S", line)
            and not line.lstrip().startswith("#")]
    i = rng.choice(keys)
    key = lines[i].split(":", 1)[0]
    lines[i] = "%s: %s" % (key, value)
    return "\n".join(lines), key.strip()


INPUT_KINDS = ("fifo", "dev_zero", "directory", "empty", "oversized")


def make_input_kind(path, kind):
    """An input that is not a readable file of its kind: a FIFO, /dev/zero, a folder, an empty file, or a sparse
    file over the 64 MiB bound (nothing written to the disk)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        os.symlink("/dev/zero", path)
    elif kind == "directory":
        os.makedirs(path)
    elif kind == "empty":
        open(path, "w").close()
    else:
        with open(path, "wb") as f:
            f.truncate(65 << 20)


class Surfaces:
    def __init__(self, sonicsim, root, work):
        self.sonicsim = sonicsim
        self.root = root
        self.work = work
        self.scenario = os.path.join(root, "configs/protodune_2020_large_batch.yaml")
        self.case = os.path.join(root, "validation/cases/large_batch_curve.yaml")
        self.spec = os.path.join(root, "tests/data/joint_calibration.yaml")
        self.values = os.path.join(root, "tests/reliability/turn5/supersonic_values_duplicate_key/values.yaml")

    fresh = SurfaceFolders.fresh  # an empty case folder under the work directory

    def yaml_aliases(self, rng):
        case = self.fresh()
        kind = rng.choice(["scenario", "case", "spec", "values"])
        source = {"scenario": self.scenario, "case": self.case, "spec": self.spec, "values": self.values}[kind]
        with open(source, encoding="utf-8") as f:
            text, key = insert_at_random_key(f.read(), alias_graph(rng), rng)
        name = {"scenario": "s.yaml", "case": "cases/c.yaml", "spec": "spec.yaml", "values": "values.yaml"}[kind]
        os.makedirs(os.path.join(case, "cases"))
        with open(os.path.join(case, name), "w", encoding="utf-8") as f:
            f.write(text)
        os.symlink(os.path.join(self.root, "configs"), os.path.join(case, "configs"))
        os.symlink(os.path.join(self.root, "validation"), os.path.join(case, "validation"))
        os.symlink(os.path.join(self.root, "tests"), os.path.join(case, "tests"))
        argv = {"scenario": [self.sonicsim, "run", "s.yaml", "--quiet", "--out", "out"] + SMALL,
                "case": [self.sonicsim, "validate", "--cases-dir", "cases", "--report", "rep", "-j", "1"],
                "spec": [self.sonicsim, "calibrate", "--spec", "spec.yaml", "-j", "1", "-q", "--out", "out",
                         "--max-evaluations", "2"],
                "values": [self.sonicsim, "import", "supersonic", "values.yaml"]}[kind]
        return argv, case, r"(s|c|spec|values)\.yaml:\d+:\d+: ", lambda: written_figures(
            os.path.join(case, "out")), "%s: %s = an alias graph" % (kind, key)

    def input_kinds(self, rng):
        case = self.fresh()
        kind = rng.choice(INPUT_KINDS)

        def make(path):
            make_input_kind(path, kind)

        where = rng.choice(["scenario", "triton_config", "perf_analyzer", "supersonic_values", "calibrate_data",
                            "predict_from", "case", "spec", "import_triton", "import_values"])
        if where == "scenario":
            make(os.path.join(case, "s.yaml"))
            argv = [self.sonicsim, "run", "s.yaml", "-q", "--out", "out"]
            location = r"s\.yaml"
        elif where in ("triton_config", "perf_analyzer", "supersonic_values"):
            target = {"triton_config": "config.pbtxt", "perf_analyzer": "pa/x_batch2.csv",
                      "supersonic_values": "values.yaml"}[where]
            if where == "perf_analyzer":
                os.makedirs(os.path.join(case, "pa"))
                shutil.copy(os.path.join(self.root, "tests/reliability/turn5/latin1_file_names/ok_batch1.csv"),
                            os.path.join(case, "pa"))
            if kind == "directory" and where == "perf_analyzer":
                kind = "fifo"  # a directory inside the folder is not a .csv file to read
            make(os.path.join(case, target))
            model = {"triton_config": "triton_config: config.pbtxt",
                     "perf_analyzer": "throughput: {T4: {perf_analyzer: pa}}\n    triton: {max_batch_size: 64}",
                     "supersonic_values": "throughput: {T4: {points: [[1, 100], [64, 6400]]}}\n"
                                          "    triton: {max_batch_size: 64}"}[where]
            if where == "triton_config":
                model = "throughput: {T4: {points: [[1, 100], [64, 6400]]}}\n    " + model
            group = ("  server_groups:\n    g: {supersonic_values: values.yaml}\n"
                     if where == "supersonic_values" else "")
            with open(os.path.join(case, "s.yaml"), "w", encoding="utf-8") as f:
                f.write("platform:\n%smodels:\n  m:\n    input_bytes_per_inference: \"64B\"\n"
                        "    output_bytes_per_inference: \"4B\"\n    %s\nworkload:\n  jobs: 2\n  events_per_job: 2\n"
                        "  pipeline:\n    - {name: r, type: remote_inference, model: m, inferences: 2, "
                        "max_batch: 2}\n" % (group, model))
            argv = [self.sonicsim, "run", "s.yaml", "-q", "--out", "out"]
            location = r"s\.yaml:\d+:\d+: "
        elif where == "calibrate_data":
            make(os.path.join(case, "d.csv"))
            argv = [self.sonicsim, "calibrate", self.scenario, "--data", "d.csv", "--series", "large_batch", "--x",
                    "clients", "--y", "emtrk_time_mean_s", "--sd", "emtrk_time_sd_s", "--observable",
                    "module_mean_s:EmTrkMichelId", "--fit", "models.emtrkmichelid.compute_input.per_byte=0ns:10ns",
                    "--max-evaluations", "2", "-j", "1", "-q", "--out", "out"]
            location = r"d\.csv"
        elif where == "predict_from":
            make(os.path.join(case, "cal.json"))
            argv = [self.sonicsim, "calibrate", "--spec", self.spec, "--predict-from", "cal.json", "-j", "1", "-q",
                    "--out", "out"]
            location = r"cal\.json"
        elif where == "case":
            os.makedirs(os.path.join(case, "cases"))
            make(os.path.join(case, "cases", "c.yaml"))
            argv = [self.sonicsim, "validate", "--cases-dir", "cases", "--report", "rep", "-j", "1"]
            location = r"c\.yaml"
        elif where == "spec":
            make(os.path.join(case, "spec.yaml"))
            argv = [self.sonicsim, "calibrate", "--spec", "spec.yaml", "-j", "1", "-q", "--out", "out"]
            location = r"spec\.yaml"
        elif where == "import_triton":
            make(os.path.join(case, "config.pbtxt"))
            argv = [self.sonicsim, "import", "triton-config", "config.pbtxt"]
            location = r"config\.pbtxt"
        else:
            make(os.path.join(case, "values.yaml"))
            argv = [self.sonicsim, "import", "supersonic", "values.yaml"]
            location = r"values\.yaml"
        return argv, case, location, lambda: written_figures(os.path.join(case, "out")), "%s as %s" % (where, kind)

    def number_options(self, rng):
        case = self.fresh()
        value = rng.choice(NON_FINITE_TEXTS + ["1e308", "-1e308", "5e-324"])
        command = rng.choice([
            ["run", "--openmetrics", "--metrics-interval", value, "-q", "--out", "out"] + SMALL,
            ["plan", "--jobs", "10", "--replications", "1", "--max-gpus", "2", "-j", "1", "-q", "--out", "out",
             "--indifference", value] + SMALL,
            ["plan", "--jobs", "10", "--replications", "1", "--max-gpus", "2", "-j", "1", "-q", "--out", "out",
             "--run-precision", value] + SMALL,
            ["bench", "--campaign-scales", value, "--repeat", "1", "--jobs", "10", "--campaign", "",
             "--operations", "", "-q"],
            ["import", "perf-analyzer", os.path.join(self.root, "tests/reliability/turn5/nan_options/pa_cpu"),
             "--device", "CPU", "--inferences-per-event", value],
        ])
        option = next(a for a in command if a.startswith("--") and command[command.index(a) + 1] == value)
        return ([self.sonicsim] + command, case, re.escape(option), lambda: written_figures(
            os.path.join(case, "out")), "%s %s" % (option, value))

    def cfg(self, rng):
        case = self.fresh()
        key = rng.choice(["network/model", "network/optim", "cpu/optim", "contexts/factory", "contexts/nthreads",
                          "contexts/stack-size", "maxmin/precision", "surf/precision", "network/TCP-gamma",
                          "network/bandwidth-factor", "network/latency-factor", "network/crosstraffic",
                          "cpu/maxmin-selective-update", "network/maxmin-selective-update", "plugin",
                          "tracing", "tracing/filename", "host/model", "precision/timing", "bogus/key"])
        value = rng.choice(["", "0", "-1", "nan", "inf", "1e308", "1e-300", "yes", "no", "maybe", "bogus",
                            "CM02", "LV08", "Full", "Lazy", "thread", "raw", "1", "2", "100000", "../../x"])
        setting = "%s:%s" % (key, value)
        command = rng.choice([["run", "-q", "--out", "out"] + SMALL,
                              ["sweep", "--vary", "workload.jobs=2,4", "-j", "1", "-q", "--out", "out"] + SMALL[2:]])
        return ([self.sonicsim, "--cfg", setting] + command, case, r"--cfg", lambda: written_figures(
            os.path.join(case, "out")), "--cfg %s %s" % (setting, command[0]))

    def json_stdout(self, rng):
        case = self.fresh()
        extra = rng.choice([["--html"], ["-q"], ["--html", "-q"], []])
        command = rng.choice([["run", "--out", "out"] + SMALL, ["sweep", "--vary", "workload.jobs=2,4", "-j", "1",
                                                              "--out", "out"] + SMALL[2:],
                              ["analytic"], ["figures"],
                              ["plan", "--jobs", "20", "--replications", "2", "--max-gpus", "4", "-j", "2", "--out",
                               "out"] + SMALL[2:]])
        if command[0] in ("analytic", "figures"):
            extra = [e for e in extra if e != "--html"]
        argv = [self.sonicsim] + command + ["--json"] + extra

        def outputs():
            problems = written_figures(os.path.join(case, "out"))
            stdout = open(os.path.join(case, "stdout.json"), encoding="utf-8", errors="replace").read()
            try:
                json.loads(stdout)
            except ValueError as error:
                problems.append(("stdout", ["not one JSON document: %s" % error]))
            return problems

        # The classifier runs argv with its own capture; the wrapper writes stdout where outputs() reads it.
        wrapper = ["sh", "-c", '"$0" "$@" > stdout.json', argv[0]] + argv[1:]
        return wrapper, case, r"^$", outputs, " ".join(command[:1] + ["--json"] + extra)

    def preemption(self, rng):
        case = self.fresh()
        jobs, events, threads = rng.randint(1, 30), rng.randint(1, 6), rng.choice([1, 1, 2, 4])
        mean = rng.choice(["20s", "60s", "200s", "1000s"])
        resubmissions = rng.randint(0, 4)
        failures = rng.random() < 0.3
        text = ("seed: %d\nplatform:\n  server_groups:\n    triton:\n      devices: {type: T4, count: 1}\n"
                "      pods: 2\n%s"
                "models:\n  m:\n    input_bytes_per_inference: \"9216B\"\n    output_bytes_per_inference: \"16B\"\n"
                "    throughput: {T4: {points: [[1, 202], [64, 9448], [1693, 31250]]}}\n"
                "    triton: {max_batch_size: 16384}\n"
                "workload:\n  jobs: %d\n  events_per_job: %d\n  threads: %d\n"
                "  client: {retries: %d, retry_backoff: \"1s\", timeout: \"120s\"}\n"
                "  preemption: {mean_time: \"%s\", resubmit: true, max_resubmissions: %d}\n"
                "  pipeline:\n"
                "    - {name: c, type: cpu, duration: {dist: lognormal, mean: \"20s\", sd: \"5s\"}}\n"
                "    - {name: r, type: remote_inference, model: m, inferences: 5000, max_batch: 2048}\n"
                "output: {timeseries_interval: \"60s\"}\n" % (
                    rng.randint(1, 1000),
                    "      failures: {mean_time_between: \"300s\", restart_delay: \"60s\"}\n" if failures else "",
                    jobs, events, threads, rng.randint(0, 2), mean, resubmissions))
        with open(os.path.join(case, "s.yaml"), "w", encoding="utf-8") as f:
            f.write(text)

        def outputs():
            problems = written_figures(os.path.join(case, "out"))
            try:
                ops = json.load(open(os.path.join(case, "out", "summary.json")))["results"]["operations"]
            except (OSError, ValueError, KeyError) as error:
                return problems + [("summary.json", ["no operations: %s" % error])]
            e = ops["events"]
            ended = (e["completed"] + e["completed_after_retry"] + e["completed_with_fallback"] + e["failed_rejected"]
                     + e["failed_timed_out"] + ops.get("events_abandoned", 0))
            if ended != jobs * events:
                problems.append(("summary.json", ["completed + failed + abandoned = %d, not %d jobs x %d events"
                                                  % (ended, jobs, events)]))
            return problems

        return ([self.sonicsim, "run", "s.yaml", "-q", "--out", "out"], case, r"s\.yaml:\d+:\d+: ", outputs,
                "%d jobs x %d events, %d threads, preemption %s, %d resubmissions%s" % (
                    jobs, events, threads, mean, resubmissions, ", pod failures" if failures else ""))

    def values_keys(self, rng):
        case = self.fresh()
        with open(os.path.join(self.root, "tests/reliability/turn5/supersonic_values_probe_unbounded/values.yaml"),
                  encoding="utf-8") as f:
            lines = f.read().split("\n")
        # The probe file with its one bad value restored, then a random key line written twice in its map.
        lines = [line.replace("initialDelaySeconds: 1e12", "initialDelaySeconds: 10") for line in lines]
        lines = [line for i, line in enumerate(lines) if not (line == "  enabled: true" and i == 211)]
        keys = [i for i, line in enumerate(lines) if re.match(r"^\s*[A-Za-z_][\w\-]*:", line)]
        i = rng.choice(keys)
        lines.insert(i + 1 if not lines[i].rstrip().endswith(":") else i, lines[i] if not lines[i].rstrip().endswith(
            ":") else lines[i] + " {}")
        with open(os.path.join(case, "values.yaml"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        return ([self.sonicsim, "import", "supersonic", "values.yaml"], case,
                r"values\.yaml:\d+:\d+: .*(duplicate key|expected)", None, "line %d written twice" % (i + 1))


    def replay_inputs(self, rng):
        case = self.fresh()
        # A small autoscaled group and a recorded count of 20 samples a minute apart.
        with open(os.path.join(case, "s.yaml"), "w", encoding="utf-8") as f:
            f.write("platform:\n  server_groups:\n    g:\n      devices: {type: T4, count: 1}\n"
                    "      autoscaler: {min: 1, max: 3, threshold: \"0.5s\", startup_delay: \"30s\"}\n"
                    "models:\n  m:\n    input_bytes_per_inference: \"64B\"\n    output_bytes_per_inference: \"4B\"\n"
                    "    throughput: {T4: {points: [[1, 100], [64, 6400]]}}\n    triton: {max_batch_size: 64}\n"
                    "workload:\n  jobs: 2\n  events_per_job: 3\n  pipeline:\n    - {name: r, type: "
                    "remote_inference, model: m, inferences: 2, max_batch: 2}\n")
        values = [[1700000000 + 60 * i, str(rng.randint(0, 6))] for i in range(1, 21)]
        document = {"status": "success", "data": {"resultType": "matrix",
                                                  "result": [{"metric": {"release": "g"}, "values": values}]}}
        which = rng.choice(["clients", "series"])
        change = rng.choice(["drop_key", "value_kind", "time_order", "cut", "step"] + list(INPUT_KINDS))
        target = os.path.join(case, "bad.json")
        series = document["data"]["result"][0]
        if change == "drop_key":
            victim = rng.choice(["status", "data", "resultType", "result", "values", "metric"])
            for holder in (document, document["data"], series):
                holder.pop(victim, None)
        elif change == "value_kind":
            i = rng.randrange(len(values))
            values[i][rng.randint(0, 1)] = rng.choice([None, "NaN", "+Inf", "-1e999", [], {}, "1e308", True, "x"])
        elif change == "time_order":
            i = rng.randrange(1, len(values))
            values[i][0] = values[i - 1][0] - rng.choice([0, 1, 60])
        elif change == "step":
            for i, v in enumerate(values):
                v[0] = 1700000000 + rng.choice([0.5, 7200]) * (i + 1)
        if change in INPUT_KINDS:
            make_input_kind(target, change)
        else:
            text = json.dumps(document)
            if change == "cut":
                text = text[:rng.randrange(len(text))]
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
        good = os.path.join(case, "good.json")
        with open(good, "w", encoding="utf-8") as f:
            json.dump({"status": "success", "data": {"resultType": "matrix", "result": [
                {"metric": {}, "values": [[1700000000 + 60 * i, "2"] for i in range(1, 21)]}]}}, f)
        files = ["--clients", "bad.json"] if which == "clients" else ["--clients", "good.json", "--series",
                                                                      "replicas=bad.json"]
        return ([self.sonicsim, "replay", "s.yaml", "-q", "--out", "out"] + files, case,
                r"(bad\.json|--clients|--series)", lambda: written_figures(os.path.join(case, "out")),
                "%s: %s" % (which, change))


SURFACES = ["yaml_aliases", "input_kinds", "number_options", "cfg", "json_stdout", "preemption", "values_keys",
            "replay_inputs"]


def main():
    return fuzz_main(__doc__, Surfaces, SURFACES, "fuzz_bounded_inputs")


if __name__ == "__main__":
    sys.exit(main())

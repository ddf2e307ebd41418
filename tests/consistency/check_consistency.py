#!/usr/bin/env python3
"""The second route, kept: the same question through different commands must give the same answer.

Over every shipped config, every variant of each, and six generated scenarios (tests/consistency/generated.py,
a fixed seed):
  analytic   `analytic` (Eq. 1-5 and the exact MVA) against a low-load `run` (at most 8 jobs and 10 % of the
             first limit, the GPUs at most 2 % busy in the MVA, whole client nodes where jobs share them):
             the event and module times agree within the documented gap (docs/model.md, "Where the analytic
             models and the simulation differ"; MODEL_GAP and KNOWN_GAPS below) plus the run's own 95 %
             half-width, or `analytic` refuses in words (exit 2) a scenario it does not describe.
  figures    every figure name in summary.json and replications.json is the table's (`figures --json`) or a
             documented resource figure, and summary.json's figures are its own results block's numbers.
  compare    `compare --columns fp16` against `run --variant fp16` at the same seeds: the same means; and
             `compare` over every variant of every shipped config with a fixed pool answers.
  plan       `plan --gpus 4` and `plan --jobs 500`: the answer and its failing neighbour (one job count more, one
             layout of fewer GPUs) simulated again by `run` at the plan's own seeds, the ratio's 95 % interval
             computed here: the answer meets at its upper bound, the neighbour fails at its lower bound.
  import     `import perf-analyzer --yaml`'s points and host costs against the scenario reading the same
             perf_analyzer folder: the same module time, GPU utilisation and batch.

Usage: check_consistency.py SONICSIM REPO [--only NAME[,NAME]] [--work DIR] [-j N]
Exit 1 on any disagreement, with the two numbers and the command; a table of every comparison on stdout.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generated  # noqa: E402
import yaml  # python3-yaml (scripts/setup.sh)

# The documented gap between the analytic models and a low-load run (docs/model.md, "Where the analytic
# models and the simulation differ"), as a fraction of the analytic value. At low load both describe the
# same event: a job's CPU work, its requests' transfers and trips and the GPU's execution, with no queue.
# What remains: the run's TCP model (SimGrid's CM02 rates and its 13.01 factor on latency, slow start is not
# modelled but the bandwidth-delay cap is) against the analytic bytes / bottleneck rate, and the spread of
# request sizes the analytic model averages (the GPU curve is concave in the batch, so E[f(b)] != f(E[b]),
# which the derivation corrects by sampling the job client's split: a few tenths of a percent remain).
MODEL_GAP = 0.03

# Where a scenario's low-load event holds what neither analytic model describes, the gap measured and why
# (docs/model.md, "Where the analytic models and the simulation differ"). A failure here means the gap grew.
KNOWN_GAPS = {
    # Six models on one T4 from four-thread jobs behind a 0.93 Gb/s link: Eq. 1-5 do not have a job's four
    # threads contending for the link (13.4 ms of transfers per event each); measured +5.2 % of the module at
    # one job with the switches and the host work added.
    "cms_miniaod_2024_all_models_one_t4": (0.08, "a job's threads sharing its link"),
}


class Failure(Exception):
    pass


def run(cmd, cwd=None, timeout=300):
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout)
    if done.returncode != 0:
        raise Failure("%s: exit %d: %s" % (" ".join(cmd), done.returncode,
                                           done.stderr.decode("utf-8", "replace").strip()[-400:]))
    return done.stdout.decode("utf-8", "replace")


def run_json(cmd, cwd=None, timeout=300):
    return json.loads(run(cmd + ["--json"], cwd=cwd, timeout=timeout))


# ---------------------------------------------------------------------------------------------- analytic


def analytic_case(sonicsim, work, name, scenario, overrides, variant=None, gap=MODEL_GAP):
    """Returns (rows, failures): the analytic and simulated event and module times at low load.

    The analytic value compared is the one the analytic output itself says to read at low load: the MVA's,
    unless the scenario batches dynamically; then its notes say that below the knee requests run alone and
    the MVA's merged demand is short by t_gpu_merging_saving_s, so the SONIC model's times (request-sized
    batches) plus the server host work it lacks (t_host_s, which the MVA has) are compared instead.
    """
    sets = ["--variant", variant] if variant else []
    for o in overrides:
        sets += ["--set", o]
    try:
        whole = run_json([sonicsim, "analytic", scenario] + sets + ["--jobs", "1"])
    except Failure as e:
        # A scenario without inference as a service has no analytic model; the command must say so plainly.
        for refusal, why in (("has no remote_inference module", "no remote_inference module"),
                             ("no request reaches a device", "every model on CPU instances")):
            if refusal in str(e) and ": exit 2:" in str(e):
                return [(name, 0, "(none)", math.nan, math.nan, 0.0, 0.0, True,
                         "analytic refuses in words (exit 2): %s" % why)], []
        raise
    model = whole["model"]
    knee = model.get("knee_jobs") or 1e9
    limit = (whole.get("network_limit") or {}).get("jobs") or 1e9
    # Low load: at most 8 jobs and 10 % of the first limit, and few enough that the MVA has the GPUs at most
    # 2 % busy (the SONIC model has no queue, so a busier GPU is a different question).
    top = int(max(1, min(8, math.floor(0.1 * min(knee, limit)))))
    curve_points = run_json([sonicsim, "analytic", scenario] + sets + ["--jobs", "1:%d:1" % top])["curve"]
    low = [p for p in curve_points if p["mva_gpu_utilisation"] <= 0.02] or curve_points[:1]
    curve = low[-1]
    # Shared client nodes: the models take every node full (their notes say how many jobs fill one), so the
    # run is compared with whole nodes; fewer jobs than a node holds run faster, as the notes say.
    for note in whole.get("notes", []):
        full = re.search(r"take every node full \((\d+) jobs", note)
        if full and curve["jobs"] % int(full.group(1)):
            per_node = int(full.group(1))
            whole_nodes = per_node * math.ceil(curve["jobs"] / per_node)
            at_whole = run_json([sonicsim, "analytic", scenario] + sets + ["--jobs", str(whole_nodes)])["curve"][0]
            # Still low load (the GPUs at most 5 % busy): otherwise one job per node is the lower load, and the
            # comparison keeps it (the event's CPU time then carries the mean field's full-node premise).
            if at_whole["mva_gpu_utilisation"] <= 0.05:
                curve = at_whole
    jobs = curve["jobs"]
    gap, why = KNOWN_GAPS.get(name, (gap, ""))
    batching = model.get("t_gpu_merging_saving_s", 0.0) > 0.0
    if batching and not any("below the knee the server rarely has two requests to merge" in n
                            for n in whole.get("notes", [])):
        return [], ["%s: dynamic batching saves %.4g s per event in the MVA, but analytic's notes do not say "
                    "so" % (name, model["t_gpu_merging_saving_s"])]
    host = model.get("t_host_s", 0.0)
    # Asynchronous calls overlap (the analytic notes say the models assume blocking calls one after another):
    # the blocking module time is then an upper bound, and the event time still agrees.
    overlapping = any("asynchronous requests overlap" in n for n in whole.get("notes", []))
    if batching:
        # Plus the model switches at request-sized batches, which Eq. 1-5 lack too (the notes give them).
        extra = host + model.get("t_model_switch_s", 0.0)
        reference = {"event_mean_s": (curve["sonic_event_s"] + extra, "SONIC+host"),
                     "module_mean_s": (curve["sonic_module_s"] + extra, "SONIC+host")}
    else:
        reference = {"event_mean_s": (curve["mva_event_s"], "MVA"), "module_mean_s": (curve["mva_module_s"], "MVA")}
    out = os.path.join(work, name)
    summary = run_json([sonicsim, "run", scenario] + sets + ["--set", "workload.jobs=%d" % jobs, "--out", out, "-q"])
    figures = summary["figures"]
    precision = summary["results"]["precision"]["figures"]
    rows, failures = [], []
    for figure in ("event_mean_s", "module_mean_s"):
        simulated = figures.get(figure)
        analytic, which = reference[figure]
        if simulated is None:
            continue
        half = (precision.get(figure) or {}).get("half_width", 0.0)
        error = (simulated - analytic) / analytic
        allowed = gap + half / analytic
        ok = abs(error) <= allowed
        if overlapping and figure == "module_mean_s":
            which += " (bound)"
            ok = error <= allowed
        rows.append((name, jobs, figure, analytic, simulated, error, allowed, ok, which))
        if not ok:
            failures.append("%s: %s at %d jobs: %s %.6g, run %.6g +- %.2g (%+.2f %%, allowed %.2f %%: gap %.0f %% "
                            "%s+ the run's half-width); sonicsim analytic %s %s --jobs %d" %
                            (name, figure, jobs, which, analytic, simulated, half, 100 * error, 100 * allowed,
                             100 * gap, "(" + why + ") " if why else "", scenario, " ".join(sets), jobs))
    return rows, failures


def shipped_cases(repo):
    """Every shipped config at low load, with the variants that change what the analytic model sees."""
    configs = os.path.join(repo, "configs")
    cases = []
    for file in sorted(os.listdir(configs)):
        if not file.endswith(".yaml"):
            continue
        path = os.path.join(configs, file)
        stem = file[:-5]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        overrides = []
        if "campaign:" in text:
            # A campaign's jobs come and go and an autoscaled group changes in time: neither has a steady
            # state the analytic model describes. Their fixed-pool, fixed-jobs form has one.
            overrides.append("workload.campaign=null")
        cases.append((stem, path, overrides))
        # Every variant too: a what-if the analytic model must follow (or refuse in words).
        variants = (yaml.safe_load(text) or {}).get("variants") or {}
        for variant in variants:
            cases.append(("%s+%s" % (stem, variant), path, overrides, variant))
    return cases


# ----------------------------------------------------------------------------------------------- figures


def figure_names(sonicsim):
    table = run_json([sonicsim, "figures"])
    return set(table["figures"])


def base_name(key):
    return key.split(":", 1)[0]


# Each resource's own figures beside the table's, in replications.json (docs/commands.md, "Figures").
RESOURCE_FIGURE = re.compile(r"^(groups\.[^.]+\.(device|host|nic_in)_utilisation|models\.[^.]+\.share_of_devices|"
                             r"links\..+\.utilisation|campaign\.(mean_running_jobs|mean_outbound_gbps|"
                             r"slope_gbps_per_job|intercept_gbps))$")


def figures_check(sonicsim, work, names):
    """summary.json, replications.json and compare.json use only the table's names, and summary.json's
    figures are the numbers of its own results block."""
    failures = []
    out = os.path.join(work, "figures_run")
    summary = run_json([sonicsim, "run", "--set", "workload.jobs=20", "--set", "workload.events_per_job=3",
                        "--out", out, "-q"])
    for key in summary["figures"]:
        if base_name(key) not in names:
            failures.append("summary.json figure '%s' is not a name of the figure table" % key)
    results = summary["results"]
    pairs = [("event_mean_s", results["event"]["mean_s"]), ("events_completed", results["events"]["completed"])]
    for figure, value in pairs:
        if not math.isclose(summary["figures"][figure], value, rel_tol=1e-12):
            failures.append("summary.json: figures.%s %r against its results block's %r" %
                            (figure, summary["figures"][figure], value))
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        written = json.load(f)
    if written["figures"] != summary["figures"]:
        failures.append("run --json's figures differ from the summary.json it wrote")
    replicated = run_json([sonicsim, "run", "--set", "workload.jobs=20", "--set", "workload.events_per_job=3",
                           "--replications", "2", "--out", os.path.join(work, "figures_reps"), "-q"])
    for key in replicated["figures"]:
        if base_name(key) not in names and not RESOURCE_FIGURE.match(key):
            failures.append("replications.json figure '%s' is not a name of the figure table" % key)
    return failures


# ----------------------------------------------------------------------------------------------- compare


def compare_check(sonicsim, work, names):
    """`compare --columns V` and `run --variant V` with the same replications: the same seeds, the same means."""
    failures = []
    common = ["--set", "workload.events_per_job=3", "--set", "output.precision=off"]
    compared = run_json([sonicsim, "compare", "--columns", "fp16", "--jobs", "20", "--replications", "2",
                         "--out", os.path.join(work, "compare"), "-q"] + common)
    column = next(c for c in compared["columns"] if c["name"] == "fp16")
    alone = run_json([sonicsim, "run", "--variant", "fp16", "--set", "workload.jobs=20", "--replications", "2",
                      "--out", os.path.join(work, "compare_run"), "-q"] + common)
    checked = 0
    for figure in ("module_mean_s", "event_mean_s", "events_per_s", "gpu_utilisation", "mean_executed_batch"):
        if figure not in names:
            failures.append("compare.json column figure '%s' is not a name of the figure table" % figure)
        if column.get(figure) is None or figure not in alone["figures"]:
            continue
        checked += 1
        a, b = column[figure], alone["figures"][figure]["mean"]
        if not math.isclose(a, b, rel_tol=1e-9):
            failures.append("compare --columns fp16 gives %s %.9g, run --variant fp16 (same seeds) %.9g" %
                            (figure, a, b))
    if checked < 4:
        failures.append("compare against run: only %d figures to compare" % checked)
    return failures, checked


def compare_every_config(sonicsim, work, repo, names):
    """`compare` over every variant of every shipped config with a fixed pool (a campaign day is left to the
    operations tests): it must answer (it refused two-group scenarios in the planner's words), with only the
    table's names in its columns."""
    failures, compared = [], 0
    configs = os.path.join(repo, "configs")
    for file in sorted(os.listdir(configs)):
        path = os.path.join(configs, file)
        if not file.endswith(".yaml"):
            continue
        with open(path, encoding="utf-8") as f:
            document = yaml.safe_load(f) or {}
        if not document.get("variants") or "campaign" in (document.get("workload") or {}):
            continue
        try:
            table = run_json([sonicsim, "compare", path, "--jobs", "8", "--set", "workload.events_per_job=6",
                              "--set", "workload.warmup_events=1",
                              "--set", "output.precision=off", "-j", "2", "--out",
                              os.path.join(work, "compare_" + file[:-5]), "-q"])
        except Failure as e:
            failures.append("compare %s: %s" % (file, e))
            continue
        compared += 1
        for column in table["columns"]:
            for key in ("module_mean_s", "event_mean_s", "events_per_s", "gpu_utilisation"):
                if key not in column or key not in names:
                    failures.append("compare %s: column %s lacks %s" % (file, column["name"], key))
    return failures, compared


# -------------------------------------------------------------------------------------------------- plan

# Student t, 0.975 quantile, by degrees of freedom (1..30); the plan's intervals use the same.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


def interval(values):
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T975[n - 2] * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def plan_check(sonicsim, work, mode):
    """A plan's answer and its failing neighbour, each simulated again by `run` at the plan's own seeds, with
    the ratio to the reference and its 95 % interval computed here: the answer meets module_mean_s<=1.1x at
    its upper bound, the neighbour fails at its lower bound. `mode`: ["--gpus", "4"] (the neighbour one job
    count more) or ["--jobs", "500"] (one layout of fewer GPUs)."""
    failures = []
    quick = ["--set", "workload.events_per_job=4", "--set", "output.precision=off"]
    out = os.path.join(work, "plan" + mode[0])
    run([sonicsim, "plan"] + mode + ["--run-precision", "0", "--out", out, "-q"] + quick, timeout=600)
    with open(os.path.join(out, "plan.json"), encoding="utf-8") as f:
        plan = json.load(f)
    question = "plan %s" % " ".join(mode)
    if not plan["found"]:
        return ["%s found no answer: %s" % (question, plan.get("reason"))], []
    most_jobs = mode[0] == "--gpus"
    key = (lambda r: r["jobs"]) if most_jobs else (lambda r: r["gpus"])
    answer = plan["plan"]["jobs"] if most_jobs else plan["plan"]["gpus"]
    runs = {key(r): r for r in plan["runs"] if r["role"] == "candidate"}
    beyond = sorted((k for k in runs if (k > answer if most_jobs else k < answer) and runs[k]["decision"] == "fails"),
                    reverse=not most_jobs)
    if not beyond:
        return ["%s answers %d but no neighbour beyond it was simulated and failed" % (question, answer)], []

    def module_times(r, seeds):
        group = "platform.server_groups.gke_4xt4."
        values = []
        for seed in seeds:
            s = run_json([sonicsim, "run", "--seed", str(seed), "--set", "workload.jobs=%d" % r["jobs"],
                          "--set", group + "pods=%d" % r["pods"], "--set",
                          group + "devices.count=%d" % r["gpus_per_pod"], "--out",
                          os.path.join(work, "plan_runs", "%d_%d_%d" % (r["jobs"], r["gpus"], seed % 1000)),
                          "-q"] + quick)
            values.append(s["figures"]["module_mean_s"])
        return values

    rows = []
    reference = plan["reference"]
    ref = module_times(reference, reference["seeds"])
    for k, expect in ((answer, "meets"), (beyond[0], "fails")):
        r = runs[k]
        ratios = [m / ref[n] for n, m in enumerate(module_times(r, r["seeds"]))]
        mean, low, high = interval(ratios)
        verdict = "meets" if high <= 1.1 else "fails" if low > 1.1 else "undecided"
        where = "%d jobs on %d x %d" % (r["jobs"], r["pods"], r["gpus_per_pod"])
        rows.append((question, where, len(r["seeds"]), mean, low, high, verdict, expect))
        plan_mean = r["checks"][0]["value"]["mean"]
        if not math.isclose(mean, plan_mean, rel_tol=1e-9):
            failures.append("%s: the module ratio at %s %.9g, the same seeds by run %.9g" %
                            (question, where, plan_mean, mean))
        if verdict != expect:
            failures.append("%s answers %d; at %s run gives %.4f (%.4f-%.4f) over %d seeds: %s, the plan says %s" %
                            (question, answer, where, mean, low, high, len(r["seeds"]), verdict, expect))
    return failures, rows


# ------------------------------------------------------------------------------------------------ import


def import_check(sonicsim, work, repo):
    """A curve two ways: the CMS config reads ParticleNet AK4's perf_analyzer folder itself (merged-async);
    `import perf-analyzer --yaml` turns the same folder into points and host costs, which replace it through
    --set. The runs at the same seed must agree to the six significant digits the YAML keeps."""
    config = os.path.join(repo, "configs", "cms_miniaod_2024_one_model_per_t4.yaml")
    folder = os.path.join(repo, "validation", "data", "cms_miniaod_2024", "perf_analyzer", "particlenet_AK4_PT")
    fragment = os.path.join(work, "imported.yaml")
    run([sonicsim, "import", "perf-analyzer", folder, "--model", "particlenet_ak4", "--device-time",
         "merged-async", "--input-bytes", "9760B", "--output-bytes", "40B", "--yaml", fragment])
    with open(fragment, encoding="utf-8") as f:
        imported = yaml.safe_load(f)
    points = imported["throughput"]["T4"]["points"]

    def flow(value):
        return json.dumps(value).replace('"', "")

    common = ["--set", "workload.jobs=20", "--set", "workload.events_per_job=40", "--set", "output.precision=off"]
    direct = run_json([sonicsim, "run", config, "--out", os.path.join(work, "import_direct"), "-q"] + common)
    through = run_json([sonicsim, "run", config, "--out", os.path.join(work, "import_through"), "-q",
                        "--set", "models.particlenet_ak4.throughput.T4={points: %s}" % flow(points),
                        "--set", "models.particlenet_ak4.compute_input={per_request: \"%s\", per_byte: \"%s\"}" %
                        (imported["compute_input"]["per_request"], imported["compute_input"]["per_byte"]),
                        "--set", "models.particlenet_ak4.client_call={per_request: \"%s\", per_byte: \"%s\"}" %
                        (imported["client_call"]["per_request"], imported["client_call"]["per_byte"])] + common)
    failures, rows = [], []
    for figure in ("module_mean_s", "gpu_utilisation", "mean_executed_batch"):
        a, b = direct["figures"].get(figure), through["figures"].get(figure)
        if a is None or b is None:
            failures.append("import: %s missing from a run" % figure)
            continue
        rows.append((figure, a, b))
        if not math.isclose(a, b, rel_tol=1e-4):
            failures.append("import: %s %.7g with the folder read by the scenario, %.7g with the import's YAML" %
                            (figure, a, b))
    return failures, rows


# ------------------------------------------------------------------------------------------------ main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sonicsim")
    parser.add_argument("repo")
    parser.add_argument("--only", default="")
    parser.add_argument("--work", default="")
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    sonicsim = os.path.abspath(args.sonicsim)
    work = args.work or tempfile.mkdtemp(prefix="consistency_")
    only = set(filter(None, args.only.split(",")))

    failures = []
    rows = []
    if not only or "analytic" in only:
        cases = shipped_cases(args.repo) + generated.scenarios(args.repo)
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            futures = [pool.submit(analytic_case, sonicsim, work, *case) for case in cases]
            for case, future in zip(cases, futures):
                name = case[0]
                try:
                    r, f = future.result()
                    rows += r
                    failures += f
                except Failure as e:
                    failures.append("%s: %s" % (name, e))
        print("analytic against a low-load run (allowed = the %.0f %% model gap + the run's half-width)" %
              (100 * MODEL_GAP))
        print("  %-36s %5s %-14s %-10s %12s %12s %8s %8s" % ("case", "jobs", "figure", "model", "analytic",
                                                             "simulated", "error", "allowed"))
        for name, jobs, figure, a, s_, e, allowed, ok, which in rows:
            if figure == "(none)":
                print("  %-36s %s" % (name, which))
                continue
            print("  %-36s %5d %-14s %-10s %12.6g %12.6g %+7.2f%% %7.2f%% %s" %
                  (name, jobs, figure, which, a, s_, 100 * e, 100 * allowed, "" if ok else "DIFFERS"))

    names = figure_names(sonicsim)
    if not only or "figures" in only:
        try:
            failures += figures_check(sonicsim, work, names)
            print("figures: summary.json, replications.json checked against the figure table (%d names)" % len(names))
        except Failure as e:
            failures.append("figures: %s" % e)
    if not only or "compare" in only:
        try:
            f, checked = compare_check(sonicsim, work, names)
            failures += f
            print("compare --columns fp16 against run --variant fp16, 2 replications: %d figures compared" % checked)
        except Failure as e:
            failures.append("compare: %s" % e)
    if not only or "compare" in only:
        try:
            f, configs = compare_every_config(sonicsim, work, args.repo, names)
            failures += f
            print("compare over every variant of %d shipped configs with a fixed pool: answered" % configs)
        except Failure as e:
            failures.append("compare: %s" % e)
    if not only or "plan" in only:
        print("plans against runs at their seeds (module_mean_s<=1.1x of the reference):")
        for mode in (["--gpus", "4"], ["--jobs", "500"]):
            try:
                f, plan_rows = plan_check(sonicsim, work, mode)
                failures += f
                for question, where, n, mean, low, high, verdict, expect in plan_rows:
                    print("  %-14s %-22s %2d seeds  %.4f (%.4f-%.4f)  %-9s plan: %s" %
                          (question, where, n, mean, low, high, verdict, expect))
            except Failure as e:
                failures.append("plan: %s" % e)
    if not only or "import" in only:
        try:
            f, import_rows = import_check(sonicsim, work, args.repo)
            failures += f
            print("import perf-analyzer --yaml against the scenario reading the same files (merged-async):")
            for figure, a, b in import_rows:
                print("  %-32s %.7g  %.7g" % (figure, a, b))
        except Failure as e:
            failures.append("import: %s" % e)

    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print("%d disagreement(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

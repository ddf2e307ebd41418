#!/usr/bin/env python3
"""Derive validation/data/cms_miniaod_2024/scans/calibration_series.csv from the released scans beside it.

One row per measured point, in the form `sonicsim calibrate` and the validation cases read (series, jobs, y,
sd, reference, reference_sd): y is the per-job throughput (events/s of one 4-thread job), sd the standard error
of that point, reference the direct-inference level the paper compares it with. How each sd is obtained is
written below and in the scans' README; nothing here is fitted.
"""
import csv
import math
import pathlib

HERE = pathlib.Path(__file__).resolve().parent.parent / "validation/data/cms_miniaod_2024/scans"

# Direct-inference references (scans README). Their sd: the spread of a direct measurement over repeats in the
# CPU-fallback parity test at 4 threads x 5 jobs, 0.070 / 4.319 = 1.6 % (cpu_fallback_parity.csv).
with open(HERE / "cpu_fallback_parity.csv") as f:
    parity = {int(r["threads_per_job"]): r for r in csv.DictReader(f)}
DIRECT_RELATIVE_SD = float(parity[4]["direct_evt_s_per_job_sd"]) / float(parity[4]["direct_evt_s_per_job_mean"])
GCP_DIRECT, PURDUE_DIRECT = 3.88, 4.17

rows = []
# ParticleNet AK4 alone on one T4: the mean over the jobs that completed; its standard error sd / sqrt(jobs).
with open(HERE / "pn_ak4_single_t4_scan.csv") as f:
    for r in csv.DictReader(f):
        n = int(r["jobs_completed"])
        rows.append(("pn_ak4_single_t4", n, float(r["per_job_throughput_mean_evt_s"]),
                     float(r["per_job_throughput_sd_evt_s"]) / math.sqrt(n), GCP_DIRECT,
                     GCP_DIRECT * DIRECT_RELATIVE_SD))
rows.append(("pn_ak4_direct_reference", 60, GCP_DIRECT, GCP_DIRECT * DIRECT_RELATIVE_SD, GCP_DIRECT,
             GCP_DIRECT * DIRECT_RELATIVE_SD))

# All models on one T4, server near (Purdue) and far (Google Cloud, Iowa). The figure gives no error bars; the
# paper says the server's location makes no visible difference, so the two series measure the same thing and
# their differences estimate one point's uncertainty: sd = rms(difference) / sqrt(2).
with open(HERE / "all_models_one_t4_cross_site.csv") as f:
    cross = list(csv.DictReader(f))
near = {int(r["jobs"]): float(r["per_job_throughput_evt_s"]) for r in cross if r["server_site"].startswith("Purdue")}
far = {int(r["jobs"]): float(r["per_job_throughput_evt_s"]) for r in cross if r["server_site"].startswith("GCP")}
rms = math.sqrt(sum((near[j] - far[j]) ** 2 for j in near) / len(near))
site_sd = rms / math.sqrt(2)
for name, series in (("all_models_near", near), ("all_models_far", far)):
    for jobs in sorted(series):
        rows.append((name, jobs, series[jobs], site_sd, PURDUE_DIRECT, PURDUE_DIRECT * DIRECT_RELATIVE_SD))
rows.append(("all_models_direct_reference", 4, PURDUE_DIRECT, PURDUE_DIRECT * DIRECT_RELATIVE_SD, PURDUE_DIRECT,
             PURDUE_DIRECT * DIRECT_RELATIVE_SD))

with open(HERE / "calibration_series.csv", "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["series", "jobs", "per_job_evt_s", "sd_evt_s", "direct_reference_evt_s", "direct_reference_sd_evt_s"])
    for series, jobs, y, sd, ref, ref_sd in rows:
        out.writerow([series, jobs, f"{y:.4f}", f"{sd:.4f}", f"{ref:.2f}", f"{ref_sd:.4f}"])
print(f"wrote {HERE / 'calibration_series.csv'}: {len(rows)} points; site sd {site_sd:.4f}, "
      f"direct relative sd {DIRECT_RELATIVE_SD:.4f}")

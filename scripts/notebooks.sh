#!/usr/bin/env bash
# Regenerates notebooks_export/: runs sonicsim for the data each notebook reads (notebooks_export/data/), writes the
# notebooks from notebooks_export/make_notebooks.py, and executes them in place (outputs and figures stored in the
# .ipynb; each figure also saved as a PNG beside it by the notebook's own code).
#
#   scripts/notebooks.sh               data + notebooks (a few minutes on 2 cores)
#   scripts/notebooks.sh --no-data     notebooks only, on the data already in notebooks_export/data/
#   scripts/notebooks.sh --check DIR   execute copies of the notebooks and data in DIR (the ctest entry; changes
#                                      nothing in the repository); exit 1 if any cell raises
#   scripts/notebooks.sh --check DIR --data MINE
#                                      the same, with the files of MINE (your own sonicsim outputs, named as in
#                                      notebooks_export/data/, e.g. fig7_large_sweep.csv = a sweep's sweep.csv) in
#                                      place of the shipped ones; the figures land in DIR
#
# Debian packages only: python3-matplotlib python3-pandas python3-numpy jupyter-nbconvert python3-nbformat
# python3-ipykernel (scripts/setup.sh installs them). SONICSIM=path overrides the binary (default build/sonicsim).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
py=/usr/bin/python3
sonicsim=${SONICSIM:-$root/build/sonicsim}
export=notebooks_export
notebooks=(01_protodune_2020_scaling 02_campaign_2022_network 03_capacity_plan 04_dynamic_batching 05_cms_miniaod)

mode=all
check_dir=
user_data=
case "${1:-}" in
  "") ;;
  --no-data) mode=notebooks ;;
  --check) mode=check; check_dir=${2:?--check needs a directory}
    if [[ ${3:-} == --data ]]; then user_data=${4:?--data needs a directory}; fi ;;
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "notebooks.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac

# A kernel named python3 that runs /usr/bin/python3 (python3-ipykernel installs it in /usr/share/jupyter/kernels);
# if it is missing, install one under build/ and point JUPYTER_PATH at it.
if ! "$py" -c 'from jupyter_client.kernelspec import KernelSpecManager as K; K().get_kernel_spec("python3")' \
    >/dev/null 2>&1; then
  "$py" -m ipykernel install --prefix "$root/build/jupyter" --name python3 >/dev/null
  export JUPYTER_PATH="$root/build/jupyter/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
fi

execute() {  # execute notebooks in place in directory $1
  local dir=$1 status=0
  # Writable caches outside $HOME (CI sandboxes); the PNGs are written by the notebooks next to themselves.
  local tmp; tmp=$(mktemp -d)
  for nb in "${notebooks[@]}"; do
    local start=$SECONDS
    if MPLCONFIGDIR=$tmp/mpl IPYTHONDIR=$tmp/ipython JUPYTER_RUNTIME_DIR=$tmp/runtime PYDEVD_DISABLE_FILE_VALIDATION=1 \
        "$py" -m nbconvert --to notebook --execute --inplace \
        --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=300 \
        "$dir/$nb.ipynb" >"$tmp/$nb.log" 2>&1; then
      # Drop the per-cell execution timestamps, so that a rerun on the same data changes nothing.
      "$py" -c 'import sys, nbformat
nb = nbformat.read(sys.argv[1], 4)
for cell in nb.cells: cell.metadata.pop("execution", None)
nbformat.write(nb, sys.argv[1])' "$dir/$nb.ipynb"
      echo "notebooks: $nb.ipynb executed ($((SECONDS - start)) s)"
    else
      echo "notebooks: $nb.ipynb FAILED:" >&2; cat "$tmp/$nb.log" >&2; status=1
    fi
  done
  rm -rf "$tmp"
  return $status
}

if [[ $mode == check ]]; then
  rm -rf "$check_dir"; mkdir -p "$check_dir"
  cp -r "$export/data" "$check_dir/"
  if [[ -n $user_data ]]; then
    [[ -d $user_data ]] || { echo "notebooks.sh: --data $user_data: not a directory" >&2; exit 2; }
    cp -r "$user_data"/. "$check_dir/data/"
  fi
  for nb in "${notebooks[@]}"; do cp "$export/$nb.ipynb" "$check_dir/"; done
  execute "$check_dir"
  exit $?
fi

if [[ $mode == all ]]; then
  [[ -x $sonicsim ]] || { echo "notebooks.sh: $sonicsim not found (cmake --build build)" >&2; exit 2; }
  work=$root/build/notebooks_work     # full sonicsim outputs (points/, events.csv); only small files are kept
  rm -rf "$work"; mkdir -p "$work"
  data=$export/data
  rm -rf "$data"; mkdir -p "$data"
  sweep() {  # sweep NAME SCENARIO ARGS...: keep sweep.csv and fits.csv as data/NAME_sweep.csv, data/NAME_fits.csv
    local name=$1; shift
    local start=$SECONDS
    "$sonicsim" sweep "$@" -j 2 --out "$work/$name" >"$work/$name.log" 2>&1 \
      || { cat "$work/$name.log" >&2; exit 1; }
    cp "$work/$name/sweep.csv" "$data/${name}_sweep.csv"
    cp "$work/$name/fits.csv" "$data/${name}_fits.csv"
    echo "notebooks: sweep $name ($((SECONDS - start)) s)"
  }
  campaign() {  # campaign NAME ARGS...: keep summary.json, campaign.csv, event_time_histogram.csv
    local name=$1; shift
    local start=$SECONDS
    "$sonicsim" run configs/protodune_2022_campaign.yaml "$@" --out "$work/$name" >"$work/$name.log" 2>&1 \
      || { cat "$work/$name.log" >&2; exit 1; }
    mkdir -p "$data/$name"
    cp "$work/$name"/{summary.json,campaign.csv,event_time_histogram.csv} "$data/$name/"
    echo "notebooks: run $name ($((SECONDS - start)) s)"
  }
  jobs_grid=1,10,25,50,75,100,125,150,175,200,225,250,275,300,325,350,375,400,425,450,475,500
  large=configs/protodune_2020_large_batch.yaml
  small=configs/protodune_2020_small_batch.yaml

  # (1) Fig. 7 of arXiv:2009.04509: module time against jobs, simulated and analytic (Eq. 4 and MVA), large and small batch.
  sweep fig7_large "$large" --vary workload.jobs=$jobs_grid --replications 3
  sweep fig7_small "$small" --vary workload.jobs=$jobs_grid --replications 3
  "$sonicsim" analytic "$large" --json --jobs 1:500:3 >"$data/analytic_large.json"
  "$sonicsim" analytic "$small" --json --jobs 1:500:3 >"$data/analytic_small.json"
  install -m 644 validation/data/protodune_2020_fig7_left.csv "$data/"

  # (2) The 2022 campaign, uncapped and with the 600-job cap of Oct 8.
  campaign campaign_2022_uncapped
  campaign campaign_2022_cap600 --set 'workload.campaign.max_concurrent=[{from: 0s, jobs: 600}]'

  # (3) Capacity plan: GPUs for 270 jobs (one 16 Gbps server) and for 1,000 jobs (one server with a 100 Gbps NIC:
  # with 16 Gbps the NIC saturates first, at the network limit printed by `sonicsim analytic`).
  "$sonicsim" analytic "$large" --json --set workload.jobs=270 >"$data/plan_analytic_16gbps.json"
  "$sonicsim" analytic "$large" --json --set platform.server_groups.gke_4xt4.nic_bandwidth=100Gbps >"$data/plan_analytic_100gbps.json"
  sweep plan_270 "$large" --set workload.jobs=270 --vary platform.server_groups.gke_4xt4.devices.count=1:10:1
  sweep plan_1000 "$large" --set workload.jobs=1000 --set platform.server_groups.gke_4xt4.nic_bandwidth=100Gbps \
    --vary platform.server_groups.gke_4xt4.devices.count=4,8,10,12,13,14,15,16,17,18,20,24
  if "$sonicsim" plan --help >/dev/null 2>&1; then   # `sonicsim plan`, when the binary has it
    for jobs in 270 1000; do
      start=$SECONDS
      "$sonicsim" plan "$large" --jobs $jobs -j 2 --out "$work/plan_$jobs" >"$work/plan_$jobs.log" 2>&1 \
        || { cat "$work/plan_$jobs.log" >&2; exit 1; }
      cp "$work/plan_$jobs/plan.json" "$data/plan_$jobs.json"
      echo "notebooks: plan for $jobs jobs ($((SECONDS - start)) s)"
    done
  fi

  # (4) Dynamic batching on and off, large and small batch.
  db_grid=25,50,100,150,175,200,225,250,275,300,350,400,450,500
  sweep dynbatch_large "$large" --vary workload.jobs=$db_grid \
    --vary models.emtrkmichelid.triton.dynamic_batching.enabled=false,true
  sweep dynbatch_small "$small" --vary workload.jobs=$db_grid \
    --vary models.emtrkmichelid.triton.dynamic_batching.enabled=false,true
  # One resolved scenario (the T4 throughput curve against batch size) for notebook 4.
  "$sonicsim" run "$small" --set workload.jobs=300 --set models.emtrkmichelid.triton.dynamic_batching.enabled=true \
    --out "$work/small_db_300" >/dev/null
  cp "$work/small_db_300/summary.json" "$data/small_batch_dynbatch_300_summary.json"

  # (5) CMS Mini-AOD (arXiv:2402.15366 inputs): each model alone on one T4 against jobs, simulated and MVA; the
  # direct-inference level; the large-scale layout at several T4 counts per model.
  cms=configs/cms_miniaod_2024_one_model_per_t4.yaml
  cms_grid=10,50,100,150,200,250,300,350,400,500,600,800,1000,1400
  for model in particlenet_ak4 particlenet_ak8 deepmet deeptau; do
    serve=(--set workload.pipeline.particlenet_ak4.inference=direct)
    if [[ $model == particlenet_ak8 ]]; then # the three AK8 taggers, three models served together
      for tagger in 1 2 3; do serve+=(--set workload.pipeline.particlenet_ak8_$tagger.inference=service); done
    else
      serve+=(--set workload.pipeline.$model.inference=service)
    fi
    sweep cms_$model "$cms" "${serve[@]}" --vary workload.jobs=$cms_grid
    "$sonicsim" analytic "$cms" "${serve[@]}" --json --jobs 1:1400:10 >"$data/cms_${model}_analytic.json"
  done
  "$sonicsim" run "$cms" --set workload.inference=direct --set workload.jobs=10 --out "$work/cms_direct" >/dev/null
  cp "$work/cms_direct/summary.json" "$data/cms_direct_summary.json"
  # The measured layout (102 T4 in 4-GPU VMs: 6, 5, 2 + one 2-GPU VM and 12 pods) and its pods times 0.5, 1.5
  # and 2 (each group at least one pod).
  for scale in 0.5 1 1.5 2; do
    layout=()
    for entry in pn_ak4_t4:6 pn_ak8_t4:5 deepmet_t4:2 deepmet_t4_2gpu:1 deeptau_t4:12; do
      group=${entry%%:*}
      pods=$("$py" -c "import math; print(max(1, round(${entry##*:} * $scale)))")
      layout+=(--set platform.server_groups.$group.pods=$pods)
    done
    start=$SECONDS
    "$sonicsim" run configs/cms_miniaod_2024_large_scale.yaml "${layout[@]}" --out "$work/cms_large_$scale" >/dev/null 2>&1
    cp "$work/cms_large_$scale/summary.json" "$data/cms_large_scale_x${scale}_summary.json"
    echo "notebooks: run cms large scale x$scale ($((SECONDS - start)) s)"
  done
fi

"$py" "$export/make_notebooks.py"
execute "$export"

#!/usr/bin/env bash
# Ctrl-C during a sweep, as a terminal sends it (SIGINT to the whole process group): the command stops at
# once with exit 130 and "interrupted", no running simulation is counted, the finished points stay on disk,
# no sweep.csv pretends to be complete, and --resume runs only the rest. Then a plain run, simulated in this
# process: exit 130, "interrupted", and no summary.json (only *.partial files). Then a plan, resumed.
set -uo pipefail
sonicsim=$1
config=$2
long_config=$3
command -v setsid >/dev/null || { echo "skipped: setsid (util-linux) is needed to give the sweep its own process group"; exit 0; }
dir=$(mktemp -d /tmp/sonicsim_interrupt.XXXXXX)
trap 'rm -rf "$dir"' EXIT
# interrupt LOG READY -- COMMAND...: starts the command in its own process group (output to LOG), waits up to
# 30 s for the shell test READY to hold, sends SIGINT to the group as a terminal does, and expects exit 130.
interrupt() {
  local log=$1 ready=$2
  shift 3
  setsid "$@" >"$log" 2>&1 &
  local pid=$!
  local polls=0
  for _ in $(seq 1 300); do
    eval "$ready" && break
    sleep 0.1
    polls=$((polls + 1))
  done
  # Said on a failure: whether the signal could have landed (the command still running) and when it was sent.
  local alive=no
  kill -0 "$pid" 2>/dev/null && alive=yes
  kill -INT -- "-$pid"
  wait "$pid"
  local status=$?
  [[ $status == 130 ]] || {
    echo "FAIL: $2 exited $status after Ctrl-C, expected 130 (signal sent after $polls polls of 0.1 s; running then: $alive)"
    cat "$log"
    exit 1
  }
}
# 8 points of about 1-2 s each at -j 2: the signal lands while points run.
interrupt "$dir/log" '[[ $(ls "$dir/sweep/points" 2>/dev/null | wc -l) -ge 1 ]]' -- \
  "$sonicsim" sweep "$config" --vary workload.jobs=50:400:50 --out "$dir/sweep"
grep -q "sonicsim: interrupted: .* simulations had finished" "$dir/log" || { echo "FAIL: no 'interrupted' line"; cat "$dir/log"; exit 1; }
grep -q "with --resume runs the rest" "$dir/log" || { echo "FAIL: the sweep does not say how to resume"; cat "$dir/log"; exit 1; }
grep -q "WARNING" "$dir/log" && { echo "FAIL: the engine's warning reached the user"; cat "$dir/log"; exit 1; }
[[ -e $dir/sweep/sweep.csv ]] && { echo "FAIL: sweep.csv written by an interrupted sweep"; exit 1; }
kept=$(ls "$dir/sweep/points" | wc -l)
[[ $kept -ge 1 && $kept -lt 8 ]] || { echo "FAIL: $kept points kept (expected 1 to 7)"; exit 1; }
pgrep -f "$dir/sweep" >/dev/null && { echo "FAIL: a simulation outlived its sweep"; exit 1; }
"$sonicsim" sweep "$config" --vary workload.jobs=50:400:50 --out "$dir/sweep" --resume >"$dir/resume" 2>&1 ||
  { echo "FAIL: --resume after the interruption"; cat "$dir/resume"; exit 1; }
grep -q "$((8 - kept)) to run (-j 2), $kept already done" "$dir/resume" || { echo "FAIL: --resume did not run only the rest"; cat "$dir/resume"; exit 1; }
[[ -e $dir/sweep/sweep.csv ]] || { echo "FAIL: no sweep.csv after --resume"; exit 1; }
interrupt "$dir/run.log" '[[ -e $dir/run/events.csv.partial ]]' -- "$sonicsim" run "$long_config" --out "$dir/run"
grep -q "sonicsim: interrupted" "$dir/run.log" || { echo "FAIL: run: no 'interrupted' line"; cat "$dir/run.log"; exit 1; }
grep -q "WARNING" "$dir/run.log" && { echo "FAIL: run: the engine's warning reached the user"; cat "$dir/run.log"; exit 1; }
[[ -e $dir/run/summary.json ]] && { echo "FAIL: an interrupted run wrote summary.json"; exit 1; }
# A plan: Ctrl-C keeps its finished simulations in OUT/runs/, and --resume takes them (plan.json as a plan
# run in one go writes it). Short runs (4 events per job, the precision rule off) keep the resumed plan to
# seconds; what is kept and taken does not depend on their length.
quick_plan=(--set workload.events_per_job=4 --set output.precision=off)
interrupt "$dir/plan.log" '[[ $(ls "$dir/plan/runs" 2>/dev/null | wc -l) -ge 3 ]]' -- \
  "$sonicsim" plan --jobs 500 "${quick_plan[@]}" --out "$dir/plan"
grep -q "the same command with --resume takes them" "$dir/plan.log" || { echo "FAIL: plan: no word of what is kept"; cat "$dir/plan.log"; exit 1; }
[[ -e $dir/plan/plan.json ]] && { echo "FAIL: an interrupted plan wrote plan.json"; exit 1; }
# The count it gives is the plan's, as its progress line counts: every simulation kept in runs/ (it gave the
# interrupted batch's alone: "7 of 9 had finished" with 10 kept).
said=$(sed -n 's/.*interrupted: \([0-9]*\) simulations of the plan had finished.*/\1/p' "$dir/plan.log")
[[ $said == $(ls "$dir/plan/runs" | wc -l) ]] ||
  { echo "FAIL: plan: the message counts '$said', runs/ holds $(ls "$dir/plan/runs" | wc -l)"; cat "$dir/plan.log"; exit 1; }
"$sonicsim" plan --jobs 500 "${quick_plan[@]}" --out "$dir/plan" --resume >"$dir/resume_plan.log" 2>&1 ||
  { echo "FAIL: plan --resume"; cat "$dir/resume_plan.log"; exit 1; }
grep -q "taken from .*(--resume)" "$dir/resume_plan.log" || { echo "FAIL: plan --resume took nothing"; cat "$dir/resume_plan.log"; exit 1; }
[[ -e $dir/plan/plan.json ]] || { echo "FAIL: no plan.json after --resume"; exit 1; }
# Ctrl-C while the plan runs no simulation (its analytic bracket before the first batch, or between two
# batches): the plan catches SIGINT there too (/proc's SigCgt) and stops with 130. A guard per batch alone left
# those moments to the inherited disposition, and a script's background job inherits SIGINT ignored: such a
# plan ran on and exited 0 in 9 of 20 tries sent at random moments (and this wait found no such moment).
catches_int_without_children() {
  local caught
  caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || return 1
  [[ -n $caught ]] && (((16#$caught & 2) != 0)) && ! pgrep -P "$1" >/dev/null
}
if [[ -r /proc/self/status ]] && command -v pgrep >/dev/null; then
  for try in 1 2 3; do
    setsid "$sonicsim" plan --jobs 500 "${quick_plan[@]}" --out "$dir/between$try" >"$dir/between.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 3000); do
      catches_int_without_children "$pid" && break
      sleep 0.01
    done
    kill -INT -- "-$pid"
    wait "$pid"
    status=$?
    [[ $status == 130 && ! -e $dir/between$try/plan.json ]] || {
      echo "FAIL: a plan sent Ctrl-C outside its batches exited $status (expected 130, no plan.json)"
      cat "$dir/between.log"
      exit 1
    }
  done
else
  echo "note: /proc or pgrep missing: the Ctrl-C outside a plan's batches is not tried"
fi
echo "PASS: Ctrl-C gave 130, kept $kept finished points, and --resume ran the other $((8 - kept)); an interrupted run gave 130 and no summary.json; an interrupted plan kept its simulations and resumed; three plans stopped outside their batches gave 130"

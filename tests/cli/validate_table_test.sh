#!/usr/bin/env bash
# validate's table and report.md give each case's tolerance beside its error: a relative error of 146.5 % that
# passes (CMS's CPU-fallback parity, judged on an absolute 0.050 because the measured gain is near zero) read as a
# bug without it. The case is the shipped one (validation/cases/cms_cpu_fallback_parity.yaml, ~2 s).
# Usage: validate_table_test.sh SONICSIM REPOSITORY
set -uo pipefail
sonicsim=$1
repo=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cases" && cp "$repo/validation/cases/cms_cpu_fallback_parity.yaml" "$work/cases/"
cd "$repo" || exit 1
SONICSIM_RUN_LOG="$work/runs.log" "$sonicsim" validate --cases-dir "$work/cases" --report "$work/rep" \
  --work-dir "$work/work" -j 2 >"$work/out.txt" 2>&1 || { echo "FAIL: validate exited $?"; cat "$work/out.txt"; exit 1; }
failures=0
# The run log (docs/commands.md, bench): a line per simulation, its last column the events per job as run. The
# case's 3 replications at 5 jobs, each with its direct-inference baseline, are 6 runs written at 48 events
# per job, all extended by the precision rule to a rung of its ladder from 48 (48 x 2^(k/2), down: 67, 96, 135,
# 192, 271, 384, 543, 768; 384 or 543 here, as their summaries' precision.events_per_job say).
python3 -c "import sys, math; rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]; \
  rungs={math.floor(48*2**(k//2)*(math.sqrt(2) if k%2 else 1)) for k in range(1,9)}; \
  assert len(rows)==6 and all(len(r)==8 and r[3]=='48' and int(r[7]) in rungs for r in rows), rows" "$work/runs.log" ||
  { echo "FAIL: the run log does not give each run's events per job as run"; failures=1; }
grep -Eq "^case +measured +analytic +simulated +error +tolerance +verdict" "$work/out.txt" ||
  { echo "FAIL: the table's heading has no tolerance column"; failures=1; }
grep -Eq "^cms_cpu_fallback_parity .* ±0\.05 +pass" "$work/out.txt" ||
  { echo "FAIL: the row does not give its tolerance ±0.05 before its verdict"; failures=1; }
grep -q "| case | measured | analytic | simulated | error | tolerance | verdict |" "$work/rep/report.md" &&
  grep -q "| ±0.05 | pass |" "$work/rep/report.md" || { echo "FAIL: report.md has no tolerance column"; failures=1; }
((failures)) && { cat "$work/out.txt"; exit 1; }
# The accuracy table it wrote, and the guard against a committed one (validate --against): the same table is no
# regression; a committed error of 0 % (so that this run's 146.5 % grew past 2 points and 10 % of itself) is.
python3 -c "import json,sys; t=json.load(open(sys.argv[1])); assert t['format']=='sonicsim accuracy table 1' and \
  t['cases'][0]['id']=='cms_cpu_fallback_parity' and t['summary']['released_cases']==1" "$work/rep/accuracy.json" ||
  { echo "FAIL: accuracy.json is not the table of the one case"; exit 1; }
"$sonicsim" validate --cases-dir "$work/cases" --report "$work/rep2" -j 2 --against "$work/rep/accuracy.json" \
  >"$work/same.txt" 2>&1 || { echo "FAIL: validate --against its own table exited $?"; cat "$work/same.txt"; exit 1; }
grep -q "accuracy against .*: 1 released case(s) compared, 0 regression(s)" "$work/same.txt" ||
  { echo "FAIL: no comparison line"; cat "$work/same.txt"; exit 1; }
python3 -c "import json,sys; t=json.load(open(sys.argv[1])); t['cases'][0]['relative_error']=0.0
json.dump(t, open(sys.argv[2], 'w'))" "$work/rep/accuracy.json" "$work/better.json"
"$sonicsim" validate --cases-dir "$work/cases" --report "$work/rep3" -j 2 --against "$work/better.json" >"$work/worse.txt" 2>&1
status=$?
[[ $status == 1 ]] && grep -q "REGRESSION cms_cpu_fallback_parity: error .* against 0.0 % committed" "$work/worse.txt" ||
  { echo "FAIL: a grown error exited $status without naming the regression"; cat "$work/worse.txt"; exit 1; }
echo '{"cases": []}' >"$work/not_a_table.json"
"$sonicsim" validate --cases-dir "$work/cases" --report "$work/rep4" -j 2 --against "$work/not_a_table.json" >"$work/bad.txt" 2>&1
status=$?
[[ $status == 2 ]] && grep -q "not_a_table.json: not an accuracy table" "$work/bad.txt" ||
  { echo "FAIL: a file that is not an accuracy table exited $status"; cat "$work/bad.txt"; exit 1; }
echo "validate's table and report.md give the tolerance beside the error; validate --against finds a grown error and refuses a file that is not a table"

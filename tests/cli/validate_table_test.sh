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
"$sonicsim" validate --cases-dir "$work/cases" --report "$work/rep" --work-dir "$work/work" -j 2 >"$work/out.txt" 2>&1 ||
  { echo "FAIL: validate exited $?"; cat "$work/out.txt"; exit 1; }
failures=0
grep -Eq "^case +measured +analytic +simulated +error +tolerance +verdict" "$work/out.txt" ||
  { echo "FAIL: the table's heading has no tolerance column"; failures=1; }
grep -Eq "^cms_cpu_fallback_parity .* ±0\.05 +pass" "$work/out.txt" ||
  { echo "FAIL: the row does not give its tolerance ±0.05 before its verdict"; failures=1; }
grep -q "| case | measured | analytic | simulated | error | tolerance | verdict |" "$work/rep/report.md" &&
  grep -q "| ±0.05 | pass |" "$work/rep/report.md" || { echo "FAIL: report.md has no tolerance column"; failures=1; }
((failures)) && { cat "$work/out.txt"; exit 1; }
echo "validate's table and report.md give the tolerance beside the error"

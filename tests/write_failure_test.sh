#!/usr/bin/env bash
# A run whose outputs cannot be written fails and leaves nothing that looks complete. The file-size limit
# (ulimit -f, with SIGXFSZ ignored so the write returns EFBIG instead of killing the process) stands in for a
# full disk without needing root to mount a small file system. Usage: write_failure_test.sh path/to/sonicsim
set -u
binary=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 100 jobs x 6 events: events.csv alone is ~50 KiB, far above the 8 KiB allowed.
(
  trap '' XFSZ
  ulimit -f 8
  exec "$binary" run --out "$dir/out" --set workload.jobs=100 --set workload.events_per_job=6 --set output.precision=off
) >"$dir/stdout" 2>"$dir/stderr"
code=$?
fail() {
  echo "write_failure_test: $1"
  echo "--- stdout"; cat "$dir/stdout"; echo "--- stderr"; cat "$dir/stderr"; ls -la "$dir/out" 2>/dev/null
  exit 1
}
[[ $code -eq 1 ]] || fail "expected exit code 1, got $code"
grep -q "cannot write '.*events.csv.partial'" "$dir/stderr" || fail "expected \"cannot write '.../events.csv.partial'\" on stderr"
grep -q "^wrote " "$dir/stdout" && fail "printed 'wrote' although the outputs were not written"
for name in summary.json events.csv timeseries.csv; do
  [[ -e $dir/out/$name ]] && fail "$name exists after a failed write"
done
compgen -G "$dir/out/*.partial" >/dev/null && fail "partial files left behind"
echo "write failure: exit 1, 'cannot write', no output file left"

# Standard output is a result too (an imported curve redirected into a file): a full device there (/dev/full)
# is exit 1 with a message, for every command that prints its result.
for command in "analytic" "import triton-config $(dirname "$0")/data/triton/emtrkmichelid_config.pbtxt" \
  "run --set workload.jobs=2 --out $dir/stdout_run"; do
  # shellcheck disable=SC2086
  "$binary" $command >/dev/full 2>"$dir/stderr"
  code=$?
  [[ $code -eq 1 ]] || fail "$command > /dev/full: expected exit code 1, got $code"
  grep -q "cannot write to standard output" "$dir/stderr" || fail "$command > /dev/full: no 'cannot write to standard output'"
done
echo "stdout on a full device: exit 1, 'cannot write to standard output'"

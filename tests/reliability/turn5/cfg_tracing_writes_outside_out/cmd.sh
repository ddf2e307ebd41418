#!/bin/sh
# --cfg tracing:yes wrote simgrid.trace in the current directory (or, with tracing/filename, anywhere), not
# under --out. SimGrid's tracing is not offered: refused before anything is written.
cd "$(dirname "$0")" && mkdir -p work && cd work && "$SONICSIM" --cfg tracing:yes --cfg tracing/filename:../../escaped.trace sweep ../scenario.yaml --vary workload.jobs=2,4 -j 1 -q --out out

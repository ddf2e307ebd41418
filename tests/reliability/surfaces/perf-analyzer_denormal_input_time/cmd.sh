#!/bin/sh
# Found by tests/fuzz/fuzz_surfaces.py: a Server Compute Input of 1e-310 us printed a host-cost residual of "inf %"
# with exit 0. Expected: exit 2 naming the file, line and column.
cd "$(dirname "$0")" && "${SONICSIM:-sonicsim}" 'import' 'perf-analyzer' 'deeptau_nosplit_trt_batch1.csv' 'deeptau_nosplit_trt_batch128.csv' 'deeptau_nosplit_trt_batch16.csv' 'deeptau_nosplit_trt_batch2.csv' 'deeptau_nosplit_trt_batch256.csv' 'deeptau_nosplit_trt_batch32.csv' 'deeptau_nosplit_trt_batch4.csv' 'deeptau_nosplit_trt_batch64.csv' 'deeptau_nosplit_trt_batch8.csv'

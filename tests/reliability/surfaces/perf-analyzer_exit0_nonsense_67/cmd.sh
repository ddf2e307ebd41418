#!/bin/sh
# exit0_nonsense: perf-analyzer: one of three files has a name with a byte that is not UTF-8 (the fuzzer's
# cmd.sh for it was empty). The name is printed and written into the YAML: the output must stay valid text.
# Expected: exit 0 with the curve (the name's batch size read), or exit 2 naming the file.
cd "$(dirname "$0")" && "${SONICSIM:-sonicsim}" import perf-analyzer particlenet_AK4_*

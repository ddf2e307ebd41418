#!/bin/sh
# A file name that is not UTF-8 (Latin-1 "caf\351") ended run, calibrate --spec and a scenario whose
# perf_analyzer folder holds one with the JSON library's text (exit 1). The name is used as given and written
# into JSON with U+FFFD in place of the bytes that are not UTF-8.
cd "$(dirname "$0")" && N=$(printf 'caf\351') && cp scenario.yaml "$N.yaml" && "$SONICSIM" run "$N.yaml" -q --out o1 --set workload.jobs=40

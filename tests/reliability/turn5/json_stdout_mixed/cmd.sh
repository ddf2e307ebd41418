#!/bin/sh
# run --json --html and sweep --json --html printed "wrote .../report.html" on stdout after the document;
# analytic --json -q printed nothing. With --json, stdout holds one JSON document and nothing else.
cd "$(dirname "$0")" && "$SONICSIM" run ops.yaml --out o1 --json --html > run.json

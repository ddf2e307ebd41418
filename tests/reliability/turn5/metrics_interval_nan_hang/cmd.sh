#!/bin/sh
# --metrics-interval nan passed CLI11's range check (every comparison with NaN is false) and the run spun for
# ever. Every floating-point option of every command must be finite, checked before the command runs.
cd "$(dirname "$0")" && "$SONICSIM" run scenario.yaml -q --out out --openmetrics --metrics-interval nan

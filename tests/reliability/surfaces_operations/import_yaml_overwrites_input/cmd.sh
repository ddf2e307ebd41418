#!/bin/sh
# --yaml naming one of the measurement files replaced it with the YAML (the measurement lost, exit 0).
cd "$(dirname "$0")" && sha256sum deepmet_batch1.csv > before.sha256 &&
  "$SONICSIM" import perf-analyzer deepmet_batch1.csv deepmet_batch4.csv --yaml deepmet_batch1.csv

#!/bin/sh
# --yaml naming the values file itself must not replace it with the group's YAML (as perf-analyzer's once did).
cd "$(dirname "$0")" && sha256sum values.yaml > before.sha256 && "$SONICSIM" import supersonic values.yaml --yaml values.yaml

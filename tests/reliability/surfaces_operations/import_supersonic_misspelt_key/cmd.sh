#!/bin/sh
# A misspelt key in a section the import reads: Helm would keep the chart's default (2 servers) silently.
cd "$(dirname "$0")" && "$SONICSIM" import supersonic values.yaml

#!/bin/sh
# A values file with keda: written twice was read silently (the first won; Helm refuses the file, PyYAML takes
# the last). Now refused at the second, as a scenario and a validation case refuse a key written twice.
cd "$(dirname "$0")" && "$SONICSIM" import supersonic values.yaml

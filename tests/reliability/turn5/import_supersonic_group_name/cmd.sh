#!/bin/sh
# import supersonic --group put any text into the YAML it printed: a newline ended the comment line and its
# second line ("autoscaler: {min: 0}") became YAML to paste. A plain name only, as --model and --device.
cd "$(dirname "$0")" && "$SONICSIM" import supersonic values.yaml --group "$(printf 'a\nautoscaler: {min: 0}')"

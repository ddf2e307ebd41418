#!/bin/sh
# A map that contains itself (an alias of an enclosing map): an error naming the key, never a hang.
cd "$(dirname "$0")" && "$SONICSIM" import supersonic values.yaml

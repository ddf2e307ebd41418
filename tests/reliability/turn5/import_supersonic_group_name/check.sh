#!/bin/sh
for g in '' '../x' 'a b' 'a/b'; do
  "$SONICSIM" import supersonic values.yaml --group "$g" >/dev/null 2>&1; code=$?
  [ $code -eq 2 ] || { echo "--group '$g': exit $code"; exit 1; }
done
"$SONICSIM" import supersonic values.yaml --group triton_a | grep -q "platform.server_groups.triton_a" || { echo "a plain name was not taken"; exit 1; }

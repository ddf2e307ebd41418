#!/bin/sh
# The same graph as a validation case's title: refused at once at its key (validate hung).
mkdir -p cases_run && sed "s#REPO/#$REPO/#" cases/case.yaml > cases_run/case.yaml
"$SONICSIM" validate --cases-dir cases_run --report rep --work-dir work -j 1 2>err.txt
code=$?
[ $code -eq 2 ] && grep -q "case.yaml:2:8: key 'title': got a map or a list; expected text" err.txt ||
  { echo "validate: exit $code: $(cat err.txt)"; exit 1; }

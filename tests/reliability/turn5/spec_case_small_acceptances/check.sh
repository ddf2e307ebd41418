#!/bin/sh
mkdir -p quoted huge && cp cases/quoted.yaml quoted/ && cp cases/huge.yaml huge/
"$SONICSIM" validate --cases-dir quoted --report rep1 --work-dir work1 -j 1 >/dev/null 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "key 'predicted.interval95\[1\]': got the text \"12\"" err.txt || { echo "quoted end: exit $code: $(cat err.txt)"; exit 1; }
"$SONICSIM" validate --cases-dir huge --report rep2 --work-dir work2 -j 1 >out.txt 2>err.txt || { echo "huge end: exit $?"; exit 1; }
grep -q "to 1e+308" out.txt && ! grep -q "1000000000000" out.txt rep2/report.md || { echo "1e308 not printed as 1e+308: $(grep huge out.txt)"; exit 1; }

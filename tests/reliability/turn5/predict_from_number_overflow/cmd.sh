#!/bin/sh
# A calibration.json holding 1e999 ended in the JSON library's text ("number overflow parsing"), naming no
# file. Now: the file, the key and why.
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec.yaml --predict-from cal_overflow.json -j 1 --out out -q

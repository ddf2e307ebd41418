#!/bin/sh
# A calibration.json whose covariance is [] (one parameter) crashed --predict-from (SIGSEGV).
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec.yaml --predict-from cal_cov_empty.json -j 1 --out out -q

#!/bin/sh
# A calibration.json with a 2 x 2 covariance for one parameter ended in the JSON library's text.
cd "$(dirname "$0")" && "$SONICSIM" calibrate --spec spec.yaml --predict-from cal_cov_2x2.json -j 1 --out out -q

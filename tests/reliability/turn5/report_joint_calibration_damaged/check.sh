#!/bin/sh
# calibrate --spec --html (the small test spec, ~15 s) ends with its report, as --html does on run and plan.
grep -q "Joint calibration" cms.html || { echo "cms.html has no joint calibration section"; exit 1; }
out=$(pwd)/joint_cal
(cd "$REPO" && "$SONICSIM" calibrate --spec tests/data/joint_calibration.yaml -j 2 -q --out "$out" --html) 2>err.txt ||
  { echo "calibrate --spec --html: exit $?: $(cat err.txt)"; exit 1; }
[ -s joint_cal/report.html ] && grep -q "Joint calibration" joint_cal/report.html ||
  { echo "calibrate --spec --html wrote no report.html with its section: $(ls joint_cal)"; exit 1; }

#!/bin/sh
# report could not draw any joint calibration ("damaged ... run the command again"), the committed CMS
# calibration.json included: it read the single-series layout. It draws the fit, every series, the
# predictions and their readings' envelopes now (tests/report/report_browser_test.sh opens it in Chromium).
cd "$(dirname "$0")" && mkdir -p cms && cp "$REPO/validation/calibration/cms_miniaod_2024_calibration.json" cms/calibration.json &&
  "$SONICSIM" report cms --out cms.html

#!/bin/sh
# A module named "EmTrk<!--<script>" appeared raw inside the report's <script>, where it changes how the page
# parses. Every "<" of the embedded data is now \u003c.
cd "$(dirname "$0")" && "$SONICSIM" run scenario.yaml -q --out out --set workload.jobs=10 --set workload.events_per_job=2 --set output.precision=off && "$SONICSIM" report out --out report.html -q

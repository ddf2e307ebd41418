#!/bin/sh
# 1 job x 5 events, each completed in the end (resubmitted after a preemption): 5 completed.
python3 -c "
import json, sys
e = json.load(open('out/summary.json'))['results']['operations']['events']
print(e); sys.exit(0 if e['completed'] + e['completed_after_retry'] == 5 else 1)"

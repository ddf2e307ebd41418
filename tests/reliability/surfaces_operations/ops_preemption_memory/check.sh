#!/bin/sh
# Every job ends abandoned or done; the counts add up: started = completed + failed (preempted, ...) + in progress.
python3 -c "
import json, sys
o = json.load(open('out/summary.json'))['results']['operations']; e = o['events']
ended = sum(v for k, v in e.items() if k != 'started')
print(e, o.get('jobs_abandoned')); sys.exit(0 if ended == e['started'] and o.get('jobs_abandoned', 0) > 0 else 1)"

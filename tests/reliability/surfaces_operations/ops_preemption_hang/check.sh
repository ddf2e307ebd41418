#!/bin/sh
# 1 job x 5 events, each completed in the end (resubmitted after a preemption): 5 completed; every event
# that started, the preempted ones too, is a row of events.csv with its outcome.
python3 -c "
import csv, json, sys
e = json.load(open('out/summary.json'))['results']['operations']['events']
rows = list(csv.DictReader(open('out/events.csv')))
print(e, 'rows', len(rows))
sys.exit(0 if e['completed'] + e['completed_after_retry'] == 5 and len(rows) == e['started'] else 1)"

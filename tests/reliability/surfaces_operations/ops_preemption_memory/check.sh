#!/bin/sh
# Every job ends done or abandoned, and the counts add up: started = the ended outcomes + in progress; every
# event that started is a row of events.csv with its outcome (the preempted ones were missing).
python3 -c "
import csv, json, sys
o = json.load(open('out/summary.json'))['results']['operations']; e = o['events']
ended = sum(v for k, v in e.items() if k != 'started')
rows = list(csv.DictReader(open('out/events.csv')))
preempted = sum(1 for r in rows if r['outcome'] == 'failed_preempted')
print(e, 'abandoned', o.get('jobs_abandoned'), 'rows', len(rows), 'preempted rows', preempted)
sys.exit(0 if ended == e['started'] == len(rows) and preempted == e['failed_preempted'] > 0
         and o.get('jobs_abandoned', 0) > 0 else 1)"

#!/bin/sh
# Completed + failed + abandoned events add up to the workload (5 x 3), no job completes more than its 3
# events, and a resubmission never runs an event again.
python3 - <<'PY'
import csv, collections, json, sys
ops = json.load(open("out/summary.json"))["results"]["operations"]
rows = list(csv.DictReader(open("out/events.csv")))
done = collections.Counter(r["job"] for r in rows if r["outcome"].startswith("completed"))
final_failed = sum(1 for r in rows if r["outcome"] in ("failed_rejected", "failed_timed_out"))
ended = collections.defaultdict(list)
for r in rows:
    if r["outcome"] != "failed_preempted":
        ended[r["job"]].append(int(r["event"]))
total = sum(done.values()) + final_failed + ops["events_abandoned"]
if total != 15:
    sys.exit("completed %d + failed %d + abandoned %d != 15" % (sum(done.values()), final_failed, ops["events_abandoned"]))
if max(done.values()) > 3:
    sys.exit("a job completed more than its 3 events: %s" % dict(done))
for job, events in ended.items():
    if len(events) != len(set(events)):
        sys.exit("job %s ended an event twice: %s" % (job, events))
PY

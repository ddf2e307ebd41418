#!/bin/sh
# Every replication has its metrics.om, ending with OpenMetrics' # EOF.
for r in 0 1; do
  test "$(tail -1 out/replication_$r/metrics.om)" = "# EOF" || exit 1
done

#!/bin/sh
python3 - <<'PY'
with open("modules_45000.yaml", "w") as f:
    f.write("# one job's pipeline of 45,000 one-millisecond CPU modules, 2 jobs of 1 event\nworkload:\n  jobs: 2\n  pipeline:\n")
    for i in range(45000):
        f.write('    - {name: m%d, type: cpu, duration: "1ms"}\n' % i)
PY
(ulimit -v 4194304; "$SONICSIM" run modules_45000.yaml -q --out o2) 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "workload.pipeline: 45000 modules hold about" err.txt || { echo "45,000 modules: exit $code: $(head -c 300 err.txt)"; exit 1; }
(ulimit -v 102400; "$SONICSIM" run pods_5000.yaml -q --out o3) 2>err.txt; code=$?
[ $code -eq 2 ] && grep -q "platform.server_groups: the pods hold about" err.txt || { echo "5,000 pods: exit $code: $(head -c 300 err.txt)"; exit 1; }

# Sourced by the Prometheus tests (prometheus_test.sh, dashboard_test.sh, replay_test.sh): a temporary work
# folder, a Prometheus server on a loopback port over a TSDB built by promtool, and their removal on every
# exit path. After `source`, $work is the folder; start_prometheus [EXTRA FLAGS] starts the server on
# $work/data and sets $port; fail MESSAGE ends the test with the server's last log lines.
command -v promtool >/dev/null && command -v prometheus >/dev/null ||
  { echo "FAIL: promtool and prometheus are needed (scripts/setup.sh installs Debian's prometheus)"; exit 1; }
work=$(mktemp -d)
server_pid=
port=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [[ -f $work/prometheus.log ]] && tail -20 "$work/prometheus.log"; exit 1; }

# metrics.om FILE into the TSDB at $work/data (several files may go into one).
load_openmetrics() {
  promtool tsdb create-blocks-from openmetrics "$1" "$work/data" >"$work/promtool.log" 2>&1 ||
    { cat "$work/promtool.log"; fail "promtool refused $1"; }
}

start_prometheus() {
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'global:\n  scrape_interval: 1h\n' >"$work/prometheus.yml"
  prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
    --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$port" "$@" >"$work/prometheus.log" 2>&1 &
  server_pid=$!
  local _
  for _ in $(seq 1 100); do
    prometheus_ready && return 0
    kill -0 "$server_pid" 2>/dev/null || fail "prometheus exited"
    sleep 0.2
  done
  prometheus_ready || fail "prometheus not ready after 20 s"
}

prometheus_ready() {
  python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
    "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1
}

#!/usr/bin/env bash
# Installs the Debian 12 packages sonicsim needs (only those missing), then configures and builds it in build/.
# Safe to run again: it does nothing that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libsimgrid-dev libeigen3-dev libyaml-cpp-dev libcli11-dev doctest-dev
          nlohmann-json3-dev python3 python3-matplotlib python3-pandas python3-numpy jupyter-nbconvert
          python3-nbformat python3-ipykernel python3-simpy3 python3-yaml clang-format libprotobuf-dev protobuf-compiler libpcg-cpp-dev
          slurm-wlm munge prometheus chromium help2man man-db)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# npm fetches the report's plotting library at build time; a machine with Node.js from elsewhere has it already.
command -v npm >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake --preset release >/dev/null
cmake --build --preset release

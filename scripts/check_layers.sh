#!/usr/bin/env bash
# The layers of sonicsim, as folders and the folders each may include. Fails, naming the file and the include,
# when a source reaches outside its layer, when a pure folder includes SimGrid or CLI11, or when a folder is not
# in the table. The build enforces the same split by linking (sonicsim_core has neither SimGrid nor CLI11);
# this check also catches a header-only use.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A allowed=(
  [models]=""
  [sim/random]=""
  [sim/text]=""
  [sim/measurements]="models sim/text"
  [sim/scenario]="models sim/random sim/text sim/measurements"
  [sim/policy]="models sim/random sim/text sim/measurements sim/scenario"
  [sim/metrics]="models sim/random sim/text sim/measurements sim/scenario"
  [sim/analysis]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics"
  [sim/planning]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis"
  [sim/calibration]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis"
  [sim/sweep]="models sim/random sim/text sim/measurements sim/scenario sim/metrics sim/analysis"
  [sim/validation]="models sim/random sim/text sim/measurements sim/scenario sim/metrics sim/analysis"
  [sim/report]="models sim/random sim/text sim/measurements sim/scenario sim/metrics sim/analysis sim/sweep"
  [sim/kernel]=""
  [sim/platform]="models sim/random sim/text sim/measurements sim/scenario sim/metrics"
  [sim/components]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/kernel sim/platform"
  [sim/engine]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis sim/kernel sim/platform sim/components"
  [sim/execution]="models sim/random sim/text sim/measurements sim/scenario sim/metrics sim/engine"
  [sim/app]="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis sim/planning sim/calibration sim/sweep sim/validation sim/report sim/platform sim/components sim/engine sim/execution"
)
pure="models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis sim/planning sim/calibration sim/sweep sim/validation sim/report"

failures=0
for dir in $(find models sim -mindepth 0 -type d | sort); do
  [[ $dir == sim ]] && continue
  # The commands' folders (sim/app/<family>) are one layer: each may use the others and what sim/app may.
  layer=$dir
  [[ $dir == sim/app/* ]] && layer=sim/app
  if [[ -z ${allowed[$layer]+set} ]]; then
    echo "layers: folder $dir is not in scripts/check_layers.sh"
    failures=1
    continue
  fi
  for file in "$dir"/*.cpp "$dir"/*.hpp; do
    [[ -e $file ]] || continue
    while IFS= read -r include; do
      target=$(dirname "$include")
      [[ $target == sim/app/* ]] && target=sim/app
      [[ $target == "$layer" ]] && continue
      if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
        echo "layers: $file includes $include, outside what $layer may use (${allowed[$layer]:-nothing})"
        failures=1
      fi
    done < <(sed -n 's/^#include "\(\(sim\|models\)\/[^"]*\)".*/\1/p' "$file")
    if [[ " $pure " == *" $dir "* ]] && grep -qE '^#include <(simgrid|CLI)/' "$file"; then
      echo "layers: $file is in the pure core but includes SimGrid or CLI11"
      failures=1
    fi
  done
done
# The event kernel knows dates and callbacks, not what they are for: no file of it names a job or a pod (it
# includes nothing of the domain, and says nothing of it).
if grep -niwE 'jobs?|pods?' sim/kernel/*; then
  echo "layers: sim/kernel names a job or a pod (above): the kernel knows dates and callbacks only"
  failures=1
fi
if ((failures)); then exit 1; fi
echo "layers respected:"
for dir in models sim/random sim/text sim/measurements sim/scenario sim/policy sim/metrics sim/analysis \
  sim/planning sim/calibration sim/sweep sim/validation sim/report sim/kernel sim/platform sim/components sim/engine sim/execution \
  sim/app; do
  printf '  %-16s -> %s\n' "$dir" "${allowed[$dir]:-(nothing)}"
done

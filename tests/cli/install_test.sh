#!/usr/bin/env bash
# `cmake --install BUILD --prefix P` installs P/bin/sonicsim, its man page (readable by man, naming every
# subcommand) and its bash completion (which completes subcommands and a subcommand's options).
set -euo pipefail
build=$1
prefix=$(mktemp -d /tmp/sonicsim_install.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
"$prefix/bin/sonicsim" --version | grep -q "^sonicsim " || { echo "FAIL: installed binary"; exit 1; }
page=$(MANWIDTH=100 man -l "$prefix/share/man/man1/sonicsim.1" 2>/dev/null || groff -man -Tascii "$prefix/share/man/man1/sonicsim.1")
for command in run analytic sweep plan compare validate calibrate status report bench figures "import perf-analyzer"; do
  grep -q "sonicsim $command" <<<"$page" || { echo "FAIL: the man page has no section for sonicsim $command"; exit 1; }
done
grep -q "EXIT STATUS" <<<"$page" || { echo "FAIL: the man page documents no exit status"; exit 1; }
grep -q "Usage: sonicsim run " <<<"$page" || { echo "FAIL: the usage lines do not name the command (a build path?)"; exit 1; }
grep -q "/sonicsim run " <<<"$page" && { echo "FAIL: a usage line carries a path"; exit 1; }
tail -1 <<<"$page" | grep -qE "^sonicsim [0-9.]+ +[A-Z][a-z]+ [0-9]{4} +SONICSIM\(1\)$" ||
  { echo "FAIL: the footer is not 'sonicsim VERSION  DATE  SONICSIM(1)': $(tail -1 <<<"$page")"; exit 1; }
grep -q "130 in" <<<"$page" || { echo "FAIL: the man page does not document exit 130"; exit 1; }
grep -q "3 plan found that" <<<"$page" || { echo "FAIL: the man page does not document exit 3"; exit 1; }
# shellcheck disable=SC1091
source "$prefix/share/bash-completion/completions/sonicsim"
COMP_WORDS=(sonicsim sw); COMP_CWORD=1; _sonicsim
[[ ${COMPREPLY[*]} == sweep ]] || { echo "FAIL: 'sonicsim sw<TAB>' gave '${COMPREPLY[*]}'"; exit 1; }
COMP_WORDS=(sonicsim plan --tar); COMP_CWORD=2; _sonicsim
[[ ${COMPREPLY[*]} == --target ]] || { echo "FAIL: 'sonicsim plan --tar<TAB>' gave '${COMPREPLY[*]}'"; exit 1; }
COMP_WORDS=(sonicsim import perf-analyzer --rep); COMP_CWORD=3; _sonicsim
[[ ${COMPREPLY[*]} == --replay ]] || { echo "FAIL: 'sonicsim import perf-analyzer --rep<TAB>' gave '${COMPREPLY[*]}'"; exit 1; }
echo "PASS: installed binary, man page (every subcommand, exit status) and bash completion"

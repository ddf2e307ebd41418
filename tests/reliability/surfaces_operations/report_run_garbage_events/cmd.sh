#!/bin/sh
# report on a damaged result (run_garbage_events): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report run_garbage_events --out out.html -q

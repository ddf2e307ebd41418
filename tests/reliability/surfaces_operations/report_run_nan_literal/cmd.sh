#!/bin/sh
# report on a damaged result (run_nan_literal): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report run_nan_literal --out out.html -q

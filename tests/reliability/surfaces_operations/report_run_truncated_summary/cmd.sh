#!/bin/sh
# report on a damaged result (run_truncated_summary): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report run_truncated_summary --out out.html -q

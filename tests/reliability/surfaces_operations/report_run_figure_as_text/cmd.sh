#!/bin/sh
# report on a damaged result (run_figure_as_text): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report run_figure_as_text --out out.html -q

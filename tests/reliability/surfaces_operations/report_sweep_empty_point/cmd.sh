#!/bin/sh
# report on a damaged result (sweep_empty_point): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report sweep_empty_point --out out.html -q

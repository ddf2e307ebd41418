#!/bin/sh
# report on a damaged result (sweep_csv_garbage): it once drew it (exit 0) or answered in the JSON library's words.
cd "$(dirname "$0")" && "$SONICSIM" report sweep_csv_garbage --out out.html -q

#!/bin/sh
# --out naming a link to a missing directory. Expected: exit 2 at once, saying so.
cd "$(dirname "$0")" && ln -sf /nonexistent/sonicsim_dir dangling && "${SONICSIM:-sonicsim}" plan --jobs 10 --out dangling

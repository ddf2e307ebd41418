#!/bin/sh
# A map key with a byte that is not UTF-8 was simulated, then failed in the JSON library.
cd "$(dirname "$0")" && "$SONICSIM" run variant_key.yaml -q --out out

#!/bin/sh
# Refused before any output.
test ! -e out/summary.json

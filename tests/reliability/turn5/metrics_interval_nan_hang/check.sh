#!/bin/sh
[ ! -e out ] || { echo "out/ was written"; exit 1; }

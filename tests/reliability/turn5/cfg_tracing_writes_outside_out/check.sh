#!/bin/sh
[ -z "$(ls work)" ] && [ ! -e ../escaped.trace ] || { echo "written: $(ls work) $(ls .. | grep escaped)"; exit 1; }

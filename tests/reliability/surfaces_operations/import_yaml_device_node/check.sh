#!/bin/sh
# Still a character device, not a file holding the YAML.
test -c devfull

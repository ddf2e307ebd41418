#!/bin/sh
# Refused before any work: no output folder.
test ! -e out

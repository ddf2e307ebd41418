#!/bin/sh
# The error must not echo the file it refused (its first line was printed).
! grep -q "root:" stderr.txt

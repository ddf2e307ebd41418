#!/bin/sh
# No page is left looking complete.
test ! -e out.html

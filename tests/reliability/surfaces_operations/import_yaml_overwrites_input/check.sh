#!/bin/sh
# The measurement is untouched.
sha256sum -c before.sha256

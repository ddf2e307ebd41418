#!/bin/sh
# The values file is unchanged.
sha256sum -c before.sha256 >/dev/null

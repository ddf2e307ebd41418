#!/bin/sh
# A name of 300 characters: status and validate answered in std::filesystem's words ("filesystem error:
# status: File name too long"), validate without the case's line. Both name the path and say why now.
cd "$(dirname "$0")" && "$SONICSIM" validate --cases-dir cases --report rep --work-dir work -j 1

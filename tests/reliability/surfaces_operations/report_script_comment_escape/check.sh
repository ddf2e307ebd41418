#!/bin/sh
# Not once raw; the name is there, escaped.
! grep -q "<!--<script>" report.html && grep -q "EmTrk\\\\u003c!--" report.html

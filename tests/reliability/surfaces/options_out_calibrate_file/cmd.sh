#!/bin/sh
# calibrate checked its output directory only after simulating for ~5 s, then failed with the filesystem
# library's text. Expected: exit 2 at once, in the message shape of the other commands.
cd "$(dirname "$0")" && : > a_file && "${SONICSIM:-sonicsim}" calibrate scenario.yaml --set workload.events_per_job=2 --set output.precision=off --data data.csv --fit models.emtrkmichelid.compute_input.per_byte=0ns:10ns -j 1 --out a_file --observable module:EmTrkMichelId --x clients --y emtrk_time_mean_s --sd emtrk_time_sd_s --series large_batch --max-evaluations 2

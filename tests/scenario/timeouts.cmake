# Timeouts of the scenario test entries (tests/CMakeLists.txt), in seconds: about four times each file's time
# measured on 2 cores under the full suite's load, and at least 120 s. Measure again when a file grows:
# ctest --test-dir build -R '^scenario_|plan_confidence' -j2 prints each entry's time.
# Measured 2026-11-28 with the clean-clone build running beside (seconds): fast_path 297, plan_confidence 216,
# protodune_2022_campaign 143, calibrate 110, cms_miniaod 42, sweep_protodune_knee 38, plan_protodune 19,
# bench_floor 16, joint_calibration 13; every other file under 6.
set(SONICSIM_TIMEOUT_fast_path 1200)
set(SONICSIM_TIMEOUT_plan_confidence 900)
set(SONICSIM_TIMEOUT_protodune_2022_campaign 600)
set(SONICSIM_TIMEOUT_calibrate 450)
set(SONICSIM_TIMEOUT_cms_miniaod 180)
set(SONICSIM_TIMEOUT_sweep_protodune_knee 160)

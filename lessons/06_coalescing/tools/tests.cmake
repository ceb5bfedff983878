# Command-line tests of this lesson's tools, included by grader/tests/CMakeLists.txt (which
# defines cli_test: the grader as a user types it, exit code and output checked).
cli_test(sim_stride_8 EXIT 0 ARGS sim;--stride;8;--plain MATCH "moved 1024 B / used 128 B = 12.5%")
cli_test(sim_sweep EXIT 0 ARGS sim;--sweep MATCH "32")
cli_test(sim_bad_width EXIT 2 ARGS sim;--width;3 MATCH "--width: must be 1, 2, 4, 8 or 16 \\(got 3\\)")
cli_test(sim_help_width_set EXIT 0 ARGS sim;--help MATCH "--width INT:\\{1,2,4,8,16\\}")
# --sweep draws its own strides: a --stride beside it used to be ignored (with a warning).
cli_test(sim_sweep_rejects_stride EXIT 2 ARGS sim;--sweep;--stride;4 MATCH "--sweep draws its own strides")
cli_test(sim_huge_stride EXIT 2 ARGS sim;--stride;99999999999999999999
         MATCH "--stride: must be a whole number from 0 to 9223372036854775807 \\(got 99999999999999999999\\)")

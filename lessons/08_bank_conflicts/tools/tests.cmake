# Command-line tests of this lesson's tool, included by grader/tests/CMakeLists.txt (which defines
# cli_test: the grader as a user types it, exit code and output checked).
cli_test(banks_column_32_way EXIT 0 ARGS banks;--plain
         MATCH "32-way bank conflict: 32 wavefronts per warp request \\(conflict-free: 1\\)")
cli_test(banks_padded_free EXIT 0 ARGS banks;--pad;1;--plain
         MATCH "conflict-free: 1 wavefront per warp request")
cli_test(banks_double_padded EXIT 0 ARGS banks;--width;8;--pad;1;--plain
         MATCH "conflict-free: 2 wavefronts per warp request")
cli_test(banks_sweep EXIT 0 ARGS banks;--width;8;--sweep MATCH "2-way")
cli_test(banks_bad_width EXIT 2 ARGS banks;--width;2 MATCH "--width: must be 4 or 8 \\(got 2\\)")
# --help says the two sizes it takes (it advertised the whole int range).
cli_test(banks_help_width_set EXIT 0 ARGS banks;--help MATCH "--width INT:\\{4,8\\}")
cli_test(banks_bad_pattern EXIT 2 ARGS banks;--pattern;diagonal MATCH "diagonal")
cli_test(banks_swizzle_needs_power_of_two EXIT 2 ARGS banks;--pattern;swizzled;--row;33
         MATCH "power-of-two row length")
cli_test(banks_sweep_rejects_pad EXIT 2 ARGS banks;--sweep;--pad;1 MATCH "--sweep draws its own paddings")

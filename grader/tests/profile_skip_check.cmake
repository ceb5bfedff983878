# The profiler step of lesson 15 on a machine whose GPU counters are not permitted: with a
# stand-in `ncu` first on PATH that answers ERR_NVGPUCTRPERM (grader/tests/fake_ncu/not_permitted),
# `grader --variant solution 15_occupancy_profiling.profile` must report the step as skipped with
# that reason and exit 0 (a skipped step is excused), never fail. Without a GPU the grader exits 3
# and this script prints "lesson 15 profile check: no usable GPU", which the test's
# SKIP_REGULAR_EXPRESSION reads as a skip.
#   cmake -DGRADER=... -DFAKE_NCU_DIR=... -P profile_skip_check.cmake
set(ENV{PATH} "${FAKE_NCU_DIR}:$ENV{PATH}")
unset(ENV{GRADER_NCU})
execute_process(COMMAND ${GRADER} --variant solution 15_occupancy_profiling.profile --color never
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 3)
  message("lesson 15 profile check: no usable GPU")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit 0 (the step skipped, excused), got ${rc}")
endif()
foreach(expected "SKIP" "ERR_NVGPUCTRPERM")
  string(FIND "${out}${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the report lacks \"${expected}\"")
  endif()
endforeach()

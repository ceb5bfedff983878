# `cmake --build BUILD --target docs` without Doxygen must fail and say so. Under Makefiles the
# folder BUILD/docs used to stand in for the missing target: nothing written, exit code 0.
# -DSOURCE=<course source> -DBIN=<scratch build folder>
file(REMOVE_RECURSE "${BIN}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/grader/tests/docs_without_doxygen -B ${BIN}
          -G "Unix Makefiles" -DCOURSE_SOURCE_DIR=${SOURCE} -DCMAKE_DISABLE_FIND_PACKAGE_Doxygen=ON
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN} --target docs RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the docs target succeeded without Doxygen:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "Doxygen not found")
  message(FATAL_ERROR "the docs target failed without saying \"Doxygen not found\":\n${out}${err}")
endif()
message(STATUS "without Doxygen the docs target fails (exit ${rc}) and says why")

# The README's test command grades the stub as shipped even when the student solved the lesson
# (issue 19 §4: gpu.01_hello_threads.stub failed on the H200 with lesson 01 solved). In a git
# checkout whose exercise is edited, the stub variant compiles HEAD's text; without git its GPU
# test is skipped with the reason. cmake -DSOURCE=<course> -DBIN=<scratch dir> -DGIT=git -P this
cmake_minimum_required(VERSION 3.24)
set(course ${BIN}/course)
set(file exercises/99_demo/demo.cu)
file(REMOVE_RECURSE ${BIN})
file(MAKE_DIRECTORY ${course}/exercises/99_demo)
file(WRITE ${course}/${file} "// the stub as shipped\n")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "${cmd} failed (${rc}):\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(git ${GIT} -C ${course} -c user.name=course -c user.email=course@example.invalid)
run(${git} init -q)
run(${git} add -A)
run(${git} commit -q -m shipped)
file(WRITE ${course}/${file} "// solved by the student\n")

# With git: the stub variant compiles a copy of HEAD's file, made at build time.
set(mini -S ${CMAKE_CURRENT_LIST_DIR}/shipped_stub -DCOURSE_SOURCE_DIR=${course}
         -DCOURSE_CMAKE_DIR=${SOURCE}/cmake)
run(${CMAKE_COMMAND} ${mini} -B ${BIN}/with-git)
run(${CMAKE_COMMAND} --build ${BIN}/with-git)
file(READ ${BIN}/with-git/stub-sources.txt sources)
if(NOT sources MATCHES "shipped-stubs/99_demo/demo.cu$")
  message(FATAL_ERROR "the stub variant compiles ${sources}, not the build tree's shipped copy")
endif()
file(READ ${sources} text)
if(NOT text STREQUAL "// the stub as shipped\n")
  message(FATAL_ERROR "the stub variant's copy of ${file} is not HEAD's:\n${text}")
endif()
# An edit after configure is not the stub either; a commit of it is (the course's own change).
file(WRITE ${course}/${file} "// solved again\n")
run(${CMAKE_COMMAND} --build ${BIN}/with-git)
file(READ ${sources} text)
if(NOT text STREQUAL "// the stub as shipped\n")
  message(FATAL_ERROR "after an edit the stub variant's copy is not HEAD's:\n${text}")
endif()

# Without git (a copy of the course, no .git): the stub's test says why it is skipped.
file(COPY ${course}/exercises DESTINATION ${BIN}/plain)
run(${CMAKE_COMMAND} ${mini} -B ${BIN}/without-git -DCOURSE_SOURCE_DIR=${BIN}/plain)
run(${CMAKE_CTEST_COMMAND} --test-dir ${BIN}/without-git --output-on-failure -V)
if(NOT out MATCHES "gpu.99_demo.stub[^\n]*Skipped" OR NOT out MATCHES "cannot be told")
  message(FATAL_ERROR "without git the stub's test was not skipped with its reason:\n${out}")
endif()
message(STATUS "the stub variant compiles HEAD's text; without git its test is skipped:\n${out}")

# The README's test command grades the stub as shipped even when the student solved the lesson
# (issue 19 §4: gpu.01_hello_threads.stub failed on the H200 with lesson 01 solved). In a git
# checkout whose exercise is edited, or whose edit the student committed, the stub variant compiles
# the text of the newest commit that changed the lesson's course files; without git its GPU test is
# skipped with the reason. cmake -DSOURCE=<course> -DBIN=<scratch dir> -DGIT=git -P this
cmake_minimum_required(VERSION 3.24)
set(course ${BIN}/course)
set(file exercises/99_demo/demo.cu)
file(REMOVE_RECURSE ${BIN})
file(MAKE_DIRECTORY ${course}/exercises/99_demo)
file(WRITE ${course}/${file} "// the stub as shipped\n")
file(MAKE_DIRECTORY ${course}/lessons/99_demo)
file(WRITE ${course}/lessons/99_demo/README.md "the lesson's text\n")

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

# With git: the stub variant compiles a copy of the course's file, made at build time.
set(mini -S ${CMAKE_CURRENT_LIST_DIR}/shipped_stub -DCOURSE_SOURCE_DIR=${course}
         -DCOURSE_CMAKE_DIR=${SOURCE}/cmake)
run(${CMAKE_COMMAND} ${mini} -B ${BIN}/with-git)
run(${CMAKE_COMMAND} --build ${BIN}/with-git)
file(READ ${BIN}/with-git/stub-sources.txt sources)
if(NOT sources MATCHES "shipped-stubs/99_demo/demo.cu$")
  message(FATAL_ERROR "the stub variant compiles ${sources}, not the build tree's shipped copy")
endif()

# Builds again; the stub variant's copy must read `expected` (`when`: what happened before).
function(expect_copy expected when)
  run(${CMAKE_COMMAND} --build ${BIN}/with-git)
  file(READ ${sources} text)
  if(NOT text STREQUAL "${expected}")
    message(FATAL_ERROR "${when}, the stub variant's copy of ${file} reads:\n${text}")
  endif()
endfunction()

expect_copy("// the stub as shipped\n" "with the working copy edited before configure")
# An edit after configure is not the stub either.
file(WRITE ${course}/${file} "// solved again\n")
expect_copy("// the stub as shipped\n" "after an edit")
# The student commits the solved file (exercises/ only): the course's stub still.
run(${git} add -A)
run(${git} commit -q -m "my work")
expect_copy("// the stub as shipped\n" "after the student's commit")
# A course commit (the lesson's own files changed, its stub with them): that stub.
file(WRITE ${course}/lessons/99_demo/README.md "the lesson's new text\n")
file(WRITE ${course}/${file} "// the course's new stub\n")
run(${git} add -A)
run(${git} commit -q -m "course update")
expect_copy("// the course's new stub\n" "after a course commit")

# Without git (a copy of the course, no .git): the stub's test says why it is skipped.
file(COPY ${course}/exercises DESTINATION ${BIN}/plain)
run(${CMAKE_COMMAND} ${mini} -B ${BIN}/without-git -DCOURSE_SOURCE_DIR=${BIN}/plain)
run(${CMAKE_CTEST_COMMAND} --test-dir ${BIN}/without-git --output-on-failure -V)
if(NOT out MATCHES "gpu.99_demo.stub[^\n]*Skipped" OR NOT out MATCHES "cannot be told")
  message(FATAL_ERROR "without git the stub's test was not skipped with its reason:\n${out}")
endif()
message(STATUS "the stub variant compiles the course's stub; without git its test is skipped:\n${out}")

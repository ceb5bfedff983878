# The stub variant of a lesson (grade_<id>__stub, test gpu.<id>.stub) must grade the stub as the
# course ships it, not the student's working copy: with lesson 01 solved in exercises/, the README's
# test command failed gpu.01_hello_threads.stub (the "stub" passed). So in a git checkout the stub
# variant compiles exercises/<id>/*.cu as committed by the course (the newest commit that changed
# the lesson's own files, shipped_stub.cmake; a student's commits of exercises/ are not it), copied
# into the build tree at build time (edits and commits after configure are seen; an unchanged copy
# is not rewritten, so nothing recompiles). A file that commit does not have (a lesson being
# written) is taken from the working copy. Without git, or outside a checkout, whether the working
# copy is the stub cannot be told: the variant still compiles (the working copy) and its GPU test
# is skipped with that reason.

set(COURSE_SHIPPED_STUB_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/shipped_stub.cmake)
set(COURSE_SKIP_MARK "COURSE-TEST-SKIPPED:")

# Sets COURSE_STUB_FROM_GIT (ON/OFF) and COURSE_STUB_UNDECIDED (why not) for source tree `src`.
function(course_stub_origin src)
  find_package(Git QUIET)
  set(from_git OFF)
  set(why "")
  if(NOT GIT_EXECUTABLE)
    string(CONCAT why "git is not installed, so whether exercises/ still holds the stub as "
                      "shipped cannot be told")
  else()
    # HEAD must hold exercises/ (a copy of the course inside some other checkout does not).
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${src} ls-tree --name-only HEAD ./exercises
                    RESULT_VARIABLE rc OUTPUT_VARIABLE tracked ERROR_QUIET)
    if(rc EQUAL 0 AND tracked)
      set(from_git ON)
    else()
      string(CONCAT why "${src} is not a git checkout whose HEAD has exercises/, so whether "
                        "exercises/ still holds the stub as shipped cannot be told")
    endif()
  endif()
  set(COURSE_STUB_FROM_GIT ${from_git} PARENT_SCOPE)
  set(COURSE_STUB_UNDECIDED "${why}" PARENT_SCOPE)
endfunction()

# Sets `out` to the files the stub variant of lesson `id` compiles (source tree `src`): copies of
# the shipped files made by target lesson_<id>_shipped_stub, or, without git, the working copy.
function(course_stub_sources id src out)
  file(GLOB working CONFIGURE_DEPENDS ${src}/exercises/${id}/*.cu)
  if(NOT COURSE_STUB_FROM_GIT)
    set(${out} "${working}" PARENT_SCOPE)
    return()
  endif()
  # The shipped names: HEAD's, and the working copy's (a file not committed yet).
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${src} ls-tree --name-only HEAD
                          ./exercises/${id}/
                  OUTPUT_VARIABLE committed ERROR_QUIET)
  string(REGEX MATCHALL "[^\n]+\\.cu" committed "${committed}")
  set(names "")
  foreach(f IN LISTS working committed)
    get_filename_component(name ${f} NAME)
    list(APPEND names ${name})
  endforeach()
  list(REMOVE_DUPLICATES names)
  if(NOT names)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/shipped-stubs/${id})
  list(TRANSFORM names PREPEND ${dir}/ OUTPUT_VARIABLE copies)
  add_custom_target(lesson_${id}_shipped_stub
    COMMAND ${CMAKE_COMMAND} -DGIT=${GIT_EXECUTABLE} -DSOURCE_DIR=${src} -DLESSON=${id}
            -DOUT_DIR=${dir} "-DFILES=${names}" -P ${COURSE_SHIPPED_STUB_SCRIPT}
    BYPRODUCTS ${copies}
    VERBATIM)
  set(${out} "${copies}" PARENT_SCOPE)
endfunction()

# A test that is reported as skipped, with `reason`.
function(course_add_skipped_test name reason)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "${COURSE_SKIP_MARK} ${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "${COURSE_SKIP_MARK}")
endfunction()

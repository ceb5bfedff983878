# Checks CMakePresets.json (-DPRESETS=<file>): every build preset compiles in parallel ("jobs"),
# and so does the `test` workflow, whose test step also runs tests in parallel (GPU tests take
# turns through their RESOURCE_LOCK). Serial builds made `cmake --workflow --preset test` take
# 5.5 minutes on 16 cores before the first test ran.
cmake_minimum_required(VERSION 3.25)  # IN_LIST below (policy CMP0057)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/CourseJson.cmake)
file(READ "${PRESETS}" presets)
course_json_indices(builds "${presets}" buildPresets)
set(own_build_presets "")  # build presets named after their configure preset
foreach(i IN LISTS builds)
  string(JSON name GET "${presets}" buildPresets ${i} name)
  string(JSON configure GET "${presets}" buildPresets ${i} configurePreset)
  if(configure STREQUAL name)
    list(APPEND own_build_presets ${name})
  endif()
  string(JSON jobs ERROR_VARIABLE none GET "${presets}" buildPresets ${i} jobs)
  if(none OR jobs LESS 2)
    message(FATAL_ERROR "build preset '${name}' builds serially: give it \"jobs\" (2 or more)")
  endif()
endforeach()

course_json_indices(tests "${presets}" testPresets)
foreach(i IN LISTS tests)
  string(JSON name GET "${presets}" testPresets ${i} name)
  if(name STREQUAL "test")
    string(JSON jobs ERROR_VARIABLE none GET "${presets}" testPresets ${i} execution jobs)
    if(none OR jobs LESS 2)
      message(FATAL_ERROR "test preset 'test' runs its tests one by one: give execution \"jobs\"")
    endif()
    set(found_test ON)
  endif()
endforeach()
if(NOT found_test)
  message(FATAL_ERROR "no test preset 'test' (the README's `cmake --workflow --preset test`)")
endif()

# Every configure preset a user may pick has a build preset of its own name (so that
# `cmake --build --preset NAME` builds in parallel), and the README builds through one: a plain
# `cmake --build build` builds serially under Makefiles, which took the README's first command
# 252 s on the H200's 16 cores (docs/measured/H200.md, fifth session).
course_json_indices(configures "${presets}" configurePresets)
foreach(i IN LISTS configures)
  string(JSON name GET "${presets}" configurePresets ${i} name)
  string(JSON hidden ERROR_VARIABLE visible GET "${presets}" configurePresets ${i} hidden)
  if(NOT visible AND hidden)
    continue()
  endif()
  if(NOT name IN_LIST own_build_presets)
    message(FATAL_ERROR "configure preset '${name}' has no build preset of its name")
  endif()
endforeach()
if(README)
  file(READ "${README}" readme)
  if(NOT readme MATCHES "cmake --preset exercises && cmake --build --preset exercises --target grader")
    message(FATAL_ERROR "README.md's set-up does not build through the exercises build preset "
                        "(cmake --build --preset exercises): a plain cmake --build is serial")
  endif()
endif()
message(STATUS "every build preset and the test preset run in parallel")

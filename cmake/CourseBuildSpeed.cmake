# What keeps the first build short on a small machine (issue 19's targets on 2 cores: the README's
# first command in 90 s, the test command in 8 minutes; docs/measured/setup-2core.md has the
# figures, the README the ranges measured).
#
# - ccache, when installed, caches every C++ and CUDA compilation (a second build tree, or a build
#   after `git checkout`, compiles almost nothing). A launcher set by the user wins.
# - Precompiled headers: nlohmann-json, fmt (and GoogleTest for tests) are parsed once per kind
#   of target instead of in every file (course_grader_cxx below). CLI11 is in none:
#   CLI11 2.1 (Debian 12) defines objects and inline virtual functions at namespace scope, so
#   every file that includes it compiles its code again (4-7 s on 2 cores, 6.6 s at -O3,
#   precompiled or not); the grader's command files are compiled as one unit instead
#   (grader/CMakeLists.txt).
# - The grader's own C++ (driver, core, lesson tools, CPU tests) is compiled with -O0
#   (COURSE_GRADER_CXX_OPTIMIZATION): it waits on its child processes and parses small files, and
#   -O0 compiles it about 25% faster than -O1, itself 30-40% faster than -O3 (eleventh session of
#   docs/measured/setup-2core.md). The grader's main and command files and the hidden tests' main,
#   which declare command lines with CLI11, at -O0 too (COURSE_CLI_CXX_OPTIMIZATION).
#   The harness, which runs inside the timed hidden-test processes, keeps the build type's flags.
#   COURSE_PRECOMPILED_HEADERS=OFF turns the headers off (to check that every file includes what
#   it uses, with COURSE_UNITY_BUILD=OFF; the executables' command files stay one unit).
# - Unity builds (course_unity_build below): the grader's core and drivers in units of 8 files,
#   the harness in one unit, the lessons' command-line tools in one. Every file paid again for the
#   templates of fmt, nlohmann-json and the standard library it instantiates, and the harness
#   also for a precompiled header of its own (7.2 s): on 2 cores `grader` took 106 s of CPU as
#   separate files and 69 s in units, the harness 54 s and 14 s (docs/measured/setup-2core.md,
#   twenty-fifth session). The harness's one unit needs no precompiled header (13.6 s with it,
#   14.1 s without).
# - Unix Makefiles (the presets' generator) print no "Built target" line (TARGET_MESSAGES OFF):
#   each such line was a shell and a `cmake -E cmake_echo_color` per target on the way to a lesson's
#   hidden-test binary, on every grade's rebuild. Make with nothing to do for lesson 01: 0.16-0.22 s
#   (median 0.19) instead of 0.23-0.27 (median 0.245), ten runs each on the 2-core machine
#   (docs/measured/setup-2core.md, twenty-first session). The "Building ..." lines the grader reads
#   (grader/driver/build.cpp) are rule messages and stay.
# - COURSE_FAST_LINKER=ON (off by default) links with lld, else gold, where the C++ compiler can
#   use one: every edit of a lesson relinks its hidden-test binary, and GNU ld took 0.28 s of a
#   1.3 s rebuild on our H200's host (docs/measured/H200.md, sixteenth session); lld linked 07's
#   in 74-102 ms instead of 186-227 on the 2-core machine (docs/measured/setup-2core.md, twentieth
#   session). Off by default because no binary linked so has run on a GPU yet: the H200
#   machines we are lent have neither linker. Executables linked by the C++ compiler only (nvcc
#   links none of the course's); a -fuse-ld= of the user's in CMAKE_EXE_LINKER_FLAGS wins.

set_property(GLOBAL PROPERTY TARGET_MESSAGES OFF)

option(COURSE_UNITY_BUILD "Compile the grader's and the harness's files in a few units" ON)

# Compiles `target`'s files as units of `batch` files (0: all in one unit); with GROUP, only the
# files listed after it, as one unit, and every other file alone. Nothing with
# COURSE_UNITY_BUILD=OFF. Two files of one unit must not define helpers of the same name.
function(course_unity_build target batch)
  cmake_parse_arguments(P "" "" "GROUP" ${ARGN})
  if(NOT COURSE_UNITY_BUILD)
    return()
  endif()
  if(P_GROUP)
    set_source_files_properties(${P_GROUP} PROPERTIES UNITY_GROUP ${target}_group)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  else()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  endif()
endfunction()

# A static or object library's files compile without waiting for the libraries it links to be
# built (CMake's OPTIMIZE_DEPENDENCIES): the grader's driver and lesson tools start beside its core
# instead of after it, which Unix Makefiles otherwise serialize target by target.
set(CMAKE_OPTIMIZE_DEPENDENCIES ON)

option(COURSE_FAST_LINKER "Link with lld or gold instead of GNU ld where the compiler can" OFF)
if(COURSE_FAST_LINKER AND NOT CMAKE_EXE_LINKER_FLAGS MATCHES "-fuse-ld=")
  include(CheckLinkerFlag)
  foreach(linker lld gold)
    check_linker_flag(CXX "-fuse-ld=${linker}" COURSE_LINKER_${linker})
    if(COURSE_LINKER_${linker})
      add_link_options($<$<LINK_LANGUAGE:CXX>:-fuse-ld=${linker}>)
      message(STATUS "Linking with ${linker} (COURSE_FAST_LINKER)")
      break()
    endif()
  endforeach()
endif()

find_program(COURSE_CCACHE ccache)
mark_as_advanced(COURSE_CCACHE)
if(COURSE_CCACHE)
  foreach(lang CXX CUDA)
    if(NOT DEFINED CMAKE_${lang}_COMPILER_LAUNCHER
       AND NOT DEFINED ENV{CMAKE_${lang}_COMPILER_LAUNCHER})
      set(CMAKE_${lang}_COMPILER_LAUNCHER ${COURSE_CCACHE})
    endif()
  endforeach()
  message(STATUS "ccache found: compilations are cached (${COURSE_CCACHE})")
endif()

option(COURSE_PRECOMPILED_HEADERS "Precompile the grader's library headers (JSON, fmt, GoogleTest)"
       ON)
set(COURSE_GRADER_CXX_OPTIMIZATION -O0 CACHE STRING
    "Optimization of the grader's own C++ in Release builds (not of the harness or the lessons)")
set(COURSE_CLI_CXX_OPTIMIZATION -O0 CACHE STRING
    "Optimization of the files that only declare command lines with CLI11, in Release builds")

# The headers most grader files pay for; the standard ones the grader uses widely come with them.
set(COURSE_PCH_HEADERS <fmt/format.h> <nlohmann/json.hpp> <algorithm> <filesystem> <map>
                       <optional> <string> <vector>)

# A precompiled header's owner `name`: an object library of one empty file, compiled with
# `optimization` in Release ("": the build type's flags) like the targets that reuse it (a GCC
# precompiled header fits only the optimization it was made with). It precompiles
# COURSE_PCH_HEADERS and `headers`; `libraries` give their include directories.
function(_course_pch_owner name optimization headers libraries)
  set(empty ${CMAKE_BINARY_DIR}/generated/course_pch.cpp)
  file(CONFIGURE OUTPUT ${empty} CONTENT "// The owner of a precompiled header: nothing else.\n")
  add_library(${name} OBJECT ${empty})
  target_link_libraries(${name} PUBLIC nlohmann_json::nlohmann_json fmt::fmt ${libraries})
  target_precompile_headers(${name} PRIVATE ${COURSE_PCH_HEADERS} ${headers})
  if(optimization)
    target_compile_options(${name} PRIVATE $<$<CONFIG:Release>:${optimization}>)
  endif()
endfunction()

# Makes the precompiled headers' owners: course_pch (the grader), course_pch_tests (its tests),
# course_pch_harness (the harness's CPU tests, at the harness's optimization; the harness itself
# is one unit without one). Call after cmake/Dependencies.cmake.
function(course_add_precompiled_headers)
  if(NOT COURSE_PRECOMPILED_HEADERS)
    return()
  endif()
  _course_pch_owner(course_pch "${COURSE_GRADER_CXX_OPTIMIZATION}" "" "")
  _course_pch_owner(course_pch_tests "${COURSE_GRADER_CXX_OPTIMIZATION}" <gtest/gtest.h>
                    GTest::gtest)
  _course_pch_owner(course_pch_harness "" <gtest/gtest.h> GTest::gtest)
endfunction()

# Target `target` of the grader's C++: COURSE_GRADER_CXX_OPTIMIZATION and the grader's
# precompiled header. TESTS: the header with GoogleTest. HARNESS: the build type's optimization
# and the header of the harness's tests. CLI: a target whose every file includes CLI11 to declare
# command lines (the grader's main and commands): COURSE_CLI_CXX_OPTIMIZATION, since its time goes into
# compiling CLI11's own code again in every file (4.8 s a file at -O1, 3.3 s at -O0; hence the
# unity build of the executables in grader/CMakeLists.txt), and the grader's header where the two
# optimizations agree. CLI11 is in no header: in the one unit of a unity build, parsing it is a
# second of the unit's 7.6 s, less than precompiling it (6 s; docs/measured/setup-2core.md). The target is compiled with the same flags as
# the header's owner (build type, standard, fmt's definitions): GCC and Clang check a precompiled
# header and include the headers as text when it does not fit, so a mismatch costs time, never
# correctness.
function(course_grader_cxx target)
  cmake_parse_arguments(P "TESTS;HARNESS;CLI" "" "" ${ARGN})
  set(optimization ${COURSE_GRADER_CXX_OPTIMIZATION})
  set(owner course_pch)
  set(libraries "")  # the headers' include directories, for the text fallback
  if(P_HARNESS)
    set(optimization "")
    set(owner course_pch_harness)
    set(libraries GTest::gtest)
  elseif(P_TESTS)
    set(owner course_pch_tests)
    set(libraries GTest::gtest)
  elseif(P_CLI)
    set(optimization ${COURSE_CLI_CXX_OPTIMIZATION})
    if(NOT optimization STREQUAL COURSE_GRADER_CXX_OPTIMIZATION)
      set(owner "")  # a header made with other flags would not fit
    endif()
  endif()
  if(optimization)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:${optimization}>)
  endif()
  if(TARGET ${owner})
    target_precompile_headers(${target} REUSE_FROM ${owner})
    target_link_libraries(${target} PRIVATE ${libraries})
  endif()
endfunction()

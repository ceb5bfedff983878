# Small libraries the grader uses. Each is found with find_package first (Debian/Ubuntu ship all
# four: libgtest-dev, libcli11-dev, libfmt-dev, nlohmann-json3-dev) and fetched only when missing.
# FIND_PACKAGE_ARGS makes FetchContent try find_package before downloading (CMake >= 3.24).
include(FetchContent)

# Offline path for GoogleTest: Debian's `googletest` package puts the sources here. Only used when
# no installed GoogleTest is found (a source dir set here would make FetchContent skip find_package).
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND AND EXISTS /usr/src/googletest/CMakeLists.txt
   AND NOT DEFINED FETCHCONTENT_SOURCE_DIR_GTEST)
  set(FETCHCONTENT_SOURCE_DIR_GTEST /usr/src/googletest)
endif()

# Without the packages and without a network, FetchContent would retry each download for about
# 90 s and end in an error that names neither the packages nor the fix. So when something must be
# downloaded, check first, quickly, that the host is reachable, and otherwise stop with the
# install line.
set(COURSE_DEPENDENCY_PROBE_URL "https://github.com/robots.txt" CACHE STRING
    "A small file on the download host, fetched (10 s at most) before any download")
function(_course_require_downloads_or_packages)
  # name, find_package arguments, Debian/Ubuntu package
  set(deps "GTest|CONFIG|libgtest-dev" "CLI11|2.1|libcli11-dev" "fmt|9|libfmt-dev"
           "nlohmann_json|3.11|nlohmann-json3-dev")
  set(missing "")
  foreach(dep IN LISTS deps)
    string(REPLACE "|" ";" dep "${dep}")
    list(GET dep 0 name)
    list(GET dep 1 version)
    list(GET dep 2 package)
    string(TOUPPER "${name}" upper)
    string(TOLOWER "${name}" lower)
    if(DEFINED FETCHCONTENT_SOURCE_DIR_${upper} OR EXISTS ${FETCHCONTENT_BASE_DIR}/${lower}-src)
      continue()  # its source is given, or an earlier configure downloaded it
    endif()
    find_package(${name} ${version} QUIET)
    if(NOT ${name}_FOUND)
      list(APPEND missing "${name} (Debian/Ubuntu package ${package})")
    endif()
  endforeach()
  if(NOT missing OR FETCHCONTENT_FULLY_DISCONNECTED)
    return()
  endif()
  set(probe ${CMAKE_BINARY_DIR}/CMakeFiles/course-download-probe)
  file(DOWNLOAD "${COURSE_DEPENDENCY_PROBE_URL}" ${probe} STATUS status TIMEOUT 10
       INACTIVITY_TIMEOUT 5)
  file(REMOVE ${probe})
  list(GET status 0 code)
  if(code EQUAL 0)
    return()
  endif()
  list(GET status 1 why)
  list(JOIN missing "\n  " missing_lines)
  message(FATAL_ERROR
    "These libraries are not installed, and they cannot be downloaded: "
    "${COURSE_DEPENDENCY_PROBE_URL} cannot be reached (${why}).\n  ${missing_lines}\n"
    "Install them, then configure again:\n"
    "  sudo apt install libgtest-dev libcli11-dev libfmt-dev nlohmann-json3-dev\n"
    "(or point -DFETCHCONTENT_SOURCE_DIR_<NAME>=<dir> at each one's source, or connect to the "
    "internet).")
endfunction()
if(NOT DEFINED FETCHCONTENT_BASE_DIR)
  set(FETCHCONTENT_BASE_DIR ${CMAKE_BINARY_DIR}/_deps)
endif()
_course_require_downloads_or_packages()

set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)

FetchContent_Declare(GTest
  URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz
  FIND_PACKAGE_ARGS NAMES GTest)
FetchContent_Declare(CLI11
  URL https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.4.2.tar.gz
  FIND_PACKAGE_ARGS 2.1)
FetchContent_Declare(fmt
  URL https://github.com/fmtlib/fmt/archive/refs/tags/9.1.0.tar.gz
  FIND_PACKAGE_ARGS 9)
FetchContent_Declare(nlohmann_json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
  FIND_PACKAGE_ARGS 3.11)
FetchContent_MakeAvailable(GTest CLI11 fmt nlohmann_json)

# A source build of GoogleTest (offline path or download) names its targets without the
# namespace that find_package gives them.
if(NOT TARGET GTest::gtest AND TARGET gtest)
  add_library(GTest::gtest ALIAS gtest)
endif()
if(NOT TARGET GTest::gtest_main AND TARGET gtest_main)
  add_library(GTest::gtest_main ALIAS gtest_main)
endif()

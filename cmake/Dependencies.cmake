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

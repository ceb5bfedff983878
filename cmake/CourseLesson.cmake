# One lesson = its own folders + one manifest entry. Every "ready" lesson of lessons/course.json
# becomes these targets, with nothing written per lesson here:
#
#   lesson_<id>_launch    OBJECT: the course's launchers and ceilings, lessons/<id>/*.cu (all but
#                         bench.cu), compiled once; links the toolkit libraries the manifest names
#   lesson_<id>_tests     OBJECT: the hidden tests, grader/lessons/<id>/*.cu
#   grade_<id>            the hidden tests linked with the kernels from exercises/<id>/ (or
#                         solutions/<id>/ with COURSE_SOLUTIONS): what `grader <id>` builds and runs
#   grade_<id>__<variant> with COURSE_DEV_TARGETS: the same tests linked with solutions/ ("solution"),
#                         exercises/ as shipped ("stub": the course's commit of it, see
#                         CourseShippedStub.cmake) and each wrong kernel
#                         grader/lessons/<id>/wrong/NAME.cu the manifest lists; each is also a
#                         ctest (gpu.<id>.<variant>). The wrong kernels' targets are not part of
#                         `all` (grader dev check builds each one it grades) and their tests carry
#                         the label `catalogue`, which the test preset leaves out: the README's
#                         test command grades every solution and stub; `grader dev check` (or
#                         ctest -L catalogue) the whole catalogue
#   steps/<id>.hpp        generated header: the lesson's `enum class Step` in the manifest's order,
#                         step_name() and lesson_id(), in the lesson's namespace (its id without
#                         the number: 07_transpose -> transpose)
#   lessons/<id>/bench.cu optional: the lesson's tables for the lab's bench (see bench/)
#
# One lesson's missing or broken file affects only that lesson: its grade target then fails with
# a message naming the file, and every other lesson still configures, builds and grades.

include(${CMAKE_CURRENT_LIST_DIR}/CourseJson.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CourseShippedStub.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/CourseDeviceImage.cmake)

set(COURSE_MANIFEST ${PROJECT_SOURCE_DIR}/lessons/course.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${COURSE_MANIFEST})
set(COURSE_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)

# A target `name` that fails with `message` when built: the lesson cannot be built as it is.
function(_course_broken_target name message)
  add_custom_target(${name}
    COMMAND ${CMAKE_COMMAND} -E echo "course configure error: ${message}"
    COMMAND ${CMAKE_COMMAND} -E false
    VERBATIM)
endfunction()

# Links the lesson's hidden tests and launchers with `kernel_sources` into executable `target`,
# or, when there are none, makes `target` fail with `missing`. DEVICE_IMAGES: the kernel files are
# compiled device-only and loaded at run time, the executable linked with the lesson's host stubs
# (cmake/CourseDeviceImage.cmake). EXCLUDE_FROM_ALL: not part of `all`.
function(_course_grade_executable id target kernel_sources missing)
  cmake_parse_arguments(P "EXCLUDE_FROM_ALL;DEVICE_IMAGES" "" "" ${ARGN})
  if(NOT kernel_sources)
    _course_broken_target(${target} "${missing}")
    return()
  endif()
  set(exclude "")
  if(P_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  add_executable(${target} ${exclude})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${COURSE_LESSON_BIN_DIR})
  if(P_DEVICE_IMAGES)
    course_add_device_images(${id} ${target} "${kernel_sources}")
    target_link_libraries(${target} PRIVATE lesson_${id}_tests lesson_${id}_launch
                                            lesson_${id}_host_stubs course_harness_main)
    course_link_device_images(${target} ${target})
    return()
  endif()
  # Objects, not an archive: an edit relinks the executable without rewriting an archive first.
  add_library(${target}_kernels OBJECT ${exclude} ${kernel_sources})
  target_include_directories(${target}_kernels PRIVATE ${PROJECT_SOURCE_DIR}/lessons/${id})
  # nvcc's host and device passes side by side (--threads 0: as many as it can use): nvcc on one
  # kernel file, which every grade after an edit waits for, took up to 0.3 s less on our H200
  # (02's; 13's no less: docs/measured/H200.md, eighteenth session).
  target_compile_options(${target}_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--threads=0>)
  target_link_libraries(${target} PRIVATE lesson_${id}_tests lesson_${id}_launch ${target}_kernels
                                          course_harness_main)
endfunction()

# Writes steps/<id>.hpp from the lesson's manifest entry `lesson_json`.
function(_course_write_steps id lesson_json)
  string(SUBSTRING "${id}" 3 -1 ns)
  course_json_indices(steps "${lesson_json}" steps)
  set(names "")
  set(cases "")
  foreach(i IN LISTS steps)
    string(JSON name GET "${lesson_json}" steps ${i} name)
    list(APPEND names ${name})
    string(APPEND cases "    case Step::${name}:\n      return \"${name}\";\n")
  endforeach()
  list(JOIN names ", " enumerators)
  list(TRANSFORM names PREPEND "Step::" OUTPUT_VARIABLE qualified)
  list(JOIN qualified ", " all_steps)
  set(text "// Generated from lessons/course.json by cmake/CourseLesson.cmake: do not edit.
/// @file ${id}.hpp
/// @brief The steps of lesson ${id}, in the manifest's order (the manifest is their only list).
#pragma once

namespace ${ns} {

/// A step of lesson ${id}.
enum class Step { ${enumerators} };

/// Every step, in the manifest's order.
inline constexpr Step kSteps[] = {${all_steps}};

/// The step's name as the manifest, the grader and the hidden tests' names spell it.
constexpr const char* step_name(Step step) {
  switch (step) {
${cases}  }
  return \"?\";
}

/// The lesson's id, \"${id}\", for code that names its lesson (the bench's tables).
inline constexpr char kLessonId[] = \"${id}\";

/// \"${id}\": the lesson every Step belongs to.
constexpr const char* lesson_id(Step) { return kLessonId; }

}  // namespace ${ns}
")
  file(CONFIGURE OUTPUT ${COURSE_GENERATED_DIR}/steps/${id}.hpp CONTENT "${text}" @ONLY)
endfunction()

function(course_add_lesson id lesson_json)
  set(src ${PROJECT_SOURCE_DIR})
  if(COURSE_SOLUTIONS)
    set(kernel_dir solutions/${id})
  else()
    set(kernel_dir exercises/${id})
  endif()
  file(GLOB kernels CONFIGURE_DEPENDS ${src}/${kernel_dir}/*.cu)
  file(GLOB tests CONFIGURE_DEPENDS ${src}/grader/lessons/${id}/*.cu)
  file(GLOB course_code CONFIGURE_DEPENDS ${src}/lessons/${id}/*.cu)
  list(FILTER course_code EXCLUDE REGEX "/bench\\.cu$")

  set(missing "")
  if(NOT course_code)
    set(missing "lessons/${id}/launch.cu (the course's launchers) is missing")
  elseif(NOT tests)
    set(missing "grader/lessons/${id}/*.cu (the hidden tests) is missing")
  endif()
  if(missing)
    _course_broken_target(grade_${id} "${missing}")
    return()
  endif()

  _course_write_steps(${id} "${lesson_json}")
  add_library(lesson_${id}_launch OBJECT ${course_code})
  target_include_directories(lesson_${id}_launch PUBLIC ${src}/lessons/${id} ${COURSE_GENERATED_DIR})
  target_link_libraries(lesson_${id}_launch PUBLIC CUDA::cudart_static)
  course_json_indices(libraries "${lesson_json}" OPTIONAL libraries)
  foreach(k IN LISTS libraries)
    string(JSON lib GET "${lesson_json}" libraries ${k})
    target_link_libraries(lesson_${id}_launch PUBLIC CUDA::${lib})
  endforeach()
  # Runtime calls the lesson's own code counts (lessons/course.json "link_wraps"): GNU ld's
  # --wrap=NAME sends every call of NAME in the lesson's executables (grade_<id>*, bench) to
  # __wrap_NAME, which the lesson's launch code defines and which calls __real_NAME.
  course_json_indices(wraps "${lesson_json}" OPTIONAL link_wraps)
  foreach(k IN LISTS wraps)
    string(JSON fn GET "${lesson_json}" link_wraps ${k})
    target_link_options(lesson_${id}_launch INTERFACE "LINKER:--wrap=${fn}")
  endforeach()

  add_library(lesson_${id}_tests OBJECT ${tests})
  target_link_libraries(lesson_${id}_tests PUBLIC lesson_${id}_launch course_harness GTest::gtest)

  # The stub as shipped: the stub variant's kernels, and the host stubs of device images.
  course_lesson_uses_device_images("${lesson_json}" images)
  set(stub "")
  if(images OR COURSE_DEV_TARGETS)
    course_stub_sources(${id} ${src} stub)
  endif()
  set(mode "")
  if(images AND stub)
    course_add_host_stubs(${id} "${stub}")
    set(mode DEVICE_IMAGES)
  endif()

  _course_grade_executable(${id} grade_${id} "${kernels}"
                           "${kernel_dir}/ has no .cu file: restore it with `grader reset ${id}`"
                           ${mode})
  set(built OFF)
  if(TARGET grade_${id}_kernels OR TARGET grade_${id}_image)
    set(built ON)
    # CPU smoke test (CI): the hidden-test binary links, starts and lists its tests without a GPU.
    add_test(NAME lesson.${id}.lists_tests COMMAND grade_${id} --gtest_list_tests)
  endif()

  # The lab's bench links each lesson's tables, launchers and configured kernels (bench/): the
  # kernel objects, or the host stubs and the images of grade_<id>.
  if(EXISTS ${src}/lessons/${id}/bench.cu AND built)
    set_property(GLOBAL APPEND PROPERTY COURSE_BENCH_SOURCES ${src}/lessons/${id}/bench.cu)
    if(mode)
      set_property(GLOBAL APPEND PROPERTY COURSE_BENCH_LIBRARIES lesson_${id}_launch
                                                                 lesson_${id}_host_stubs)
      set_property(GLOBAL APPEND PROPERTY COURSE_BENCH_IMAGE_TARGETS grade_${id})
    else()
      set_property(GLOBAL APPEND PROPERTY COURSE_BENCH_LIBRARIES lesson_${id}_launch
                                                                 grade_${id}_kernels)
    endif()
  endif()

  if(COURSE_DEV_TARGETS)
    _course_add_variants(${id} "${lesson_json}" "${stub}" "${mode}")
  endif()
endfunction()

# The instructors' variants of a lesson and the GPU tier's ctest for each. `stub`: the stub as
# shipped (the course's commit of it), not the student's working copy
# (cmake/CourseShippedStub.cmake); `mode`: DEVICE_IMAGES or "" (cmake/CourseDeviceImage.cmake).
function(_course_add_variants id lesson_json stub mode)
  set(src ${PROJECT_SOURCE_DIR})
  file(GLOB solution CONFIGURE_DEPENDS ${src}/solutions/${id}/*.cu)
  _course_grade_executable(${id} grade_${id}__stub "${stub}" "exercises/${id}/ has no .cu file"
                           ${mode})
  if(TARGET lesson_${id}_shipped_stub AND TARGET grade_${id}__stub_kernels)
    add_dependencies(grade_${id}__stub_kernels lesson_${id}_shipped_stub)
  endif()
  _course_grade_executable(${id} grade_${id}__solution "${solution}"
                           "solutions/${id}/ has no .cu file" ${mode})
  set(variants stub solution)

  course_json_indices(wrong "${lesson_json}" OPTIONAL wrong_kernels)
  foreach(w IN LISTS wrong)
    string(JSON name GET "${lesson_json}" wrong_kernels ${w} name)
    set(file ${src}/grader/lessons/${id}/wrong/${name}.cu)
    set(sources "")
    if(EXISTS ${file})
      set(sources ${file})
    endif()
    _course_grade_executable(${id} grade_${id}__${name} "${sources}"
                             "the manifest lists wrong kernel ${name} but ${file} is missing"
                             EXCLUDE_FROM_ALL ${mode})
    list(APPEND wrong_variants ${name})
    # Every wrong kernel at once, in one parallel build (`--target catalogue`), for `grader dev
    # check --no-build`; dev check without it builds each variant in turn.
    if(NOT TARGET catalogue)
      add_custom_target(catalogue)
    endif()
    add_dependencies(catalogue grade_${id}__${name})
  endforeach()

  # GPU tier, through the driver exactly as an instructor runs it. Exit code 3 = no GPU = skipped.
  # A wrong kernel's test builds its target first (it is not part of `all`).
  # The solution and the stub (the test preset's GPU tests) skip the large cases (--skip-large:
  # several GiB, or correctness cases past 2^23 elements): lesson 03's 2^31 elements took the
  # solution's test 71 of the README's test command's 267 s on an H200. `grader dev check` (no
  # flag) grades them, and the catalogue's tests grade the large step's wrong kernels.
  foreach(variant IN LISTS variants wrong_variants)
    if(variant STREQUAL "stub" AND NOT COURSE_STUB_FROM_GIT)
      string(CONCAT why "${COURSE_STUB_UNDECIDED}. Without git the stub variant compiles "
                        "exercises/${id}/ as it is, which `./build-test/grader dev check --lesson "
                        "${id} --only stub` grades")
      course_add_skipped_test(gpu.${id}.stub "${why}")
      continue()
    endif()
    if(variant IN_LIST variants)
      set(flags --no-build --skip-large)
      set(labels gpu)
    else()
      set(flags "")
      set(labels "gpu;catalogue")
    endif()
    add_test(NAME gpu.${id}.${variant}
             COMMAND grader dev check ${flags} --lesson ${id} --only ${variant})
    set_tests_properties(gpu.${id}.${variant} PROPERTIES SKIP_RETURN_CODE 3 RESOURCE_LOCK gpu
                                                         TIMEOUT 600 LABELS "${labels}")
  endforeach()
endfunction()

# Adds every lesson whose manifest status is "ready".
function(course_add_lessons_from_manifest)
  course_stub_origin(${PROJECT_SOURCE_DIR})  # git HEAD, or undecided
  course_device_images_check()
  course_json_indices(lessons "${COURSE_MANIFEST_TEXT}" lessons)
  foreach(i IN LISTS lessons)
    string(JSON lesson GET "${COURSE_MANIFEST_TEXT}" lessons ${i})
    string(JSON id GET "${lesson}" id)
    string(JSON status GET "${lesson}" status)
    if(status STREQUAL "ready")
      course_add_lesson(${id} "${lesson}")
    endif()
  endforeach()
  course_add_device_image_test()
endfunction()

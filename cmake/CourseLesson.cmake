# One lesson = one set of targets, so a stub that does not compile breaks only its own lesson.
#
#   lesson_<id>_tests     OBJECT library: the hidden tests (grader/lessons/<id>/*.cu) and the
#                         course-owned launchers (lessons/<id>/*.cu), compiled once
#   grade_<id>            the hidden tests linked with the kernels from exercises/ or solutions/
#                         (COURSE_SOLUTIONS); this is what `grader <id>` builds and runs
#   grade_<id>__<variant> with COURSE_DEV_TARGETS: the same tests linked with solutions/ ("solution"),
#                         exercises/ ("stub") and each deliberately wrong kernel of the manifest
#
# Lessons are read from the course manifest; only lessons whose status is "ready" are built.

set(COURSE_MANIFEST ${PROJECT_SOURCE_DIR}/lessons/course.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${COURSE_MANIFEST})

# Links the lesson's hidden tests with one set of kernel sources into executable `target`.
function(_course_grade_executable id target)
  set(sources ${ARGN})
  add_library(${target}_kernels STATIC ${sources})
  target_include_directories(${target}_kernels PRIVATE ${PROJECT_SOURCE_DIR}/lessons/${id})
  add_executable(${target})
  target_link_libraries(${target} PRIVATE lesson_${id}_tests ${target}_kernels course_harness_main)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${COURSE_LESSON_BIN_DIR})
endfunction()

function(course_add_lesson id)
  set(src ${PROJECT_SOURCE_DIR})
  if(COURSE_SOLUTIONS)
    set(kernel_dir ${src}/solutions/${id})
  else()
    set(kernel_dir ${src}/exercises/${id})
  endif()
  file(GLOB kernels CONFIGURE_DEPENDS ${kernel_dir}/*.cu)
  file(GLOB tests CONFIGURE_DEPENDS ${src}/grader/lessons/${id}/*.cu)
  file(GLOB course_code CONFIGURE_DEPENDS ${src}/lessons/${id}/*.cu)
  if(NOT kernels OR NOT tests)
    message(FATAL_ERROR "lesson ${id} is marked ready in ${COURSE_MANIFEST} but "
                        "${kernel_dir}/*.cu or grader/lessons/${id}/*.cu is missing")
  endif()

  add_library(lesson_${id}_tests OBJECT ${tests} ${course_code})
  target_include_directories(lesson_${id}_tests PUBLIC ${src}/lessons/${id})
  target_link_libraries(lesson_${id}_tests PUBLIC course_harness GTest::gtest)

  _course_grade_executable(${id} grade_${id} ${kernels})

  # CPU smoke test (CI): the hidden-test binary links, starts and lists its tests without a GPU.
  add_test(NAME lesson.${id}.lists_tests COMMAND grade_${id} --gtest_list_tests)

  if(NOT COURSE_DEV_TARGETS)
    return()
  endif()
  file(GLOB stub CONFIGURE_DEPENDS ${src}/exercises/${id}/*.cu)
  file(GLOB solution CONFIGURE_DEPENDS ${src}/solutions/${id}/*.cu)
  _course_grade_executable(${id} grade_${id}__stub ${stub})
  _course_grade_executable(${id} grade_${id}__solution ${solution})
  set(variants stub solution)

  # Deliberately wrong kernels: grader/wrong/<id>/<name>.cu, listed in the manifest.
  string(JSON lessons GET "${COURSE_MANIFEST_TEXT}" lessons)
  string(JSON count LENGTH "${lessons}")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON lid GET "${lessons}" ${i} id)
    if(NOT lid STREQUAL id)
      continue()
    endif()
    string(JSON wrong ERROR_VARIABLE no_wrong GET "${lessons}" ${i} wrong_kernels)
    if(no_wrong)
      break()
    endif()
    string(JSON nwrong LENGTH "${wrong}")
    if(nwrong EQUAL 0)
      break()
    endif()
    math(EXPR wlast "${nwrong} - 1")
    foreach(w RANGE ${wlast})
      string(JSON name GET "${wrong}" ${w} name)
      set(file ${src}/grader/wrong/${id}/${name}.cu)
      if(NOT EXISTS ${file})
        message(FATAL_ERROR "manifest lists wrong kernel ${name} for ${id} but ${file} is missing")
      endif()
      _course_grade_executable(${id} grade_${id}__${name} ${file})
      list(APPEND variants ${name})
    endforeach()
  endforeach()

  # GPU tier, through the driver exactly as an instructor runs it. Exit code 3 = no GPU = skipped.
  foreach(variant IN LISTS variants)
    add_test(NAME gpu.${id}.${variant}
             COMMAND grader dev check --no-build --lesson ${id} --only ${variant})
    set_tests_properties(gpu.${id}.${variant} PROPERTIES SKIP_RETURN_CODE 3 RESOURCE_LOCK gpu
                                                         TIMEOUT 600 LABELS gpu)
  endforeach()
endfunction()

# Adds every lesson whose manifest status is "ready".
function(course_add_lessons_from_manifest)
  string(JSON lessons GET "${COURSE_MANIFEST_TEXT}" lessons)
  string(JSON count LENGTH "${lessons}")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON id GET "${lessons}" ${i} id)
    string(JSON status GET "${lessons}" ${i} status)
    if(status STREQUAL "ready")
      course_add_lesson(${id})
    endif()
  endforeach()
endfunction()

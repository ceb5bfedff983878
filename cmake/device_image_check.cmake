# Build step of cmake/CourseDeviceImage.cmake: the link check of a device image. Every kernel the
# host stubs (the stub as shipped, compiled normally) define must be defined by exactly one of the
# student's device images, as the linker demands of the normal build; the check reports a missing
# or twice-defined kernel in the linker's words, which the grader turns into its usual message
# (grader/driver/build.cpp). On success it writes the kernels' names, one per line, to OUT: the
# harness redirects those and no others (grader/harness/src/device_image.cpp).
#   cmake -DNM=nm -DSTUBS=<objects> -DIMAGES=<cubins> -DSOURCES=<their .cu> -DOUT=<file> -P this
cmake_minimum_required(VERSION 3.24)

# The names of nm -P's symbols of `file` whose type matches `types`.
function(_symbols file types out)
  execute_process(COMMAND ${NM} -P --defined-only ${file} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} could not read ${file}: ${err}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^([^ ]+) (${types}) ")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# The kernels whose host stubs `object` defines: nvcc names the stub of kernel K (mangled) by
# the identifier "__device_stub_" followed by K, itself mangled as _Z<length><identifier>...; the
# host function of K, which the course's code calls, has K's own name. A stub this cannot map (a
# template kernel's stub is local, an extern "C" kernel's name is not mangled) stops the build:
# the image could not replace that kernel.
set(expected "")
foreach(object IN LISTS STUBS)
  _symbols(${object} "[Tt]" names)
  foreach(name IN LISTS names)
    if(NOT name MATCHES "__device_stub_")
      continue()
    endif()
    set(kernel "")
    if(name MATCHES "^_Z([0-9]+)__device_stub__")
      string(LENGTH "_Z${CMAKE_MATCH_1}" skip)
      string(SUBSTRING "${name}" ${skip} ${CMAKE_MATCH_1} identifier)
      string(SUBSTRING "${identifier}" 14 -1 kernel)  # drop "__device_stub_"
    endif()
    if(NOT kernel OR NOT kernel IN_LIST names)
      message(FATAL_ERROR "cmake/device_image_check.cmake cannot tell which kernel the host stub "
                          "${name} of ${object} launches (a template or extern \"C\" kernel?): "
                          "build this lesson without device images (\"student_host_code\": true "
                          "in lessons/course.json, or -DCOURSE_DEVICE_IMAGES=OFF)")
    endif()
    list(APPEND expected ${kernel})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES expected)

# A cubin's kernels with external linkage are its global text symbols (device functions are
# local or inlined).
set(defined "")
foreach(image IN LISTS IMAGES)
  _symbols(${image} "T" names)
  list(APPEND defined ${names})
endforeach()

list(JOIN SOURCES ", " sources)
set(problems "")
foreach(kernel IN LISTS expected)
  set(n 0)
  foreach(name IN LISTS defined)
    if(name STREQUAL kernel)
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  if(n EQUAL 0)
    list(APPEND problems "${sources}: undefined reference to `${kernel}'")
  elseif(n GREATER 1)
    list(APPEND problems "${sources}: multiple definition of `${kernel}'")
  endif()
endforeach()
if(problems)
  foreach(line IN LISTS problems)
    message(NOTICE "${line}")
  endforeach()
  message(FATAL_ERROR "the kernels above are what the course's launch code calls: the link check "
                      "of the device image failed")
endif()
list(JOIN expected "\n" text)
file(WRITE ${OUT} "${text}\n")

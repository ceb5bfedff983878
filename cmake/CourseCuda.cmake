# Finds nvcc and picks the CUDA architectures, then enables CUDA (optional: without nvcc the grader
# still builds and its GPU-free commands work; grading says what is missing). Sets COURSE_HAVE_CUDA.
#
# nvcc: CUDACXX or -DCMAKE_CUDA_COMPILER win; then nvcc on PATH; then the toolkit's usual place,
# /usr/local/cuda/bin/nvcc, which the README promises works without PATH (CMake looks only on PATH).
#
# Architectures: an explicit CMAKE_CUDA_ARCHITECTURES (-D, the native and colab-t4 presets) or
# CUDAARCHS wins. Otherwise, with a GPU visible at configure time, only its architecture (one
# architecture instead of three cuts every lesson's device compilation to a third). Otherwise
# COURSE_ARCHITECTURES_WITHOUT_GPU when a preset sets it (the test preset: see CMakePresets.json),
# else the fixed list 75 80 90 (never `native`: it fails on a machine without a GPU).
# 75 = T4 (Colab), 80 = A100 (its machine code also runs on sm_86/sm_89: RTX 30/40, L4), 90 =
# H100/H200. Without 80, Ampere and Ada GPUs would run the compute_75 PTX, where cp.async is a
# synchronous fallback.
set(COURSE_DEFAULT_ARCHITECTURES 75 80 90)
set(COURSE_MIN_ARCHITECTURE 75)

if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(COURSE_NVCC_ON_PATH nvcc NO_CACHE NO_DEFAULT_PATH PATHS ENV PATH)
  if(NOT COURSE_NVCC_ON_PATH AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc CACHE FILEPATH "The CUDA compiler")
    message(STATUS "nvcc is not on PATH: using /usr/local/cuda/bin/nvcc")
  endif()
endif()

include(CheckLanguage)
check_language(CUDA)

# The compute capabilities of this machine's GPUs as architectures ("90"), or "" when
# nvidia-smi is missing, sees no GPU, or reports one this nvcc cannot build for.
function(_course_detect_gpu_architectures out)
  set(${out} "" PARENT_SCOPE)
  find_program(COURSE_NVIDIA_SMI nvidia-smi NO_CACHE)
  if(NOT COURSE_NVIDIA_SMI)
    return()
  endif()
  execute_process(COMMAND ${COURSE_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE rc OUTPUT_VARIABLE caps ERROR_QUIET TIMEOUT 20)
  if(NOT rc EQUAL 0)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code RESULT_VARIABLE nvcc_rc
                  OUTPUT_VARIABLE supported ERROR_QUIET TIMEOUT 20)
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
  set(archs "")
  foreach(cap IN LISTS caps)
    string(REPLACE "." "" arch "${cap}")
    if(arch LESS COURSE_MIN_ARCHITECTURE)
      message(STATUS "GPU of compute capability ${cap} is older than the course supports "
                     "(${COURSE_MIN_ARCHITECTURE}): not building for it")
    elseif(nvcc_rc EQUAL 0 AND NOT supported MATCHES "sm_${arch}")
      message(STATUS "GPU of compute capability ${cap}: ${CMAKE_CUDA_COMPILER} cannot build for "
                     "sm_${arch}; building for the fixed list instead (a newer CUDA toolkit can)")
      return()
    else()
      list(APPEND archs ${arch})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES archs)
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

if(CMAKE_CUDA_COMPILER AND NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  _course_detect_gpu_architectures(detected)
  if(detected)
    set(why "the GPU found at configure time (nvidia-smi)")
  elseif(COURSE_ARCHITECTURES_WITHOUT_GPU)
    set(detected ${COURSE_ARCHITECTURES_WITHOUT_GPU})
    set(why "no usable GPU found at configure time; COURSE_ARCHITECTURES_WITHOUT_GPU")
  else()
    set(detected ${COURSE_DEFAULT_ARCHITECTURES})
    set(why "no usable GPU found at configure time; the course's fixed list")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${detected} CACHE STRING
      "CUDA architectures to build the lessons for (${why})")
  message(STATUS "CUDA architectures: ${detected} (${why}; -DCMAKE_CUDA_ARCHITECTURES=... "
                 "overrides)")
endif()

# grader/tests/cuda_architectures_check.cmake checks the choice above without enabling CUDA.
if(COURSE_CUDA_ARCHITECTURES_ONLY)
  return()
endif()

if(CMAKE_CUDA_COMPILER)
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  set(COURSE_HAVE_CUDA ON)
else()
  message(WARNING "No CUDA compiler found: lessons will not be built. Install the CUDA toolkit "
                  "(12 or newer) and make sure nvcc is on PATH, in /usr/local/cuda/bin, or named "
                  "by CUDACXX or -DCMAKE_CUDA_COMPILER.")
  set(COURSE_HAVE_CUDA OFF)
endif()

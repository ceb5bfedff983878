# Lessons build for the GPU seen at configure time (issue 19 §3); an explicit
# CMAKE_CUDA_ARCHITECTURES wins, and a GPU the course or this nvcc cannot build for gives the fixed
# list. A stand-in nvidia-smi (first on PATH, so a real GPU does not change the answer) reports the
# compute capabilities. cmake -DSOURCE=<course> -DBIN=<scratch> -DFAKE_SMI=<file> -DNVCC=<nvcc> -P this
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE ${BIN})
file(MAKE_DIRECTORY ${BIN}/path)
file(COPY_FILE ${FAKE_SMI} ${BIN}/path/nvidia-smi)
file(CHMOD ${BIN}/path/nvidia-smi PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(n 0)
function(expect caps expected)
  math(EXPR n "${n} + 1")
  set(n ${n} PARENT_SCOPE)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${BIN}/path:$ENV{PATH}"
                          "FAKE_COMPUTE_CAPS=${caps}" ${CMAKE_COMMAND}
                          -S ${CMAKE_CURRENT_LIST_DIR}/cuda_architectures -B ${BIN}/${n}
                          -DCOURSE_CMAKE_DIR=${SOURCE}/cmake -DCMAKE_CUDA_COMPILER=${NVCC} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "-- architectures: ${expected}\n")
    message(FATAL_ERROR "GPUs '${caps}' ${ARGN}: expected architectures ${expected}:\n${out}")
  endif()
  message(STATUS "GPUs '${caps}' ${ARGN}: ${expected}")
endfunction()
expect("9.0" "90")
expect("8.6 8.6" "86")
expect("9.0" "75" -DCMAKE_CUDA_ARCHITECTURES=75)
expect("7.0" "75;80;90")
expect("13.7" "75;80;90")
expect("" "75" -DCOURSE_ARCHITECTURES_WITHOUT_GPU=75)

# Device images: an edit of a student's kernel file rebuilds its device code alone.
#
# A student's kernel file in most lessons holds device code only (kernels and __device__
# helpers); the launches are the course's (lessons/<id>/launch.cu). nvcc compiles such a file in
# two passes, and the host pass (cudafe++ and the host compiler over the CUDA runtime's headers)
# is most of its time: about 1 s of a one-file rebuild on our H200's host, against 0.35-0.46 s for
# the device pass alone (docs/measured/H200.md, sixteenth and twenty-second sessions). So for a
# lesson whose manifest entry does not say "student_host_code": true, when the build targets one
# architecture:
#
#   lesson_<id>_host_stubs   OBJECT: the stub as shipped (exercises/<id>/*.cu as the course
#                            committed it, see CourseShippedStub.cmake) compiled normally, once:
#                            the host side of every kernel the course launches (its stub
#                            function and its registration), with the stub's empty kernels as
#                            device code
#   <target>_image           each kernel file of the variant compiled device-only (nvcc -cubin,
#                            the same flags as the normal build: the same machine code, byte for
#                            byte, docs/measured/H200.md, twenty-third session) into
#                            device-images/<target>/, then the link check
#                            (device_image_check.cmake: every kernel the stubs define is defined
#                            by exactly one image, or the build fails in the linker's words)
#   <target>                 the hidden tests, launchers and host stubs, linked once; an edit does
#                            not relink it. At run time grader/harness/src/device_image.cpp loads
#                            the images (cudaLibraryLoadFromFile) and, through GNU ld's --wrap of
#                            the runtime calls that take a kernel, replaces each stub's kernel by
#                            the image's kernel of the same name. An image lacking one (built for
#                            another GPU generation: it holds that architecture's machine code
#                            alone, no PTX) stops the grade before its tests with the reason and
#                            the fix (status unsupported, exit code 3), never runs the stub's
#
# Otherwise (a lesson where the student writes host code, several architectures, no git checkout
# to take the shipped stub from, a CUDA runtime without the calls it needs (cudaLibrary*,
# cudaGetKernel, cudaFuncGetName: CUDA 13 has them), or COURSE_DEVICE_IMAGES=OFF) the student's
# files are compiled and linked normally (cmake/CourseLesson.cmake).

option(COURSE_DEVICE_IMAGES
       "Compile device-only lessons' kernel files device-only and load them at run time" ON)
set(COURSE_DEVICE_IMAGE_CHECK ${CMAKE_CURRENT_LIST_DIR}/device_image_check.cmake)

# The runtime calls that take a kernel's host function (grader/harness/src/device_image.cpp wraps
# each). __cudaGetKernel is nvcc 13's: a <<<...>>> launch takes its kernel handle from it once.
# The _ptsz forms are what the same calls compile to with --default-stream per-thread.
set(COURSE_DEVICE_IMAGE_WRAPS
    cudaLaunchKernel cudaLaunchKernelExC cudaLaunchCooperativeKernel cudaLaunchKernel_ptsz
    cudaLaunchKernelExC_ptsz cudaLaunchCooperativeKernel_ptsz cudaFuncGetAttributes
    cudaFuncSetAttribute cudaFuncGetParamInfo cudaOccupancyMaxActiveBlocksPerMultiprocessor
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags
    cudaOccupancyAvailableDynamicSMemPerBlock cudaOccupancyMaxPotentialClusterSize
    cudaOccupancyMaxActiveClusters)

# Decides whether this build can use device images: sets the global properties
# COURSE_DEVICE_IMAGE_ARCH (e.g. 90; "" when not) and COURSE_DEVICE_IMAGE_LINK_OPTIONS, read by
# every function below wherever it is called from (bench/ is configured after the lessons), and
# prints the decision with its reason. Call after course_stub_origin().
function(course_device_images_check)
  set(arch "")
  set(why "")
  list(LENGTH CMAKE_CUDA_ARCHITECTURES n)
  # The toolkit's headers (CUDAToolkit_INCLUDE_DIRS may list several folders, CCCL's too).
  find_file(runtime_header cuda_runtime_api.h PATHS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH
            NO_CACHE)
  find_file(launch_header crt/device_functions.h PATHS ${CUDAToolkit_INCLUDE_DIRS}
            NO_DEFAULT_PATH NO_CACHE)
  set(runtime_api "")
  if(runtime_header)
    file(READ ${runtime_header} runtime_api)
  endif()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT COURSE_DEVICE_IMAGES)
    set(why "COURSE_DEVICE_IMAGES is OFF")
  elseif(multi_config)
    set(why "${CMAKE_GENERATOR} builds several configurations in one folder")
  elseif(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR NOT CMAKE_NM)
    set(why "GNU ld's --wrap and nm are needed (Linux)")
  elseif(NOT runtime_api MATCHES "cudaLibraryEnumerateKernels" OR
         NOT runtime_api MATCHES "cudaFuncGetName" OR NOT runtime_api MATCHES "cudaGetKernel\\(")
    string(CONCAT why "CUDA ${CUDAToolkit_VERSION}'s runtime lacks cudaLibraryEnumerateKernels, "
                      "cudaFuncGetName or cudaGetKernel")
  elseif(NOT n EQUAL 1 OR NOT CMAKE_CUDA_ARCHITECTURES MATCHES "^([0-9]+)(-real)?$")
    set(why "the build targets ${CMAKE_CUDA_ARCHITECTURES}, not one real architecture")
  elseif(NOT COURSE_STUB_FROM_GIT)
    set(why "${COURSE_STUB_UNDECIDED}")
  else()
    string(REGEX REPLACE "-real$" "" arch "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  if(arch)
    message(STATUS "Device images: device-only kernel files are compiled with nvcc -cubin for "
                   "sm_${arch} and loaded at run time (an edit rebuilds no host code)")
    set(wraps ${COURSE_DEVICE_IMAGE_WRAPS})
    set(header "")
    if(launch_header)
      file(READ ${launch_header} header)
    endif()
    if(header MATCHES "__cudaGetKernel")
      list(APPEND wraps __cudaGetKernel)
      target_compile_definitions(course_harness PRIVATE COURSE_WRAP_CUDA_GET_KERNEL)
    endif()
    list(TRANSFORM wraps PREPEND "LINKER:--wrap=" OUTPUT_VARIABLE options)
    set_property(GLOBAL PROPERTY COURSE_DEVICE_IMAGE_LINK_OPTIONS "${options}")
  else()
    message(STATUS "Device images: not used (${why}); kernel files are compiled and linked "
                   "normally")
  endif()
  set_property(GLOBAL PROPERTY COURSE_DEVICE_IMAGE_ARCH "${arch}")
endfunction()

# Sets `out` to ON when lesson `id` (manifest entry `lesson_json`) builds with device images.
function(course_lesson_uses_device_images lesson_json out)
  set(uses OFF)
  get_property(arch GLOBAL PROPERTY COURSE_DEVICE_IMAGE_ARCH)
  if(arch)
    string(JSON host ERROR_VARIABLE none GET "${lesson_json}" student_host_code)
    if(NOT host)
      set(uses ON)
    endif()
  endif()
  set(${out} ${uses} PARENT_SCOPE)
endfunction()

# The host stubs of lesson `id`: its shipped stub files `stub_sources`, compiled normally.
function(course_add_host_stubs id stub_sources)
  add_library(lesson_${id}_host_stubs OBJECT ${stub_sources})
  target_include_directories(lesson_${id}_host_stubs PRIVATE ${PROJECT_SOURCE_DIR}/lessons/${id})
  if(TARGET lesson_${id}_shipped_stub)
    add_dependencies(lesson_${id}_host_stubs lesson_${id}_shipped_stub)
  endif()
endfunction()

# The nvcc flags of a device image: those the build gives every CUDA file (CMAKE_CUDA_FLAGS, the
# build type's, the standard), so that the image's machine code is the normal build's.
# (nvcc preprocesses with the host compiler: CMAKE_CUDA_HOST_COMPILER's, when one is set, as the
# normal build does.) ccache, when used, caches the normal build's compiles only.
function(_course_device_image_flags out)
  get_property(arch GLOBAL PROPERTY COURSE_DEVICE_IMAGE_ARCH)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${config}}")
  if(CMAKE_CUDA_HOST_COMPILER)
    list(PREPEND flags -ccbin=${CMAKE_CUDA_HOST_COMPILER})
  endif()
  list(APPEND flags -forward-unknown-to-host-compiler -std=c++${CMAKE_CUDA_STANDARD}
       --generate-code=arch=compute_${arch},code=sm_${arch})
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# Target `<target>_image`: the device images of `kernel_sources` (lesson `id`) and their link check.
function(course_add_device_images id target kernel_sources)
  set(dir ${CMAKE_BINARY_DIR}/device-images/${target})
  _course_device_image_flags(flags)
  set(images "")
  set(shown "")
  foreach(src IN LISTS kernel_sources)
    get_filename_component(name ${src} NAME_WE)
    set(image ${dir}/${name}.cubin)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
    # "Building ... exercises/..." is how the grader tells that a student's file was compiled
    # (its warnings are then in the output: grader/driver/build.cpp).
    add_custom_command(
      OUTPUT ${image}
      COMMAND ${CMAKE_CUDA_COMPILER} ${flags} -I${PROJECT_SOURCE_DIR}/lessons/${id} -x cu -cubin
              ${src} -o ${image} -MD -MF ${image}.d -MT ${image}
      DEPENDS ${src}
      DEPFILE ${image}.d
      COMMENT "Building CUDA device image of ${rel}"
      VERBATIM)
    list(APPEND images ${image})
    list(APPEND shown ${rel})
  endforeach()
  add_custom_command(
    OUTPUT ${dir}/kernels.txt
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} "-DSTUBS=$<TARGET_OBJECTS:lesson_${id}_host_stubs>"
            "-DIMAGES=${images}" "-DSOURCES=${shown}" -DOUT=${dir}/kernels.txt
            -P ${COURSE_DEVICE_IMAGE_CHECK}
    DEPENDS ${images} $<TARGET_OBJECTS:lesson_${id}_host_stubs> lesson_${id}_host_stubs
            ${COURSE_DEVICE_IMAGE_CHECK}
    VERBATIM)
  add_custom_target(${target}_image DEPENDS ${dir}/kernels.txt)
  # The host stubs first, and with them the shipped stub's copies (the stub variant's sources).
  add_dependencies(${target}_image lesson_${id}_host_stubs)
  set_property(GLOBAL PROPERTY COURSE_DEVICE_IMAGE_FILES_${target} ${images})
endfunction()

# Makes executable `target` load the images of the targets `image_targets` (each made by
# course_add_device_images()): a generated file with the paths that
# grader/harness/src/device_image.cpp reads, the link options that wrap the runtime's calls, and
# the build order (the images before the executable runs; an image's change relinks nothing).
function(course_link_device_images target image_targets)
  set(images "")
  set(lists "")
  foreach(t IN LISTS image_targets)
    get_property(files GLOBAL PROPERTY COURSE_DEVICE_IMAGE_FILES_${t})
    list(APPEND images ${files})
    list(APPEND lists ${CMAKE_BINARY_DIR}/device-images/${t}/kernels.txt)
    add_dependencies(${target} ${t}_image)
  endforeach()
  # C arrays of the paths, each ending with nullptr.
  list(TRANSFORM images REPLACE "(.+)" "\"\\1\", ")
  list(TRANSFORM lists REPLACE "(.+)" "\"\\1\", ")
  list(JOIN images "" image_text)
  list(JOIN lists "" list_text)
  set(file ${CMAKE_BINARY_DIR}/device-images/${target}/images.cpp)
  get_property(arch GLOBAL PROPERTY COURSE_DEVICE_IMAGE_ARCH)
  get_property(options GLOBAL PROPERTY COURSE_DEVICE_IMAGE_LINK_OPTIONS)
  file(CONFIGURE OUTPUT ${file} CONTENT "// Generated by cmake/CourseDeviceImage.cmake: do not edit.
// The device images ${target} loads and the kernels they replace (device_image.cpp).
extern \"C\" const char* const course_device_images[] = {@image_text@nullptr};
extern \"C\" const char* const course_device_image_kernels[] = {@list_text@nullptr};
extern \"C\" const char course_device_image_architecture[] = \"@arch@\";
" @ONLY)
  target_sources(${target} PRIVATE ${file})
  target_link_options(${target} PRIVATE ${options})
endfunction()

# CPU test build.device_image_same_code: the stub variant's images of 07 and 11 hold the machine
# code of their host stubs' objects, compiled by CMake's own rule, and every executable that loads
# images is linked with the wrapped runtime calls (tools/check_device_image.py). Needs the test
# configuration's stub variants (COURSE_DEV_TARGETS); skipped when there are no images.
function(course_add_device_image_test)
  if(NOT COURSE_DEV_TARGETS)
    return()
  endif()
  find_package(Python3 COMPONENTS Interpreter)
  if(NOT Python3_FOUND)
    return()
  endif()
  add_test(NAME build.device_image_same_code
           COMMAND ${CMAKE_COMMAND} -E env NM=${CMAKE_NM} ${Python3_EXECUTABLE}
                   ${PROJECT_SOURCE_DIR}/tools/check_device_image.py ${CMAKE_BINARY_DIR})
  set_tests_properties(build.device_image_same_code PROPERTIES
                       SKIP_REGULAR_EXPRESSION "${COURSE_SKIP_MARK}" TIMEOUT 300)
endfunction()

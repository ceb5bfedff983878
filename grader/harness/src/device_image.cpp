// Kernels from a device image, for lessons whose student files hold only device code
// (cmake/CourseDeviceImage.cmake). Such a lesson's hidden-test binary is linked once with host
// stubs compiled from the stub as shipped; the student's file is compiled device-only into a cubin
// (nvcc -cubin: no host pass) that this file loads at run time, so an edit costs the device
// compile alone and no link. Every runtime call that takes a kernel's host function is wrapped at
// link time (GNU ld --wrap, the options the CMake module adds) and given instead the kernel of
// the same name in the image, as a cudaKernel_t: the CUDA Runtime API accepts a cudaKernel_t
// wherever it takes a `const void* func` for these calls (cuda_runtime_api.h, "note_cudaKernel_t"
// on each). Launches with <<<...>>> go through the stub's one-time __cudaGetKernel (nvcc 13's
// crt/host_runtime.h) or, with older toolkits, cudaLaunchKernel.
//
// Only the kernels the shipped stub defines are redirected (the image's kernels.txt, written by
// cmake/device_image_check.cmake, which also fails the build when one is missing or defined twice,
// as the linker would): a kernel of the course's or the harness's own code is never replaced by
// one of the student's with the same name. Linked only into binaries built that way: nothing
// else references the __wrap_ functions, so the archive leaves this file out elsewhere.
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

/// The binary's device images (cubins) and the lists of the kernels they must replace
/// (kernels.txt), absolute paths ending with nullptr, and the architecture they were built for
/// ("90"): defined by the file cmake/CourseDeviceImage.cmake generates for each such binary.
extern "C" const char* const course_device_images[];
extern "C" const char* const course_device_image_kernels[];
extern "C" const char course_device_image_architecture[];

namespace {

struct Images {
  std::mutex mutex;
  bool loaded = false;
  cudaError_t load_error = cudaSuccess;  // the images could not be loaded, or lack a kernel
  bool no_list = false;                  // kernels.txt unreadable: nothing can be trusted
  std::string problem;                   // what went wrong, for the student, when load_error is set
  std::set<std::string> wanted;          // the shipped stub's kernels (mangled names)
  std::unordered_map<std::string, cudaKernel_t> kernels;     // the shipped stub's, by name
  std::unordered_map<const void*, const void*> by_function;  // host function -> kernel handle
};

// COURSE_DEVICE_IMAGE_TRACE=1 prints every image loaded and every kernel looked up, on stderr.
template <typename... Args>
void trace(const char* format, Args... args) {
  static const bool on = std::getenv("COURSE_DEVICE_IMAGE_TRACE") != nullptr;
  if (!on) return;
  std::fprintf(stderr, "device image: ");
  std::fprintf(stderr, format, args...);
  std::fprintf(stderr, "\n");
}

Images& images() {
  static Images i;
  return i;
}

// Records why the images cannot be used: every call that would replace a kernel returns `err`,
// and the message goes to stderr (and, for another GPU's image, through
// course_device_image_problem() to the grader's report).
void fail(Images& im, cudaError_t err, std::string message) {
  im.load_error = err;
  im.problem = std::move(message);
  std::fprintf(stderr, "course harness: %s\n", im.problem.c_str());
}

// Loads every image once (under the lock) and keeps the kernels the shipped stub defines, by
// name. A failure (an image that cannot be loaded, or lacks one of those kernels) is reported
// once, on stderr, and every call that would replace a kernel then returns its error: the stub's
// empty kernels never run in place of the student's, while the harness's own kernels still run.
// An image for another GPU also stops the grade before its tests (main.cpp).
// Normal operation makes no call that fails, so the runtime's last error (which lessons check
// after a launch) is left alone.
void load(Images& im) {
  if (im.loaded) return;
  im.loaded = true;
  for (const char* const* path = course_device_image_kernels; *path != nullptr; ++path) {
    std::ifstream list(*path);
    if (!list) {
      fail(im, cudaErrorFileNotFound,
           fmt::format("cannot read {}, the list of the kernels your device image replaces: "
                       "build the lesson again (the grader builds it before every grade)",
                       *path));
      im.no_list = true;
      return;
    }
    for (std::string name; std::getline(list, name);)
      if (!name.empty()) im.wanted.insert(name);
  }
  for (const char* const* path = course_device_images; *path != nullptr; ++path) {
    cudaLibrary_t lib = nullptr;
    cudaError_t err =
        cudaLibraryLoadFromFile(&lib, *path, nullptr, nullptr, 0, nullptr, nullptr, 0);
    unsigned count = 0;
    if (err == cudaSuccess) err = cudaLibraryGetKernelCount(&count, lib);
    std::vector<cudaKernel_t> all(count);
    if (err == cudaSuccess && count > 0) err = cudaLibraryEnumerateKernels(all.data(), count, lib);
    for (unsigned k = 0; err == cudaSuccess && k < count; ++k) {
      const char* name = nullptr;
      err = cudaFuncGetName(&name, reinterpret_cast<const void*>(all[k]));
      // The runtime names a kernel by its mangled name, as nm wrote it into kernels.txt (the
      // trace on the H200: docs/measured/H200.md, twenty-third session).
      const bool wanted = err == cudaSuccess && name != nullptr && im.wanted.count(name) > 0;
      if (wanted) im.kernels[name] = all[k];
      trace("%s: %s%s", *path, name ? name : "?",
            wanted ? "" : " (not replaced: the stub has no such kernel)");
    }
    if (err != cudaSuccess) {
      fail(im, err,
           fmt::format("cannot load your kernels' device image {}: {} ({}). Build the lesson "
                       "again",
                       *path, cudaGetErrorName(err), cudaGetErrorString(err)));
      return;
    }
  }
  // An image without a kernel the build's check found in it was made for another architecture:
  // the runtime loads a cubin of another GPU generation without an error and lists no kernel.
  for (const std::string& name : im.wanted) {
    if (im.kernels.count(name) > 0) continue;
    int device = 0, major = 0, minor = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    const std::string gpu = fmt::format("{}{}", major, minor);
    fail(im, cudaErrorNoKernelImageForDevice,
         gpu == course_device_image_architecture
             ? fmt::format("your kernels' device image has no kernel {} for this GPU (sm_{}), "
                           "though this build folder compiles its images for sm_{}: build the "
                           "lesson again",
                           name, gpu, course_device_image_architecture)
             : fmt::format("your kernels' device image has no kernel {} for this GPU: this "
                           "build folder compiles device images for sm_{} only "
                           "(CMAKE_CUDA_ARCHITECTURES), and this GPU is sm_{}. Configure the "
                           "build folder for this GPU (the `native` preset, or "
                           "-DCMAKE_CUDA_ARCHITECTURES={}), or build without device images "
                           "(-DCOURSE_DEVICE_IMAGES=OFF)",
                           name, course_device_image_architecture, gpu, gpu));
    return;
  }
}

// Set while this thread holds the images' lock: a runtime call made from here that reached a
// wrapper again (inside the CUDA runtime's own archive a call may be wrapped too) passes through
// unchanged instead of taking the lock twice.
thread_local bool inside = false;
struct Inside {
  Inside() { inside = true; }
  ~Inside() { inside = false; }
};

// The kernel handle that replaces host function `func`, `func` itself when it is not one of the
// shipped stub's kernels, or nullptr with `err` set when it is one and the images failed to load.
const void* redirect(const void* func, cudaError_t& err) {
  err = cudaSuccess;
  if (func == nullptr || inside) return func;
  const Inside here;
  Images& im = images();
  const std::lock_guard<std::mutex> lock(im.mutex);
  if (const auto hit = im.by_function.find(func); hit != im.by_function.end()) return hit->second;
  load(im);
  if (im.no_list) {  // which kernels are the student's is not known: none may run
    err = im.load_error;
    return nullptr;
  }
  // The name of the kernel the runtime registered for `func` (its handle's name, mangled, as the
  // image's symbols have it). A pointer that is no kernel fails here and in the real call alike:
  // it is passed on unchanged.
  cudaKernel_t registered = nullptr;
  const char* name = nullptr;
  if (cudaGetKernel(&registered, func) != cudaSuccess ||
      cudaFuncGetName(&name, reinterpret_cast<const void*>(registered)) != cudaSuccess ||
      name == nullptr) {
    trace("not a kernel: %p", func);
    return func;
  }
  if (im.load_error != cudaSuccess && im.wanted.count(name) > 0) {
    err = im.load_error;  // the student's kernel is not there: the stub's must not run instead
    return nullptr;
  }
  const auto kernel = im.kernels.find(name);
  const void* to =
      kernel == im.kernels.end() ? func : reinterpret_cast<const void*>(kernel->second);
  trace("%s %s", to == func ? "kept" : "replaced", name);
  im.by_function.emplace(func, to);
  return to;
}

}  // namespace

// Loads the images now and returns why they cannot run on this GPU (an image for another
// architecture), or nullptr. main() asks before any test, so that the grade stops with the reason
// and the fix instead of failing every test with the runtime's bare error. Other failures (an
// image that does not load) are left to the tests, which fail with them as before. Declared weak
// in main.cpp: binaries without images lack it.
extern "C" const char* course_device_image_problem() {
  if (inside) return nullptr;
  const Inside here;
  Images& im = images();
  const std::lock_guard<std::mutex> lock(im.mutex);
  load(im);
  return im.load_error == cudaErrorNoKernelImageForDevice ? im.problem.c_str() : nullptr;
}

// Each wrapper: the same call with the image's kernel in place of the stub's.
#define COURSE_REDIRECT(func)             \
  cudaError_t redirect_err = cudaSuccess; \
  func = redirect(func, redirect_err);    \
  if (redirect_err != cudaSuccess) return redirect_err

extern "C" {

#ifdef COURSE_WRAP_CUDA_GET_KERNEL
cudaError_t __real___cudaGetKernel(cudaKernel_t* kernel, const void* func);
cudaError_t __wrap___cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  const void* original = func;
  COURSE_REDIRECT(func);
  if (func != original) {
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
    return cudaSuccess;
  }
  return __real___cudaGetKernel(kernel, func);
}
#endif

cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __wrap_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                    size_t shared, cudaStream_t stream) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchKernel(func, grid, block, args, shared, stream);
}

cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**);
cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                       void** args) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchKernelExC(config, func, args);
}

cudaError_t __real_cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t,
                                               cudaStream_t);
cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               size_t shared, cudaStream_t stream) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

// The same three launches as compiled with --default-stream per-thread.
cudaError_t __real_cudaLaunchKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __wrap_cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args,
                                         size_t shared, cudaStream_t stream) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchKernel_ptsz(func, grid, block, args, shared, stream);
}

cudaError_t __real_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t*, const void*, void**);
cudaError_t __wrap_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func,
                                            void** args) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchKernelExC_ptsz(config, func, args);
}

cudaError_t __real_cudaLaunchCooperativeKernel_ptsz(const void*, dim3, dim3, void**, size_t,
                                                    cudaStream_t);
cudaError_t __wrap_cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block,
                                                    void** args, size_t shared,
                                                    cudaStream_t stream) {
  COURSE_REDIRECT(func);
  return __real_cudaLaunchCooperativeKernel_ptsz(func, grid, block, args, shared, stream);
}

cudaError_t __real_cudaFuncGetParamInfo(const void*, size_t, size_t*, size_t*);
cudaError_t __wrap_cudaFuncGetParamInfo(const void* func, size_t index, size_t* offset,
                                        size_t* size) {
  COURSE_REDIRECT(func);
  return __real_cudaFuncGetParamInfo(func, index, offset, size);
}

cudaError_t __real_cudaOccupancyMaxPotentialClusterSize(int*, const void*,
                                                        const cudaLaunchConfig_t*);
cudaError_t __wrap_cudaOccupancyMaxPotentialClusterSize(int* size, const void* func,
                                                        const cudaLaunchConfig_t* config) {
  COURSE_REDIRECT(func);
  return __real_cudaOccupancyMaxPotentialClusterSize(size, func, config);
}

cudaError_t __real_cudaOccupancyMaxActiveClusters(int*, const void*, const cudaLaunchConfig_t*);
cudaError_t __wrap_cudaOccupancyMaxActiveClusters(int* clusters, const void* func,
                                                  const cudaLaunchConfig_t* config) {
  COURSE_REDIRECT(func);
  return __real_cudaOccupancyMaxActiveClusters(clusters, func, config);
}

cudaError_t __real_cudaFuncGetAttributes(cudaFuncAttributes*, const void*);
cudaError_t __wrap_cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  COURSE_REDIRECT(func);
  return __real_cudaFuncGetAttributes(attr, func);
}

cudaError_t __real_cudaFuncSetAttribute(const void*, cudaFuncAttribute, int);
cudaError_t __wrap_cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  COURSE_REDIRECT(func);
  return __real_cudaFuncSetAttribute(func, attr, value);
}

cudaError_t __real_cudaOccupancyMaxActiveBlocksPerMultiprocessor(int*, const void*, int, size_t);
cudaError_t __wrap_cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                                 int block_size, size_t smem) {
  COURSE_REDIRECT(func);
  return __real_cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, smem);
}

cudaError_t __real_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int*, const void*, int,
                                                                          size_t, unsigned int);
cudaError_t __wrap_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* blocks, const void* func, int block_size, size_t smem, unsigned int flags) {
  COURSE_REDIRECT(func);
  return __real_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size,
                                                                       smem, flags);
}

cudaError_t __real_cudaOccupancyAvailableDynamicSMemPerBlock(size_t*, const void*, int, int);
cudaError_t __wrap_cudaOccupancyAvailableDynamicSMemPerBlock(size_t* smem, const void* func,
                                                             int blocks, int block_size) {
  COURSE_REDIRECT(func);
  return __real_cudaOccupancyAvailableDynamicSMemPerBlock(smem, func, blocks, block_size);
}

}  // extern "C"

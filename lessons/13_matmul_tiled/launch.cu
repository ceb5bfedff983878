// The course-owned launches of lesson 13_matmul_tiled: the geometry of each step (grids sized with
// the student's blocks_for) and the ceiling, cublasSgemm with its FP32 math mode pinned.
#include <cublas_v2.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "matmul.cuh"

namespace matmul_tiled {

namespace {

// 1 <= M, N, K and every matrix below 2^31 elements (the kernels index with int).
bool sizes_ok(int M, int N, int K) {
  const long long limit = 1LL << 31;
  return M >= 1 && N >= 1 && K >= 1 && static_cast<long long>(M) * K < limit &&
         static_cast<long long>(K) * N < limit && static_cast<long long>(M) * N < limit;
}

// A grid of blocks_for(N, per_x) x blocks_for(M, per_y); a count below 1 is the launch's error to
// report (cudaErrorInvalidConfiguration), as a student's blocks_for may give one.
dim3 grid_for(int M, int N, int per_x, int per_y) {
  return dim3(static_cast<unsigned>(blocks_for(N, per_x)),
              static_cast<unsigned>(blocks_for(M, per_y)));
}

std::string& last_error() {
  static std::string text;
  return text;
}

const char* status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    default:
      return "a cuBLAS error";
  }
}

const char* mode_name(cublasMath_t m) {
  switch (static_cast<int>(m)) {
    case CUBLAS_DEFAULT_MATH:
      return "CUBLAS_DEFAULT_MATH";
    case CUBLAS_PEDANTIC_MATH:
      return "CUBLAS_PEDANTIC_MATH";
    case CUBLAS_TF32_TENSOR_OP_MATH:
      return "CUBLAS_TF32_TENSOR_OP_MATH";
    case CUBLAS_FP32_EMULATED_BF16X9_MATH:
      return "CUBLAS_FP32_EMULATED_BF16X9_MATH";
    default:
      return "another cublasMath_t";
  }
}

cublasMath_t wanted(CublasMath math) {
  return math == CublasMath::fp32_pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH;
}

// An environment that would let cuBLAS leave FP32 behind in default math: the TF32 override
// (only "0", which turns TF32 off, is harmless) and FP32 emulation with BF16x9.
const char* environment_asks_for_lower_precision() {
  if (const char* v = std::getenv("NVIDIA_TF32_OVERRIDE"); v != nullptr && std::strcmp(v, "0") != 0)
    return "NVIDIA_TF32_OVERRIDE is set (only 0 is allowed here)";
  if (std::getenv("CUBLAS_EMULATE_SINGLE_PRECISION") != nullptr)
    return "CUBLAS_EMULATE_SINGLE_PRECISION is set";
  return nullptr;
}

// One handle per math mode, created on first use and kept for the process (one device per
// process: the grader's tests run on the current device only).
cublasStatus_t handle_for(CublasMath math, cublasHandle_t* out) {
  static cublasHandle_t handles[2] = {nullptr, nullptr};
  cublasHandle_t& h = handles[math == CublasMath::fp32_pedantic ? 1 : 0];
  if (h == nullptr) {
    if (cublasStatus_t s = cublasCreate(&h); s != CUBLAS_STATUS_SUCCESS) {
      h = nullptr;
      return s;
    }
    if (cublasStatus_t s = cublasSetMathMode(h, wanted(math)); s != CUBLAS_STATUS_SUCCESS) return s;
  }
  *out = h;
  return CUBLAS_STATUS_SUCCESS;
}

cudaError_t fail(const std::string& why, cudaError_t err) {
  last_error() = why;
  return err;
}

}  // namespace

cudaError_t launch_naive(const float* A, const float* B, float* C, int M, int N, int K,
                         cudaStream_t stream) {
  if (!sizes_ok(M, N, K)) return cudaErrorInvalidValue;
  sgemm_naive<<<grid_for(M, N, NAIVE_BLOCK_X, NAIVE_BLOCK_Y), dim3(NAIVE_BLOCK_X, NAIVE_BLOCK_Y), 0,
                stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

cudaError_t launch_shared_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                                cudaStream_t stream) {
  if (!sizes_ok(M, N, K)) return cudaErrorInvalidValue;
  sgemm_shared_tiles<<<grid_for(M, N, TILE, TILE), dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

cudaError_t launch_register_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                                  cudaStream_t stream) {
  if (!sizes_ok(M, N, K)) return cudaErrorInvalidValue;
  sgemm_register_tiles<<<grid_for(M, N, REG_BN, REG_BM), dim3(REG_BN / REG_TN, REG_BM / REG_TM), 0,
                         stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

cudaError_t launch_warp_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                              cudaStream_t stream) {
  if (!sizes_ok(M, N, K)) return cudaErrorInvalidValue;
  sgemm_warp_tiles<<<grid_for(M, N, WARP_BN, WARP_BM), WARP_THREADS, 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

cudaError_t launch_cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K,
                                cudaStream_t stream, CublasMath math) {
  if (!sizes_ok(M, N, K)) return cudaErrorInvalidValue;
  if (const char* why = environment_asks_for_lower_precision())
    return fail(std::string("cuBLAS ceiling refused: ") + why, cudaErrorNotSupported);
  cublasHandle_t h = nullptr;
  if (cublasStatus_t s = handle_for(math, &h); s != CUBLAS_STATUS_SUCCESS)
    return fail(std::string("cublasCreate/cublasSetMathMode: ") + status_name(s), cudaErrorUnknown);
  cublasMath_t mode = CUBLAS_TF32_TENSOR_OP_MATH;
  if (cublasStatus_t s = cublasGetMathMode(h, &mode); s != CUBLAS_STATUS_SUCCESS)
    return fail(std::string("cublasGetMathMode: ") + status_name(s), cudaErrorUnknown);
  if (mode != wanted(math))
    return fail(std::string("cuBLAS ceiling refused: the handle's math mode reads back as ") +
                    mode_name(mode) + ", not " + mode_name(wanted(math)),
                cudaErrorNotSupported);
  if (cublasStatus_t s = cublasSetStream(h, stream); s != CUBLAS_STATUS_SUCCESS)
    return fail(std::string("cublasSetStream: ") + status_name(s), cudaErrorUnknown);
  // Row-major C = A B is column-major C^T = B^T A^T: B (N x K column-major, leading dimension N)
  // times A (K x M column-major, leading dimension K) into C (N x M, leading dimension N).
  const float one = 1.0f, zero = 0.0f;
  if (cublasStatus_t s =
          cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
      s != CUBLAS_STATUS_SUCCESS)
    return fail(std::string("cublasSgemm: ") + status_name(s), cudaErrorUnknown);
  last_error().clear();
  return cudaGetLastError();
}

const char* cublas_error_text() {
  return last_error().c_str();
}

const char* cublas_math_mode_name(CublasMath math) {
  static std::string names[2];
  std::string& name = names[math == CublasMath::fp32_pedantic ? 1 : 0];
  cublasHandle_t h = nullptr;
  cublasMath_t mode = CUBLAS_TF32_TENSOR_OP_MATH;
  if (cublasStatus_t s = handle_for(math, &h); s != CUBLAS_STATUS_SUCCESS) {
    name = std::string("unavailable: ") + status_name(s);
  } else if (cublasStatus_t s = cublasGetMathMode(h, &mode); s != CUBLAS_STATUS_SUCCESS) {
    name = std::string("unavailable: ") + status_name(s);
  } else {
    const char* env = environment_asks_for_lower_precision();
    name = std::string(mode_name(mode)) +
           (mode == wanted(math) && env == nullptr ? " (FP32, TF32 off)" : " (refused)");
  }
  return name.c_str();
}

}  // namespace matmul_tiled

// The harness's words for CUDA errors (no GPU needed: likely_cause() only reads the error code).
#include <gtest/gtest.h>

#include <string>

#include "harness/cuda_check.hpp"

namespace {

bool says(cudaError_t err, const std::string& words) {
  return harness::likely_cause(err).find(words) != std::string::npos;
}

// A __trap() or a failed assert() reached students as a bare "unspecified launch failure".
TEST(LikelyCause, LaunchFailureNamesTrapAssertAndMemcheck) {
  EXPECT_TRUE(says(cudaErrorLaunchFailure, "__trap()"))
      << harness::likely_cause(cudaErrorLaunchFailure);
  EXPECT_TRUE(says(cudaErrorLaunchFailure, "assert()"));
  EXPECT_TRUE(says(cudaErrorLaunchFailure, "memcheck"));
  EXPECT_TRUE(says(cudaErrorLaunchFailure, "invalid device pointer"));  // what CUDA documents
}

TEST(LikelyCause, AssertSaysWhereItsMessageIs) {
  EXPECT_TRUE(says(cudaErrorAssert, "assert()"));
  EXPECT_TRUE(says(cudaErrorAssert, "file, line")) << harness::likely_cause(cudaErrorAssert);
}

TEST(LikelyCause, EveryStickyKernelFaultHasOne) {
  for (const cudaError_t err : {cudaErrorIllegalAddress, cudaErrorMisalignedAddress,
                                cudaErrorLaunchFailure, cudaErrorAssert})
    EXPECT_FALSE(harness::likely_cause(err).empty()) << cudaGetErrorName(err);
}

}  // namespace

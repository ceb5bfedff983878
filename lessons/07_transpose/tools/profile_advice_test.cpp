// This lesson's profile advice: one strided side is the naive transpose (stage a tile), bank
// conflicts behind coalesced global accesses are the unpadded tile (pad it); anything else gets
// the generic advice.
#include <gtest/gtest.h>

#include "course/profile.hpp"
#include "kernel_metrics_fixture.hpp"

namespace {

using course::profile::verdict_line;
using test_fixture::metrics;

TEST(TransposeAdvice, OneStridedSideStagesATile) {
  const std::string naive = verdict_line(metrics(92, 20, 4, 32, 0, 0), "07_transpose");
  EXPECT_NE(naive.find("stores take 32.0 sectors per request"), std::string::npos) << naive;
  EXPECT_NE(naive.find("the next experiment would be to stage a tile in shared memory so that "
                       "both the loads and the stores are coalesced."),
            std::string::npos)
      << naive;
}

TEST(TransposeAdvice, BankConflictsPadTheTile) {
  const std::string unpadded = verdict_line(metrics(55, 40, 4, 4, 31000, 1000), "07_transpose");
  EXPECT_NE(unpadded.find("latency-bound"), std::string::npos) << unpadded;
  EXPECT_NE(unpadded.find("31.0 extra wavefronts per load"), std::string::npos) << unpadded;
  EXPECT_NE(unpadded.find("pad the shared tile by one column ([32][33])"), std::string::npos)
      << unpadded;
}

TEST(TransposeAdvice, OtherwiseTheGenericAdvice) {
  for (const auto& m : {metrics(78, 10, 24, 24, 0, 0), metrics(90, 30, 4, 4, 10, 1000)})
    EXPECT_EQ(verdict_line(m, "07_transpose"), verdict_line(m, "99_no_such_lesson"));
}

}  // namespace

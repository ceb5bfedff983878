// The pristine host copy of a drawn buffer (harness/lesson.hpp, BufferBase::ensure_host): host()
// is called for every element from harness::parallel_for's threads, so the copy left for later
// must be drawn once, by one thread, and seen whole by all of them; a draw that throws leaves it
// to the next call.
#include "harness/lesson.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Only what ensure_host() touches: the drawing function and the flag.
struct HostOnly : harness::detail::BufferBase {
  std::vector<int> initial;
  std::size_t size() const override { return initial.size(); }
  void* device() override { return nullptr; }
  std::size_t element_bytes() const override { return sizeof(int); }
  void before_launch() override {}
  std::vector<std::string> end_problems() const override { return {}; }
  void keep_drawn_values() override {}
  void prepare_timed(std::uint64_t, cudaStream_t) override {}
  void snapshot(void*, bool, cudaStream_t) const override {}
  void restore(const void*, bool) override {}
};

TEST(HostCopy, ManyThreadsAskingDrawItOnce) {
  HostOnly b;
  std::atomic<int> draws{0};
  b.draw_on_host = [&](std::uint64_t seed) {
    ++draws;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the others arrive meanwhile
    b.initial.assign(1000, static_cast<int>(seed));
  };
  b.seed = 7;
  b.host_ready = false;
  std::atomic<int> saw_whole{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      b.ensure_host();
      if (b.initial.size() == 1000 && b.initial.back() == 7) ++saw_whole;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(draws.load(), 1);
  EXPECT_EQ(saw_whole.load(), 8);
}

TEST(HostCopy, ADrawThatThrowsIsTriedAgain) {
  HostOnly b;
  int calls = 0;
  b.draw_on_host = [&](std::uint64_t) {
    if (++calls == 1) throw std::runtime_error("no memory");
    b.initial.assign(3, 1);
  };
  b.host_ready = false;
  EXPECT_THROW(b.ensure_host(), std::runtime_error);
  b.ensure_host();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(b.initial.size(), 3u);
  b.ensure_host();  // ready: no draw
  EXPECT_EQ(calls, 2);
}

TEST(HostCopy, NoneUnderKeepOnDevice) {
  HostOnly b;
  b.name = "x";
  b.device_only = true;
  EXPECT_THROW(b.ensure_host(), std::logic_error);
}

}  // namespace

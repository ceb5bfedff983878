/// @file sectors_quiz.hpp
/// @brief The `sectors` quiz kind (registered from sectors_quiz.cpp): a question on one warp load
/// `a[offset + i*stride]` whose parameters are drawn per attempt and whose answer the coalescing
/// simulator (sim.hpp) computes.
///
/// ```json
/// { "id": "stride-sectors", "kind": "sectors", "prompt": "... lane i reads {expr} ...",
///   "params": { "stride": [1, 2, 4, 8], "width": [4, 8] }, "ask": "sectors", "explain": "..." }
/// ```
///
/// `params` gives the values each parameter is drawn from: `stride`, `offset`, `width`, `lanes`
/// (defaults [1], [0], [4], [32]); `ask` names the quantity: `sectors`, `lines`, `bytes_moved`,
/// `bytes_used` or `efficiency_percent`; optional `tolerance` (default 0, and 0.1 for
/// efficiency_percent). The answer is never written in the file. `prompt` and `explain` may use
/// the placeholders {stride}, {offset}, {width}, {lanes}, {type} (the C type of that width: char,
/// __half, float, double, float4), {expr} (the load, e.g. "a[3 + i*8]"), {distance} (stride *
/// width bytes between neighbouring lanes) and {offset_bytes}; write "{{" and "}}" for literal
/// braces. A parameter with more than one value must appear in the prompt ({expr} shows stride
/// and offset, {type} shows the width). Every combination of the listed values must be one the
/// simulator accepts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "course/quiz.hpp"
#include "sim.hpp"

namespace coalescing {

/// The `sectors` quiz kind.
namespace sectors_quiz {

/// The quantity a `sectors` question asks for (fields of sim::Result).
enum class Quantity {
  sectors,            ///< distinct 32-byte sectors the warp request touches
  lines,              ///< distinct 128-byte lines it touches
  bytes_moved,        ///< 32 B per sector
  bytes_used,         ///< distinct bytes the lanes asked for
  efficiency_percent  ///< bytes_used / bytes_moved, in percent
};

/// "sectors", "lines", "bytes_moved", "bytes_used", "efficiency_percent".
std::string to_string(Quantity q);

/// The value of `q` in a simulator result (efficiency in percent, 0..100).
double quantity_value(const sim::Result& r, Quantity q);

/// The values a `sectors` question draws its parameters from.
struct Params {
  std::vector<long long> stride{1};  ///< elements between neighbouring lanes
  std::vector<long long> offset{0};  ///< element lane 0 reads, from a 128-byte aligned base
  std::vector<int> width{4};         ///< element width in bytes: 1, 2, 4, 8 or 16
  std::vector<int> lanes{32};        ///< active lanes, 1..32
};

/// A parsed `sectors` question: draws a load and answers it with the simulator.
class SectorsQuestion : public course::quiz::QuestionGenerator {
 public:
  std::string prompt;                ///< the template, as written
  std::string explain;               ///< the template, as written
  Params params;                     ///< values drawn from
  Quantity ask = Quantity::sectors;  ///< the quantity asked for
  double tolerance = 0;              ///< accepted distance from the simulator's answer

  /// The load drawn for `seed`: each parameter picked uniformly from its list, in the order
  /// stride, offset, width, lanes, with course::quiz::Random.
  sim::Access access_for(std::uint64_t seed) const;
  /// The question for the load access_for(seed): templates filled, the answer simulated, the
  /// sector model's working and its drawing.
  course::quiz::DrawnQuestion draw(std::uint64_t seed) const override;
};

/// Parses and validates the kind's keys of one question (registered as kind "sectors").
/// @return the question, or nullptr when a problem was recorded on `reader`.
std::shared_ptr<const course::quiz::QuestionGenerator> parse(
    const course::quiz::QuestionReader& reader, const std::string& prompt,
    const std::string& explain);

}  // namespace sectors_quiz

}  // namespace coalescing

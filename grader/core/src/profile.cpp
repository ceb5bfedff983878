#include "course/profile.hpp"

#include "course/config.hpp"
#include "course/extensions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace course::profile {

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = {
      "gpu__time_duration.sum",
      "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
      "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "sm__maximum_warps_per_active_cycle_pct",
      "launch__registers_per_thread",
      "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "dram__bytes.sum",
      "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
      "sm__cycles_elapsed.avg.per_second",
      "dram__bytes.sum.peak_sustained",
      "dram__cycles_elapsed.avg.per_second",
  };
  return names;
}

std::string find_ncu() {
  namespace fs = std::filesystem;
  if (const char* chosen = std::getenv("GRADER_NCU"); chosen && *chosen) return chosen;
  std::error_code ec;
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && fs::is_regular_file(fs::path(dir) / "ncu", ec))
        return (fs::path(dir) / "ncu").string();
  }
  for (const fs::path& p :
       {fs::path(config::kCudaCompiler).parent_path() / "ncu", fs::path("/usr/local/cuda/bin/ncu")})
    if (p.has_parent_path() && fs::is_regular_file(p, ec)) return p.string();
  std::string newest;
  for (const fs::directory_entry& e : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
    if (fs::is_regular_file(e.path() / "ncu", ec) && (e.path() / "ncu").string() > newest)
      newest = (e.path() / "ncu").string();
  return newest;
}

namespace {
// What every run of Nsight Compute by the course asks: clocks as found, the chosen kernels, our
// metrics.
std::vector<std::string> ncu_common_args(const std::string& kernels_regex) {
  std::string metrics;
  for (const std::string& m : metric_names()) metrics += (metrics.empty() ? "" : ",") + m;
  return {"--clock-control",        "none",      "--kernel-name",
          "regex:" + kernels_regex, "--metrics", metrics};
}
}  // namespace

std::vector<std::string> ncu_profile_args(const std::string& kernels_regex,
                                          const std::string& report) {
  std::vector<std::string> args = ncu_common_args(kernels_regex);
  args.insert(args.end(), {"--export", report, "--force-overwrite"});
  return args;
}

std::vector<std::string> ncu_csv_args(const std::string& kernels_regex,
                                      const std::string& csv_file) {
  std::vector<std::string> args = ncu_common_args(kernels_regex);
  args.insert(args.end(), {"--csv", "--page", "details", "--log-file", csv_file});
  return args;
}

std::vector<std::string> ncu_import_args(const std::string& report) {
  return {"--import", report + ".ncu-rep", "--csv", "--page", "details"};
}

double KernelMetrics::ld_sectors_per_request() const {
  return ld_requests > 0 ? ld_sectors / ld_requests : -1;
}
double KernelMetrics::st_sectors_per_request() const {
  return st_requests > 0 ? st_sectors / st_requests : -1;
}
double KernelMetrics::peak_dram_bytes_per_second() const {
  return peak_dram_bytes_per_cycle > 0 && dram_cycles_per_second > 0
             ? peak_dram_bytes_per_cycle * dram_cycles_per_second
             : -1;
}
double KernelMetrics::fp32_flops() const {
  if (fadd < 0 && fmul < 0 && ffma < 0) return -1;
  return std::max(0.0, fadd) + std::max(0.0, fmul) + 2 * std::max(0.0, ffma);
}

double Roofline::roof() const {
  return std::min(peak_flops_per_second, intensity * peak_dram_bytes_per_second);
}

bool roofline(const KernelMetrics& m, Roofline& out) {
  const double flops = m.fp32_flops();
  if (flops <= 0 || m.duration_ns <= 0 || m.dram_bytes <= 0 || m.peak_ffma_per_cycle <= 0 ||
      m.sm_cycles_per_second <= 0 || m.peak_dram_bytes_per_second() <= 0)
    return false;
  out.flops_per_second = flops / (m.duration_ns * 1e-9);
  out.peak_flops_per_second = 2 * m.peak_ffma_per_cycle * m.sm_cycles_per_second;
  out.peak_dram_bytes_per_second = m.peak_dram_bytes_per_second();
  out.intensity = flops / m.dram_bytes;
  return true;
}

std::string roofline_line(const KernelMetrics& m) {
  Roofline r{};
  if (!roofline(m, r)) return "";
  const bool right = r.intensity >= r.ridge();
  return fmt::format(
      "{}: {:.1f} TFLOP/s of FP32, {:.0f}% of the FP32 peak ({:.1f} TFLOP/s at the clock it ran "
      "at); {:.1f} FLOP per byte of DRAM traffic, {} of the ridge point ({:.1f} FLOP/B): {} on the "
      "roofline, {:.0f}% of its roof.",
      m.kernel, r.flops_per_second / 1e12, 100 * r.flops_per_second / r.peak_flops_per_second,
      r.peak_flops_per_second / 1e12, r.intensity, right ? "right" : "left", r.ridge(),
      right ? "compute-bound" : "memory-bound", 100 * r.flops_per_second / r.roof());
}

namespace {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

double number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());  // "1,234" as ncu prints it
  try {
    return std::stod(s);
  } catch (...) {
    return -1;
  }
}

// A value as ncu displayed it (its units scaled for reading, `--print-units auto`: "2.51 Gbyte",
// "1.98 cycle/nsecond", "1.98 Ghz") in base units: bytes, instructions, cycles, and per second
// for rates. Other units (%, sectors, requests, "") are left as they are: sectors and requests
// only ever appear as a ratio of the two, which a common display scale would not change.
double to_base_units(double v, const std::string& unit) {
  const auto slash = unit.find('/');
  std::string num = unit.substr(0, slash);
  const std::string den = slash == std::string::npos ? "" : unit.substr(slash + 1);
  const auto prefix = [](const std::string& u, std::size_t base_len) {
    if (u.size() != base_len + 1) return 1.0;
    switch (u[0]) {
      case 'K':
      case 'k':
        return 1e3;
      case 'M':
        return 1e6;
      case 'G':
      case 'g':
        return 1e9;
      case 'T':
      case 't':
        return 1e12;
      case 'm':
        return 1e-3;
      case 'u':
        return 1e-6;
      case 'n':
        return 1e-9;
      default:
        return 1.0;
    }
  };
  for (const char* base : {"byte", "cycle", "inst", "hz", "Hz", "second"}) {
    const std::string b = base;
    if (num.size() >= b.size() && num.compare(num.size() - b.size(), b.size(), b) == 0) {
      v *= prefix(num, b.size());
      break;
    }
  }
  if (den.size() >= 6 && den.compare(den.size() - 6, 6, "second") == 0)
    v /= prefix(den, 6);  // per nsecond: x 10^9 per second
  return v;
}

// "ns::kernel_name(const float *, float *, int, int)" -> "kernel_name"
std::string short_name(const std::string& full) {
  std::string s = full.substr(0, full.find('('));
  if (const auto colons = s.rfind("::"); colons != std::string::npos) s = s.substr(colons + 2);
  if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);
  return s;
}

void set(KernelMetrics& m, const std::string& metric, double v) {
  static const std::map<std::string, double KernelMetrics::*> fields = {
      {"gpu__time_duration.sum", &KernelMetrics::duration_ns},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
       &KernelMetrics::memory_pct},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", &KernelMetrics::compute_pct},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", &KernelMetrics::ld_sectors},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", &KernelMetrics::ld_requests},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", &KernelMetrics::st_sectors},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", &KernelMetrics::st_requests},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
       &KernelMetrics::ld_bytes_used_pct},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
       &KernelMetrics::st_bytes_used_pct},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
       &KernelMetrics::bank_conflicts_ld},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
       &KernelMetrics::bank_conflicts_st},
      {"smsp__inst_executed_op_shared_ld.sum", &KernelMetrics::shared_ld_instructions},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", &KernelMetrics::occupancy_pct},
      {"sm__maximum_warps_per_active_cycle_pct", &KernelMetrics::theoretical_occupancy_pct},
      {"launch__registers_per_thread", &KernelMetrics::registers},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", &KernelMetrics::fadd},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", &KernelMetrics::fmul},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", &KernelMetrics::ffma},
      {"dram__bytes.sum", &KernelMetrics::dram_bytes},
      {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
       &KernelMetrics::peak_ffma_per_cycle},
      {"sm__cycles_elapsed.avg.per_second", &KernelMetrics::sm_cycles_per_second},
      {"dram__bytes.sum.peak_sustained", &KernelMetrics::peak_dram_bytes_per_cycle},
      {"dram__cycles_elapsed.avg.per_second", &KernelMetrics::dram_cycles_per_second},
  };
  if (auto it = fields.find(metric); it != fields.end()) m.*(it->second) = v;
}

}  // namespace

std::vector<KernelMetrics> parse_ncu_csv(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  int id_col = -1, kernel_col = -1, metric_col = -1, unit_col = -1, value_col = -1;
  while (std::getline(in, line)) {  // ncu may print ==PROF== lines before the header
    const std::vector<std::string> h = split_csv_line(line);
    for (int i = 0; i < static_cast<int>(h.size()); ++i) {
      if (h[i] == "ID") id_col = i;
      if (h[i] == "Kernel Name" || h[i] == "Function Name") kernel_col = i;
      if (h[i] == "Metric Name") metric_col = i;
      if (h[i] == "Metric Unit") unit_col = i;
      if (h[i] == "Metric Value") value_col = i;
    }
    if (kernel_col >= 0 && metric_col >= 0 && value_col >= 0) break;
    id_col = kernel_col = metric_col = unit_col = value_col = -1;
  }
  if (kernel_col < 0)
    throw std::runtime_error(
        "no Nsight Compute CSV header (Kernel Name, Metric Name, Metric Value) found");
  std::vector<KernelMetrics> out;
  std::string last_id;
  while (std::getline(in, line)) {
    const std::vector<std::string> c = split_csv_line(line);
    if (static_cast<int>(c.size()) <= std::max({kernel_col, metric_col, value_col})) continue;
    const std::string id = id_col >= 0 ? c[id_col] : c[kernel_col];
    if (out.empty() || id != last_id) {
      out.push_back(KernelMetrics{});
      out.back().kernel = short_name(c[kernel_col]);
      last_id = id;
    }
    double v = number(c[value_col]);
    // Durations are kept in ns, whatever unit ncu picked for display; other values go to base
    // units (bytes, cycles per second).
    if (unit_col >= 0 && c[metric_col] == "gpu__time_duration.sum") {
      const std::string& u = c[unit_col];
      if (u == "usecond" || u == "us")
        v *= 1e3;
      else if (u == "msecond" || u == "ms")
        v *= 1e6;
      else if (u == "second" || u == "s")
        v *= 1e9;
    } else if (unit_col >= 0) {
      v = to_base_units(v, c[unit_col]);
    }
    set(out.back(), c[metric_col], v);
  }
  return out;
}

std::string limiter(const KernelMetrics& m) {
  if (m.memory_pct >= 60 && m.memory_pct >= m.compute_pct) return "memory";
  if (m.compute_pct >= 60 && m.compute_pct > m.memory_pct) return "compute";
  return "latency";
}

namespace {
// `sectors` of `requests`, using `bytes_used_pct` of what they move, out of `all_sectors` of the
// kernel's global loads and stores.
bool strided(double sectors, double requests, double bytes_used_pct, double all_sectors) {
  if (requests <= 0 || sectors <= 0) return false;  // no such access (atomics only, say)
  if (bytes_used_pct < 0) return sectors / requests > kStridedSectorsPerRequest;
  // One lane per block storing its partial sum uses 4 bytes of a sector, but it is not how the
  // kernel moves its data: only an access that carries a real share of the sectors counts.
  return bytes_used_pct <= kStridedBytesUsedPct &&
         sectors >= kStridedShareOfSectors * std::max(all_sectors, sectors);
}

double all_sectors(const KernelMetrics& m) {
  return std::max(0.0, m.ld_sectors) + std::max(0.0, m.st_sectors);
}

// "32.0 sectors per request and use 12.5% of the bytes they move", or without the bytes-used
// metric "32.0 sectors per request (4 is ideal for floats)".
std::string strided_evidence(double sectors_per_request, double bytes_used_pct) {
  return bytes_used_pct >= 0
             ? fmt::format("{:.1f} sectors per request and use {:.1f}% of the bytes they move",
                           sectors_per_request, bytes_used_pct)
             : fmt::format("{:.1f} sectors per request (4 is ideal for floats)",
                           sectors_per_request);
}
}  // namespace

bool loads_strided(const KernelMetrics& m) {
  return strided(m.ld_sectors, m.ld_requests, m.ld_bytes_used_pct, all_sectors(m));
}

bool stores_strided(const KernelMetrics& m) {
  return strided(m.st_sectors, m.st_requests, m.st_bytes_used_pct, all_sectors(m));
}

double conflicts_per_shared_load(const KernelMetrics& m) {
  return m.shared_ld_instructions > 0 ? m.bank_conflicts_ld / m.shared_ld_instructions : 0;
}

double dram_fraction_of_peak(const KernelMetrics& m) {
  if (m.dram_bytes < 0 || m.duration_ns <= 0 || m.peak_dram_bytes_per_second() <= 0) return -1;
  return m.dram_bytes / (m.duration_ns * 1e-9) / m.peak_dram_bytes_per_second();
}

Advice generic_advice(const KernelMetrics& m) {
  const double ld = m.ld_sectors_per_request(), st = m.st_sectors_per_request();
  const double conflicts = std::max(0.0, m.bank_conflicts_ld) + std::max(0.0, m.bank_conflicts_st);
  const double per_load = conflicts_per_shared_load(m);
  if (loads_strided(m) && stores_strided(m))
    return {m.ld_bytes_used_pct >= 0 && m.st_bytes_used_pct >= 0
                ? fmt::format("its global loads take {}, and its stores {}",
                              strided_evidence(ld, m.ld_bytes_used_pct),
                              strided_evidence(st, m.st_bytes_used_pct))
                : fmt::format("its global loads take {:.1f} and its stores {:.1f} sectors per "
                              "request (4 is ideal for floats)",
                              ld, st),
            "to make neighbouring lanes touch neighbouring addresses in both the loads and the "
            "stores (another data layout, or another mapping of lanes to elements)"};
  if (loads_strided(m) || stores_strided(m)) {
    const bool stores = stores_strided(m);  // exactly one of the two is strided here
    return {fmt::format("its global {} take {}", stores ? "stores" : "loads",
                        stores ? strided_evidence(st, m.st_bytes_used_pct)
                               : strided_evidence(ld, m.ld_bytes_used_pct)),
            fmt::format("to make its {} coalesced as well: neighbouring lanes on neighbouring "
                        "addresses (remap the lanes, or stage the data on chip)",
                        stores ? "stores" : "loads")};
  }
  if (per_load > 1)
    return {fmt::format("its shared loads see {:.0f} bank conflicts, {:.1f} extra wavefronts per "
                        "load instruction, while global accesses are coalesced ({:.1f} and {:.1f} "
                        "sectors per request)",
                        conflicts, per_load, ld, st),
            "to change the shared-memory layout or access order so that the lanes of a warp hit "
            "different banks"};
  const std::string bound = limiter(m);
  if (bound == "memory") {
    const std::string coalesced = fmt::format(
        "global accesses are coalesced ({:.1f} sectors per load request, {:.1f} per store "
        "request) and {}",
        ld, st,
        m.shared_ld_instructions > 0
            ? fmt::format("shared loads see {} bank conflicts ({:.2f} extra wavefronts each)",
                          per_load < 0.1 ? "almost no" : "some", per_load)
            : std::string("there are no shared loads"));
    const double dram = dram_fraction_of_peak(m);
    if (dram >= 0 && 100 * dram < m.memory_pct - kOnChipGapPoints)
      return {fmt::format("{}, but DRAM moves only {:.0f}% of its peak bytes per second, so the "
                          "busy memory unit is on chip (L1 and shared memory, or L2)",
                          coalesced, 100 * dram),
              "to use each value brought on chip more times before it is loaded again (more of "
              "the working set held in registers per thread), so that fewer bytes pass through "
              "L1, shared memory and L2"};
    return {dram >= 0 ? fmt::format("{}; DRAM moves {:.0f}% of its peak bytes per second",
                                    coalesced, 100 * dram)
                      : coalesced,
            "none at this geometry: the memory system is the limit, so only moving fewer bytes "
            "would help (fuse it with its producer or consumer)"};
  }
  if (bound == "latency")
    return {fmt::format("achieved occupancy is {:.0f}% with coalesced accesses ({:.1f}/{:.1f} "
                        "sectors per request)",
                        m.occupancy_pct, ld, st),
            "to put more bytes in flight per thread (more elements per thread, or 16-byte vector "
            "loads)"};
  return {fmt::format("achieved occupancy is {:.0f}%", m.occupancy_pct),
          "to spend fewer instructions per byte (simpler index arithmetic, vector accesses)"};
}

std::string verdict_line(const KernelMetrics& m, const std::string& lesson) {
  const std::string sol =
      fmt::format("Memory Throughput is {:.0f}% of peak against {:.0f}% for Compute (SM)",
                  m.memory_pct, m.compute_pct);
  const Advice advice = ext::lesson_advice(lesson, m).value_or(generic_advice(m));
  return fmt::format("{} is {}-bound because {}; {}; the next experiment would be {}.", m.kernel,
                     limiter(m), sol, advice.evidence, advice.next);
}

std::string metrics_table(const std::vector<KernelMetrics>& kernels) {
  std::string s =
      "| kernel | time (µs) | Memory Throughput % | Compute (SM) % | sectors/request ld | "
      "sectors/request st "
      "| shared bank conflicts (ld+st) | achieved occupancy % |\n"
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const KernelMetrics& m : kernels)
    s += fmt::format("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.0f} | {:.1f} |\n",
                     m.kernel, m.duration_ns / 1e3, m.memory_pct, m.compute_pct,
                     m.ld_sectors_per_request(), m.st_sectors_per_request(),
                     std::max(0.0, m.bank_conflicts_ld) + std::max(0.0, m.bank_conflicts_st),
                     m.occupancy_pct);
  return s;
}

}  // namespace course::profile

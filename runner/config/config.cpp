#include "config/config.h"

#include <sched.h>
#include <strings.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace arena::config {

std::string_view to_string(TournamentType t) {
  switch (t) {
    case TournamentType::Play:
      return "play";
    case TournamentType::Gauntlet:
      return "gauntlet";
    case TournamentType::RoundRobin:
      return "roundrobin";
    case TournamentType::Sprt:
      return "sprt";
    case TournamentType::Spsa:
      return "spsa";
  }
  return "gauntlet";
}

std::string_view to_string(OpeningOrder o) { return o == OpeningOrder::Random ? "random" : "sequential"; }

std::string_view to_string(RestartPolicy p) { return p == RestartPolicy::Always ? "always" : "on-crash"; }

void merge_options(std::vector<std::pair<std::string, std::string>>& into,
                   const std::vector<std::pair<std::string, std::string>>& over) {
  for (const auto& [name, value] : over) {
    auto same = [&](const auto& o) { return strcasecmp(o.first.c_str(), name.c_str()) == 0; };
    if (auto it = std::find_if(into.begin(), into.end(), same); it != into.end())
      it->second = value;
    else
      into.emplace_back(name, value);
  }
}

EngineSettings merge(const EngineSettings& base, const EngineSettings& over) {
  EngineSettings r = base;
  if (over.name) r.name = over.name;
  if (over.cmd) r.cmd = over.cmd, r.cmd_where = over.cmd_where;
  if (over.args) r.args = over.args;
  if (over.dir) r.dir = over.dir;
  if (over.tc) r.tc = over.tc;
  if (over.ponder) r.ponder = over.ponder;
  if (over.send_inc) r.send_inc = over.send_inc;
  if (over.swap_btime_wtime) r.swap_btime_wtime = over.swap_btime_wtime;
  if (over.startup_timeout_ms) r.startup_timeout_ms = over.startup_timeout_ms;
  if (over.margin_ms) r.margin_ms = over.margin_ms;
  if (over.quit_grace_ms) r.quit_grace_ms = over.quit_grace_ms;
  if (over.stderr_log) r.stderr_log = over.stderr_log;
  if (over.io_log) r.io_log = over.io_log;
  if (over.git) r.git = over.git;
  if (over.build) r.build = over.build;
  if (over.bin) r.bin = over.bin;
  if (over.bench) r.bench = over.bench;
  if (over.bench_cmd) r.bench_cmd = over.bench_cmd;
  merge_options(r.options, over.options);
  if (r.where.empty()) r.where = over.where;
  return r;
}

std::optional<int> cpus_of_cpu_max(std::string_view text) {
  long long quota = 0, period = 0;
  if (std::sscanf(std::string(text).c_str(), "%lld %lld", &quota, &period) != 2 || quota <= 0 || period <= 0)
    return std::nullopt;  // "max 100000": no limit
  return int(std::clamp<long long>((quota + period - 1) / period, 1, 1 << 20));
}

int default_concurrency() {
  int n = int(std::thread::hardware_concurrency());
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (::sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) > 0) n = CPU_COUNT(&mask);
  // A container's CPU limit is a quota, not a mask.
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/cpu.max", "r")) {
    char text[64] = {};
    const size_t got = std::fread(text, 1, sizeof text - 1, f);
    std::fclose(f);
    if (auto cpus = cpus_of_cpu_max(std::string_view(text, got))) n = std::min(n, *cpus);
  }
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK")) {
    char* end = nullptr;
    const long cpus = std::strtol(slurm, &end, 10);
    if (end != slurm && *end == '\0' && cpus > 0 && cpus < n) n = int(cpus);
  }
  return n < 1 ? 1 : n;
}

std::string oversubscription_warning(int64_t concurrency, int hardware_threads) {
  if (concurrency <= hardware_threads) return {};
  return "concurrency " + std::to_string(concurrency) + " is more than the " + std::to_string(hardware_threads) +
         " CPUs this runner may use: engines share cores, and a stall of the overloaded machine can cost one a game on "
         "time";
}

}  // namespace arena::config

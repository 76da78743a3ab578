#include "config/config.h"

#include <strings.h>

#include <algorithm>
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
  if (over.quit_grace_ms) r.quit_grace_ms = over.quit_grace_ms;
  if (over.stderr_log) r.stderr_log = over.stderr_log;
  if (over.io_log) r.io_log = over.io_log;
  merge_options(r.options, over.options);
  if (r.where.empty()) r.where = over.where;
  return r;
}

int default_concurrency() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : int(n);
}

std::string oversubscription_warning(int64_t concurrency, int hardware_threads) {
  if (concurrency <= hardware_threads) return {};
  return "concurrency " + std::to_string(concurrency) + " is more than this machine's " +
         std::to_string(hardware_threads) +
         " hardware threads: engines share cores, and a stall of the overloaded machine can cost one a game on time";
}

}  // namespace arena::config

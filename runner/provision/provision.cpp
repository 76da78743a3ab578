#include "provision/provision.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <future>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "journal/run_identity.h"
#include "provision/bench.h"
#include "provision/git_build.h"

namespace arena::provision {

using Error = std::unexpected<std::string>;

namespace {

struct Prebuilt {
  std::string commit, sha256, binary;
  bool dirty = false;
};

std::expected<std::map<std::string, Prebuilt>, std::string> read_prebuilt(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error(path + ": cannot read the list of prebuilt engines");
  std::map<std::string, Prebuilt> out;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream s(line);
    for (std::string field; std::getline(s, field, '\t');) f.push_back(field);
    if (f.size() != 5 || (f[2] != "0" && f[2] != "1"))
      return Error(path + ":" + std::to_string(number) + ": expected NAME, COMMIT, DIRTY (0|1), SHA256, BINARY");
    out[f[0]] = Prebuilt{f[1], f[3], f[4], f[2] == "1"};
  }
  return out;
}

// Each git engine's binary from the prebuilt list, checked against its digest.
std::expected<void, std::string> use_prebuilt(config::Config& c, Findings& found) {
  auto list = read_prebuilt(c.prebuilt);
  if (!list) return Error(list.error());
  for (size_t i = 0; i < c.engines.size(); ++i) {
    if (!c.sources[i].from_git()) continue;
    const std::string& name = c.engines[i].name;
    auto it = list->find(name);
    if (it == list->end()) return Error(c.prebuilt + ": no binary for engine '" + name + "'");
    auto sha = journal::sha256_file(it->second.binary);
    if (!sha) return Error("engine '" + name + "': " + sha.error());
    if (*sha != it->second.sha256)
      return Error("engine '" + name + "': " + it->second.binary + " has sha256 " + sha->substr(0, 12) +
                   "... but the build's was " + it->second.sha256.substr(0, 12) + "... (" + c.prebuilt + ")");
    c.engines[i].command = it->second.binary;
    found.engines[i] = {it->second.commit, it->second.dirty, it->second.sha256, std::nullopt};
  }
  return {};
}

std::string bench_key(const game::EngineConfig& e, const std::string& bench_cmd) {
  std::string key = e.command + '\n' + e.working_dir + '\n' + bench_cmd;
  for (const std::string& a : e.args) key += '\n' + a;
  return key;
}

std::string nps_text(double nps) {
  std::ostringstream s;
  s << int64_t(std::llround(nps));
  return s.str();
}

// One bench per binary and way of running it (bench_key), shared by the signature check and the speed measurement.
using Benches = std::map<std::string, BenchResult>;

std::expected<void, std::string> check_signatures(const config::Config& c, Findings& found, Benches& done,
                                                  std::ostream& progress) {
  for (size_t i = 0; i < c.engines.size(); ++i) {
    const config::EngineSource& s = c.sources[i];
    if (!s.bench) continue;
    const game::EngineConfig& e = c.engines[i];
    const std::string key = bench_key(e, s.bench_cmd);
    if (!done.contains(key)) {
      auto r = run_bench(e, s.bench_cmd);
      if (!r) return Error(r.error());
      done[key] = *r;
    }
    const BenchResult& r = done[key];
    found.engines[i].bench_nodes = r.nodes;
    if (r.nodes != *s.bench)
      return Error("engine '" + e.name + "': its bench gives " + std::to_string(r.nodes) + " nodes but bench=" +
                   std::to_string(*s.bench) + " was expected (" + e.command + "): not the build you meant");
    progress << "bench of " << e.name << ": " << r.nodes << " nodes, as expected (" << nps_text(r.nps) << " nps)"
             << std::endl;
  }
  return {};
}

// The machine's speed: as many benches at once as games will run (the machine as loaded as during the games),
// the median of their speeds.
std::expected<double, std::string> measure_nps(const game::EngineConfig& e, const std::string& bench_cmd,
                                               int copies) {
  std::vector<std::future<std::expected<BenchResult, std::string>>> runs;
  for (int i = 0; i < copies; ++i)
    runs.push_back(std::async(std::launch::async, [&] { return run_bench(e, bench_cmd); }));
  std::vector<double> nps;
  std::string error;
  for (auto& r : runs) {
    auto got = r.get();
    if (!got)
      error = got.error();
    else
      nps.push_back(got->nps);
  }
  if (!error.empty()) return Error(error);
  std::sort(nps.begin(), nps.end());
  const size_t n = nps.size();
  return n % 2 ? nps[n / 2] : (nps[n / 2 - 1] + nps[n / 2]) / 2;
}

std::expected<ClockScaling, std::string> scale_time_controls(config::Config& c, const Benches& done,
                                                             std::ostream& progress) {
  const config::ScaleTc& wanted = *c.scale_tc;
  ClockScaling scale;
  size_t ref = 0;
  while (!wanted.engine.empty() && ref < c.engines.size() && c.engines[ref].name != wanted.engine) ++ref;
  const game::EngineConfig& e = c.engines[ref];
  const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
  const int copies = std::clamp(c.concurrency, 1, hardware);
  // A bench already run for the signature measured the machine as one game at a time would load it.
  const auto checked = done.find(bench_key(e, c.sources[ref].bench_cmd));
  std::expected<double, std::string> nps;
  if (copies == 1 && checked != done.end())
    nps = checked->second.nps;
  else
    nps = measure_nps(e, c.sources[ref].bench_cmd, copies);
  if (!nps) return Error("--scale-tc: " + nps.error());
  if (!(*nps > 0)) return Error("--scale-tc: the bench of '" + e.name + "' gave no speed");
  scale.measured_nps = *nps;
  scale.factor = wanted.nps / *nps;
  for (game::EngineConfig& engine : c.engines) {
    scale.written.push_back(engine.time_control);
    engine.time_control = scaled(engine.time_control, scale.factor);
  }
  std::ostringstream f;
  f.precision(3);
  f << scale.factor;
  progress << "scale-tc: " << e.name << "'s bench gives " << nps_text(*nps) << " nps here (" << copies
           << " at once), the time controls are written for " << nps_text(wanted.nps) << ": x" << f.str() << ", "
           << scale.written[0].to_string() << " -> " << c.engines[0].time_control.to_string() << std::endl;
  return scale;
}

}  // namespace

game::TimeControl scaled(const game::TimeControl& tc, double factor) {
  auto ms = [&](int64_t v) { return v > 0 ? std::max<int64_t>(1, std::llround(double(v) * factor)) : v; };
  game::TimeControl out = tc;
  out.base_ms = ms(tc.base_ms);
  out.increment_ms = ms(tc.increment_ms);
  out.byoyomi_ms = ms(tc.byoyomi_ms);
  if (tc.movetime_ms) out.movetime_ms = ms(*tc.movetime_ms);
  return out;
}

std::expected<Findings, std::string> build_git_engines(config::Config& c, std::ostream& progress) {
  if (c.sources.size() != c.engines.size()) c.sources.resize(c.engines.size());
  const std::string cache = c.build_cache.empty() ? default_build_cache() : c.build_cache;
  Findings found;
  found.engines.resize(c.engines.size());
  for (size_t i = 0; i < c.engines.size(); ++i) {
    const config::EngineSource& s = c.sources[i];
    if (!s.from_git()) continue;
    auto built = build_engine(c.engines[i].name, s, cache, progress);
    if (!built) return Error(built.error());
    if (!built->built_now)
      progress << c.engines[i].name << ": " << s.git_ref << " = " << built->commit.substr(0, 12)
               << ", built before: " << built->binary << std::endl;
    c.engines[i].command = built->binary;
    found.engines[i] = {built->commit, built->dirty, built->sha256, std::nullopt};
  }
  return found;
}

std::string prebuilt_text(const config::Config& c, const Findings& found) {
  std::string out;
  for (size_t i = 0; i < c.engines.size() && i < c.sources.size() && i < found.engines.size(); ++i) {
    if (!c.sources[i].from_git()) continue;
    const EngineFindings& s = found.engines[i];
    out += c.engines[i].name + '\t' + s.commit + '\t' + (s.dirty ? "1" : "0") + '\t' + s.sha256 + '\t' +
           c.engines[i].command + '\n';
  }
  return out;
}

std::expected<Findings, std::string> provision_engines(config::Config& c, std::ostream& progress) {
  if (c.sources.size() != c.engines.size()) c.sources.resize(c.engines.size());
  Findings found;
  if (c.prebuilt.empty()) {
    auto built = build_git_engines(c, progress);
    if (!built) return Error(built.error());
    found = std::move(*built);
  } else {
    found.engines.resize(c.engines.size());
    if (auto ok = use_prebuilt(c, found); !ok) return Error(ok.error());
  }
  Benches benches;
  if (auto ok = check_signatures(c, found, benches, progress); !ok) return Error(ok.error());
  if (c.scale_tc) {
    auto scaling = scale_time_controls(c, benches, progress);
    if (!scaling) return Error(scaling.error());
    found.scaling = std::move(*scaling);
  }
  return found;
}

}  // namespace arena::provision

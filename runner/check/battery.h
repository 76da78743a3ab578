#pragma once
// The battery behind run_checks (checks.h), private to check/: one probe engine, the report it fills, and what the
// probes learn of the engine on the way (the worst overrun, the stray bestmoves, the fixes already applied). Its
// probes are grouped by what they measure, a file each: handshake_checks, clock_checks, stop_checks,
// legality_checks, robustness_checks; battery.cpp holds the order, the bookkeeping and the summaries.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "check/checks.h"
#include "check/figures.h"
#include "check/probe_engine.h"
#include "check/time_profile.h"

namespace arena::check {

using process::SteadyClock;
using usi::GoParams;

class Battery {
 public:
  Battery(const CheckOptions& options, const std::atomic<bool>* interrupt);
  CheckReport run();

 private:
  // ---- bookkeeping (battery.cpp) ----
  void add(std::string id, std::string title, Verdict verdict, std::string figure, std::string detail = "");
  bool interrupted() const { return interrupt_ && interrupt_->load(); }
  Millis startup_wait() const { return Millis(o_.startup_wait_ms); }
  bool ensure_running();
  std::expected<ProbeEngine::Startup, std::string> start_engine(std::string id, std::string title,
                                                                const std::string& failure_prefix);
  std::string_view timing_position();
  ProbeEngine::Search timed(std::string_view position, const GoParams& go, std::int64_t allowed,
                            const char* probe = nullptr);
  void searched(const ProbeEngine::Search& s);
  void note_overrun(std::int64_t overrun, const char* probe);
  void collect_strays();

  // ---- handshake (handshake_checks.cpp) ----
  bool handshake();
  void options();
  void rule_options();
  bool configured(std::string_view option) const;
  void threads_and_hash();
  void setoption_each();
  void isready_busy();

  // ---- time semantics (clock_checks.cpp) ----
  std::int64_t sudden_ms() const;
  void sudden_death();
  void swapped_clocks();
  void short_clock(std::int64_t used, std::int64_t left);
  void fischer();
  void double_increment();
  void byoyomi_overrun();
  void byoyomi_share(std::int64_t typical, std::int64_t b);
  void limit_probe(const std::string& id, const std::string& title, const GoParams& go, std::int64_t allowed,
                   Millis wait, const std::string& tc);
  void movetime();
  void nodes_and_depth();

  // ---- time profiles (profile_checks.cpp) ----
  TimeProfile measure_profile(const ClockKind& kind, std::int64_t give_up_over_ms);
  void measure_time_profiles();
  void judge_time_profiles();

  // ---- stop and ponder (stop_checks.cpp) ----
  std::optional<std::int64_t> stop_after(Millis after, bool* answered_early, std::string* why);
  void infinite_and_stop();
  void ponder();

  // ---- legality (legality_checks.cpp) ----
  void legality();

  // ---- robustness (robustness_checks.cpp) ----
  void survives(const std::string& id, const std::string& title, const std::string& line);
  void robustness();
  void memory_and_quit();
  std::filesystem::path working_dir() const;
  std::set<std::string> working_dir_files() const;
  void files_left(const std::set<std::string>& before);

  // ---- summaries (battery.cpp) ----
  void bestmove_once();
  void margin();
  std::int64_t granted_margin() const;

  const CheckOptions& o_;
  ProbeEngine engine_;
  const std::atomic<bool>* interrupt_;
  CheckReport report_;
  Millis drain_{60};
  bool fatal_ = false;
  bool dies_on_go_ = false;  // a plain go (no increment, nothing exotic) killed it
  int next_position_ = 0;
  int searches_ = 0;
  int stray_bestmoves_ = 0;
  std::optional<std::int64_t> max_overrun_;
  std::optional<std::int64_t> projected_overrun_;  // from the spread of the byoyomi moves
  std::string max_overrun_probe_;
  std::vector<TimeProfile> measured_profiles_;  // judged once the margin is decided
};

// ---- how the probes write their figures (the rest in check/figures.h) ----

inline std::string died_text(const ProbeEngine::Search& s) { return "died (" + s.exit + ")"; }

// ---- the go commands of the timed probes ----

// The timing positions have sente (black) to move: btime is the mover's.
inline GoParams sudden_go(std::int64_t own, std::int64_t opponent, std::int64_t inc = 0) {
  GoParams g;
  g.btime = own;
  g.wtime = opponent;
  if (inc > 0) g.binc = g.winc = inc;
  return g;
}

inline GoParams byoyomi_go(std::int64_t ms) {
  GoParams g;
  g.btime = 0;
  g.wtime = 0;
  g.byoyomi = ms;
  return g;
}

// ---- the engines' names for their thread and hash options ----

inline bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (usi::iequals(name, n)) return true;
  return false;
}

// Whole names: YaneuraOu also has a ThreadIdOffset, which is no thread count.
inline bool thread_option(std::string_view name) {
  return one_of(name, {"Threads", "Thread", "USI_Threads", "NumberOfThreads"});
}
inline bool hash_option(std::string_view name) {
  return one_of(name, {"USI_Hash", "Hash", "HashSize", "Hash Size", "USI_HashSize"});
}

}  // namespace arena::check

#pragma once
// `shogi-arena check`: a battery of probes against one USI engine before it plays a tournament. Each check
// measures something (time to usiok, time used against time given, stop latency, the legality of its moves) and
// says pass, warn or fail with the figure. The quirks it finds become engine keys (config/engine_keys.h) that make
// the engine play reliably: send_inc=false, swap_btime_wtime=true, margin_ms, startup_timeout_ms, and the engine's
// own thread and hash options.
//
// A warning is a quirk the recommended keys work around, or one a tournament does not meet; a failure is what
// no key fixes (no usiok, death on a plain go, an illegal bestmove, a second bestmove, overruns beyond a second).

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/time_profile.h"
#include "game/game.h"
#include "usi/usi_client.h"

namespace arena::check {

enum class Verdict { Pass, Warn, Fail, Skip };
std::string_view to_string(Verdict verdict);

struct CheckItem {
  std::string id;     // stable, for scripts: "time.byoyomi"
  std::string title;  // "byoyomi 1 s"
  Verdict verdict = Verdict::Pass;
  std::string figure;  // what was measured: "used 801-812 ms of 1000 (8 moves)"
  std::string detail;  // for a warning or failure: what is wrong and what to do
};

// The keys that make the engine play reliably; unset means the default is right.
struct Recommendation {
  std::optional<bool> send_inc;          // false: it misreads binc/winc
  std::optional<bool> swap_btime_wtime;  // true: it budgets from the opponent's clock
  std::optional<std::int64_t> startup_timeout_ms;
  std::optional<std::int64_t> margin_ms;                     // its own time tolerance per move
  std::vector<std::pair<std::string, std::string>> options;  // its thread and hash options, as it spells them
  std::vector<std::string> avoid;                            // what not to use with it: "tc=movetime=...", "ponder"
};

struct CheckOptions {
  game::EngineConfig engine;  // as a tournament would run it: its keys are applied and their effect measured
  bool quick = false;         // fewer samples: about 15 s for a quick engine
  // The tolerance a game grants every engine (game::GameOptions::margin_ms); an engine that needs more gets a
  // margin_ms of its own.
  std::int64_t game_margin_ms = game::GameOptions{}.margin_ms;
  // How long the checker waits for usiok and readyok: longer than any tournament's timeout, to measure it.
  std::int64_t startup_wait_ms = 60000;
  std::function<void(const CheckItem&)> on_item;  // each check as it completes (progress)
  // The time profiles (time_profile.h): a game's worth of moves per kind of clock, about a minute each (a quarter
  // of that with `quick`). `profile_scale` multiplies their clocks (tests).
  bool time_profiles = true;
  double profile_scale = 1;
};

struct CheckReport {
  std::string engine_name;  // the configured name, else `id name`
  usi::Identity identity;
  std::vector<CheckItem> items;
  Recommendation keys;
  std::vector<TimeProfile> profiles;  // one per kind of clock measured, in order
  double seconds = 0;
  bool interrupted = false;  // Ctrl-C: the checks not run say nothing either way
  int failures() const;
  int warnings() const;
  // 0: the engine plays reliably with the recommended keys; 1: it does not (a failure); 2: interrupted before a
  // failure was found, so undecided.
  int exit_code() const { return failures() > 0 ? 1 : interrupted ? 2 : 0; }
};

CheckReport run_checks(const CheckOptions& options, const std::atomic<bool>* interrupt = nullptr);

}  // namespace arena::check

#pragma once
// A run's standings in words: the one-line status, and the final summary as text or JSON (the console, `stats`, the
// live page and the JSON output all show these).

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "config/config.h"
#include "journal/journal.h"
#include "run/run_core.h"
#include "standings/tally.h"

namespace arena::standings {

// What the standings are measured against: the kind of run, the games it will play, its SPRT.
struct RunInfo {
  config::TournamentType type = config::TournamentType::Gauntlet;
  int64_t total_games = 0;
  std::optional<stats::SprtConfig> sprt;
  // The rating list's anchor (standings/ratings.h): this engine is rated rating_anchor_elo; empty: mean 0.
  std::string rating_anchor;
  double rating_anchor_elo = 0;
  // Where the engines came from (git builds, bench signatures) and the time controls' scaling, from the journal
  // header.
  std::vector<journal::EngineBuild> builds;
  std::optional<journal::TimeScale> scale_tc;
};

// "Games 120/1000 | dev vs base +40 -35 =45 | Elo 14.5 +/- 30.2 | LLR 0.42 (-2.94, 2.94) | crash 0 stall 0 ..."
std::string status_line(const Tally& tally, const RunInfo& info);

struct Summary {
  RunInfo info;
  run::RunEnd end = run::RunEnd::Completed;
  std::string error;
  int exit_code = 0;
  double elapsed_s = 0;
  std::string journal;
  int64_t resumed_games = 0;
  int64_t engine_moves = 0;   // moves the engines played in this run's games (Tournament::engine_moves)
  double runner_cpu_s = -1;   // the runner's own CPU time (engines excluded); < 0: unknown
  double runner_user_s = -1;  // its user and system parts
  double runner_sys_s = -1;
  int64_t runner_max_rss_kb = -1;  // the runner's own peak resident memory; < 0: unknown
};
// The final report: per pairing W/L/D (overall and per colour), Elo with its 95 % interval, nElo, LOS, draw ratio,
// pentanomial pairs, the SPRT; per engine points and faults; a cross table for round robins; the rating list of more
// than two engines (standings/ratings.h).
std::string summary_text(const Tally& tally, const Summary& summary);
// The same as one JSON object (infinite values are null), as a value to embed (the live page, the report) and as text.
boost::json::value summary_value(const Tally& tally, const Summary& summary);
std::string summary_json(const Tally& tally, const Summary& summary);
// An SPRT's outcome in one line for a CI log, e.g. "sprt: H1 accepted (pass): dev vs base, 148 games, LLR 2.95
// (-2.94, 2.94); exit code 0". Empty for a run without an SPRT.
std::string verdict_line(const Tally& tally, const Summary& summary);

}  // namespace arena::standings

#pragma once
// Per-game kifu files in the output folder: games/<number>-<black>-vs-<white>[-a<attempt>].csa / .kif.

#include <string>
#include <vector>

#include "game/game_result.h"
#include "run/schedule.h"

namespace arena::run {

struct RecordSettings {
  std::string dir;  // the games folder; empty: no records
  bool csa = true;
  bool kif = false;
};

// "000012-dev-vs-base" (game numbers are 1-based in file names), "-a1" appended for a replayed attempt.
std::string record_base_name(const ScheduledGame& scheduled, int attempt, const PlayedGame& game);

// Writes the records; each failure is returned as a warning (a record is never worth stopping a tournament for).
// Returns the paths written.
std::vector<std::string> write_records(const RecordSettings& settings, const ScheduledGame& scheduled, int attempt,
                                       const PlayedGame& game, std::vector<std::string>& warnings);

}  // namespace arena::run

#pragma once
// What `shogi-arena check` prints: one line per check as it completes, a summary with the engine's recommended
// settings (a ready `--engine` line and a YAML entry for `engines:`), and the same as one JSON object.

#include <string>
#include <vector>

#include "check/checks.h"
#include "game/game.h"

namespace arena::check {

// "  pass  time.byoyomi            byoyomi 1 s        used 801 .. 812 ms ..." and, for a warning or failure, an
// indented line with the detail.
std::string item_text(const CheckItem& item);

// The engine's settings with the recommended keys applied: what a tournament should use.
game::EngineConfig recommended_config(const game::EngineConfig& engine, const Recommendation& keys);

// The closing summary: counts, the verdict, the --engine line, the YAML entry, what to avoid.
std::string summary_text(const CheckReport& report, const game::EngineConfig& engine);
std::string report_json(const CheckReport& report, const game::EngineConfig& engine);

}  // namespace arena::check

#pragma once
// The journal's JSON pieces for those who already hold Boost.JSON values: a game line parsed once (an SPSA pair's
// line holds its games as objects), and the header's engine builds and time scaling, which the summary JSON repeats in
// the same shape.

#include <boost/json/fwd.hpp>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "journal/journal.h"

namespace arena::journal {

// A game line already parsed, read as parse_journal_game() reads a line's text, so that no game is parsed twice.
std::expected<JournalGame, std::string> journal_game_of(const boost::json::value& line);

// The header's "builds": one object per engine, with repo, ref, commit and dirty only for an engine built from git.
boost::json::value builds_json(const std::vector<EngineBuild>& builds);
// The header's "scale_tc" (nps, engine, measured_nps, factor); null when the time controls were not scaled.
boost::json::value time_scale_json(const std::optional<TimeScale>& scale);

}  // namespace arena::journal

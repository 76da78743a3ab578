#pragma once
// The rating list of a run (stats/rating.h) from its standings: for round robins and gauntlets of more than two
// engines, anchored on the engine the user named (RunInfo::rating_anchor) or with mean 0.

#include <expected>
#include <string>

#include "stats/rating.h"
#include "standings/summary.h"
#include "standings/tally.h"

namespace arena::standings {

// Whether the run has a rating list: more than two engines, and not an SPRT or SPSA.
bool has_rating_list(const Tally& tally, const RunInfo& info);

// The list, or why there is none yet (fewer than two engines with games, groups that never met, an anchor that is
// not an engine of the run).
std::expected<stats::RatingList, std::string> rating_list(const Tally& tally, const RunInfo& info);

}  // namespace arena::standings

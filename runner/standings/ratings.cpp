#include "standings/ratings.h"

namespace arena::standings {

bool has_rating_list(const Tally& tally, const RunInfo& info) {
  return tally.engines().size() > 2 &&
         (info.type == config::TournamentType::RoundRobin || info.type == config::TournamentType::Gauntlet);
}

std::expected<stats::RatingList, std::string> rating_list(const Tally& tally, const RunInfo& info) {
  std::vector<std::string> names;
  for (const EngineRecord& e : tally.engines()) names.push_back(e.name);
  stats::RatingOptions options;
  if (!info.rating_anchor.empty()) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == info.rating_anchor) options.anchor = int(i);
    if (!options.anchor)
      return std::unexpected("the rating anchor '" + info.rating_anchor + "' is not an engine of the run");
    options.anchor_elo = info.rating_anchor_elo;
  }
  std::vector<stats::PairingResults> results;
  for (const PairingRecord& r : tally.pairings())
    results.push_back(
        {r.pairing.first, r.pairing.second, r.wdl, tally.games_per_pair() == 2 ? r.penta : stats::PentaCounts{}});
  return stats::rate(names, results, options);
}

}  // namespace arena::standings

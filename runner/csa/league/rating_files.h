#pragma once
// The league's ratings kept beside its records: recomputed from the results list alone (so they can always be
// rebuilt, as mk_rate rebuilds players.yaml from mk_game_results' list) and written as shogi-server's
// players.yaml and this project's ratings.json, each replaced whole.

#include <filesystem>
#include <string>
#include <vector>

#include "csa/league/ratings.h"

namespace arena::csa::league {

struct RatingFiles {
  std::filesystem::path results_list;  // 00LIST
  std::filesystem::path players_yaml;  // written
  std::filesystem::path ratings_json;  // written
  // A last line without its newline is one being appended while the list is read: it waits for the next refresh.
  bool complete_lines_only = false;
};

// Reads the list, rates with `options` (its base date: now), writes both files. Each thing worth telling (lines
// skipped, games not counted, a fit that failed, a file not written) is one line in `log`.
LeagueRatings refresh_ratings(const RatingFiles& files, LeagueRatingOptions options, std::vector<std::string>& log);

// The project's list as JSON: {"counted_games", "half_life_days", "games_limit", "fit_error", "players": [{id,
// name, rating_group, rate, win, loss, last_modified, games, elo, lower, upper, list_group}]}.
std::string ratings_json_text(const LeagueRatings& ratings, const LeagueRatingOptions& options);
// The list for a console: one line per player, mk_rate's rate beside the Elo with its 95 % interval.
std::string rating_table_text(const LeagueRatings& ratings);

}  // namespace arena::csa::league

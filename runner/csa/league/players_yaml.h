#pragma once
// players.yaml, the ratings file shogi-server reads (written by its mk_rate script): players grouped by rating
// group, each `id: {name, rating_group, rate, last_modified, win, loss}`. Floodgate pairs by these rates.

#include <expected>
#include <filesystem>
#include <map>
#include <string>

#include "csa/league/ratings.h"

namespace arena::csa::league {

// The rate of every player id in the file (0 for the unrated group 999). A missing file is an empty map, as
// shogi-server starts with no ratings; a file that is not players.yaml is an error naming it.
std::expected<std::map<std::string, double>, std::string> read_player_rates(const std::filesystem::path& file);

// The ratings as mk_rate writes players.yaml: groups 0, 1, ... and 999 (always present), each player with name,
// rating_group, rate, last_modified (a YAML timestamp, which shogi-server formats with strftime), win and loss.
// Group 999 holds only players with a weighted win or loss of at least 1, as mk_rate's.
std::string players_yaml_text(const LeagueRatings& ratings);

}  // namespace arena::csa::league

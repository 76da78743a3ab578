#pragma once
// players.yaml, the ratings file shogi-server reads (written by its mk_rate script): players grouped by rating
// group, each `id: {name, rating_group, rate, last_modified, win, loss}`. Floodgate pairs by these rates.

#include <expected>
#include <filesystem>
#include <map>
#include <string>

namespace arena::csa::league {

// The rate of every player id in the file (0 for the unrated group 999). A missing file is an empty map, as
// shogi-server starts with no ratings; a file that is not players.yaml is an error naming it.
std::expected<std::map<std::string, double>, std::string> read_player_rates(const std::filesystem::path& file);

}  // namespace arena::csa::league

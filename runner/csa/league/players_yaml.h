#pragma once
// players.yaml, the ratings file shogi-server reads (written by its mk_rate script): players grouped by rating
// group, each `id: {name, rating_group, rate, last_modified, win, loss}`. Floodgate pairs by these rates.

#include <expected>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "csa/league/ratings.h"

namespace arena::csa::league {

struct PlayersEntry {
  std::string id;
  std::string name;
  double rate = 0;            // 0 in the unrated group 999
  std::string last_modified;  // as written: "2024-01-31 12:00:00.000000000 +09:00"
};

// Every player of the file, group by group. A missing file is no player, as shogi-server starts with no ratings;
// a file that is not players.yaml is an error naming it.
std::expected<std::vector<PlayersEntry>, std::string> read_players(const std::filesystem::path& file);
// The rate of every player id in the file (0 for the unrated group 999).
std::expected<std::map<std::string, double>, std::string> read_player_rates(const std::filesystem::path& file);

// The ratings as mk_rate writes players.yaml: groups 0, 1, ... and 999 (always present), each player with name,
// rating_group, rate, last_modified (a YAML timestamp, which shogi-server formats with strftime), win and loss.
// Group 999 holds only players with a weighted win or loss of at least 1, as mk_rate's.
std::string players_yaml_text(const LeagueRatings& ratings);

}  // namespace arena::csa::league

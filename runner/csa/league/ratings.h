#pragma once
// The league's ratings from its results list, computed as shogi-server's mk_rate computes them (floodgate.md §4),
// plus this project's rating list with intervals.
//
// mk_rate's rules: games between two players with a trip (ids "<name>+<hash>"; "@..." before the "+" is dropped,
// "@NORATE+" ids are not rated), with a result (win/lose or a draw, half a win and half a loss), not ended before
// `abnormal_threshold` moves when abnormal, not after the base date nor older than `ignore_days`; each weighted
// 1 in its first `half_life_ignore_days` days, then halved every `half_life_days`. A player is rated once its
// weighted wins and losses are each at least 1 and together at least `games_limit` (the filter is repeated until
// it holds for everyone left); the rated players fall into groups that met, largest first, each rated by plain
// maximum likelihood with mean 1000, truncated to an integer. Everyone else with at least 1 weighted win or loss
// is in group 999 with rate 0. Where mk_rate aborts (a group without finite ratings), only that group goes to 999.
//
// This project's list adds what mk_rate lacks: every player with games, in the groups that met, with one
// virtual draw per pairing (so that a player who won everything still has a finite, bounded rating), a 95 %
// interval, and the number of games.
//
// Only Floodgate game names (floodgate-...) count: the server also hosts other games.

#include <map>
#include <string>
#include <vector>

#include "csa/league/results_list.h"

namespace arena::csa::league {

struct LeagueRatingOptions {
  WallTime base_date = std::chrono::system_clock::now();
  double half_life_days = 60;
  double half_life_ignore_days = 7;
  double ignore_days = 730;
  int abnormal_threshold = 30;  // 0: no abnormal game counts
  double games_limit = 15;
  bool skip_draws = false;
};

struct LeaguePlayer {
  std::string id;
  std::string name;
  int rating_group = 999;  // mk_rate's: 0, 1, ... for the rated groups, 999 for the others
  double rate = 0;         // mk_rate's rate; 0 in group 999
  WallTime last_modified{};
  double win = 0, loss = 0;  // weighted, against the player's own group when rated (as mk_rate writes them)
  // This project's list.
  int64_t games = 0;
  bool listed = false;  // has an Elo below (it met someone)
  double elo = 0, lower = 0, upper = 0;
  int list_group = 0;  // the group of players that met, largest first
};

struct LeagueRatings {
  // Rated groups first (by group, best first), then group 999 by name.
  std::vector<LeaguePlayer> players;
  int counted_games = 0;
  std::vector<std::string> notes;  // skipped lines, games not counted and why (one line each kind)
  // Non-empty when mk_rate's fit found no finite ratings for a group (a player or group that won or lost every
  // game against the rest; mk_rate then aborts and writes nothing): that group's players are put in group 999,
  // the others are rated as usual.
  std::string fit_error;
  // player id -> mk_rate's rate (0 for group 999), what the pairing reads.
  std::map<std::string, double> rates() const;
};

LeagueRatings rate_league(const std::vector<ListedGame>& games, const LeagueRatingOptions& options = {});

}  // namespace arena::csa::league

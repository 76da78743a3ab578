#pragma once
// One round of a Floodgate group: who is left out and who plays whom with which colour, by shogi-server's
// pairing factories (pairing.rb; floodgate.md §3), with every decision and its reason kept for the log.
//
// default_factory (= least_diff_pairing), the default:
//   1. an odd count leaves out the `sacrifice` player if present, else the player who sat out least recently
//      and least often (shogi-server picks at random, so the same player could sit out round after round);
//   2. the pairs with the least sum of rating differences plus shogi-server's penalties: 400 for a rematch of
//      the last game (4000 more when either player is unrated), 800 for two humans, 800 for two players whose
//      ids share their first 7 characters (one owner's engines), else 400 for the first 4. Unlike shogi-server,
//      which tries random orders, the sum is minimised exactly (up to 20 players; a local search beyond), and a
//      rematch of the last game is avoided whenever any other pairing exists;
//   3. an unrated player counts as the mean rating of the rated players waiting (2150, Floodgate's start, when
//      none is), or as the rating of the player it last won (+200) or lost (-200) against when that is known.
// random_pairing: pairs at random. swiss_pairing: the winners of their last game by rating (+ up to 800 at
// random) first, then the others (+ up to 200). sort_by_rate_with_randomness: by rating + up to 1200 at random.
// floodgate_zyunisen: the default without the unrated players.
// Colours (every factory): black goes to the player who played black less often in this group, then to the one
// who was white in its last game, then by a coin (shogi-server tosses a coin for every game).

#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "csa/league/history.h"
#include "csa/league/schedule.h"

namespace arena::csa::league {

// A player waiting for the round.
struct Candidate {
  std::string id;    // "<name>+<md5 of the trip>", shogi-server's player_id
  std::string name;  // the login name
  double rate = 0;   // from the ratings; 0: unrated
};

struct PlannedPair {
  Candidate black, white;
  double rate[2] = {0, 0};  // black's and white's rating as the pairing counted it
  bool estimated[2] = {false, false};
  std::vector<std::string> penalties;  // "rematch +400", "same owner +800", ...
  int penalty = 0;
};

struct LeftOut {
  Candidate player;
  std::string reason;
};

struct RoundPlan {
  std::string factory;
  std::vector<LeftOut> left_out;
  std::vector<PlannedPair> pairs;
  // One line per decision, for the server's log.
  std::vector<std::string> describe() const;
};

bool is_pairing_factory(std::string_view name);
std::string pairing_factory_names();  // "default_factory, least_diff_pairing, ..." for errors

// `round` counts the group's rounds from 0 (for the rotation of the odd player); `rates` are the known
// ratings of every player id, waiting or not (an unrated player is placed by its last decisive opponent's).
RoundPlan plan_round(std::vector<Candidate> waiting, const GroupHistory& history, const GroupSettings& settings,
                     const std::map<std::string, double>& rates, int round, std::mt19937_64& rng);

// shogi-server's test for a human player: a name ending in "_human" or containing "_human@".
bool is_human(const std::string& name);

}  // namespace arena::csa::league

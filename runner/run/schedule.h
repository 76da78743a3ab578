#pragma once
// The schedule: which engines play game k, with which colours and from which opening. It is a pure function of
// the configuration, so a resumed run (or a rerun) plays exactly the same games in the same numbering.
//
// Numbering: rounds are played in order; in round r every pairing plays one pair from the round's opening, the
// pairing's first engine as black (sente) in the pair's first game and as white in the second. So
//   pair = r * pairings + p,   game = pair * games_per_pair + g   (g = 0: first engine black, g = 1: swapped).
// Openings: sequential order takes opening r mod N in round r; random order shuffles the list with the seed
// (splitmix64 + Fisher-Yates, the same on every platform) and reshuffles for every pass through it.

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"

namespace arena::run {

struct Pairing {
  int first = 0;
  int second = 1;
};

struct ScheduledGame {
  int64_t index = 0;     // 0-based game number: the journal's key
  int64_t pair = 0;      // index / games_per_pair
  int game_in_pair = 0;  // 0: the pairing's first engine is black; 1: colours swapped
  int round = 0;
  int pairing = 0;  // index into Schedule::pairings()
  int black = 0;    // engine indices
  int white = 1;
  int opening = 0;  // index into the opening list
};

class Schedule {
 public:
  struct Params {
    config::TournamentType type = config::TournamentType::Gauntlet;
    int engines = 2;
    int rounds = 1;
    int openings = 1;
    config::OpeningOrder order = config::OpeningOrder::Sequential;
    uint64_t seed = 1;
    int games_per_pair = 2;  // 1 only for a single `play` game
  };
  explicit Schedule(const Params& params);

  int64_t games() const { return pairs() * games_per_pair_; }
  int64_t pairs() const { return int64_t(rounds_) * int64_t(pairings_.size()); }
  int games_per_pair() const { return games_per_pair_; }
  int rounds() const { return rounds_; }
  const std::vector<Pairing>& pairings() const { return pairings_; }
  int opening_of_round(int round) const { return round_openings_[size_t(round)]; }

  ScheduledGame game(int64_t index) const;

 private:
  std::vector<Pairing> pairings_;
  std::vector<int> round_openings_;
  int rounds_ = 0;
  int games_per_pair_ = 2;
};

// A short hex digest of everything that decides the games (engine names, colours, openings, counts): stored in
// the journal so that --resume refuses a journal written for a different schedule.
std::string schedule_id(const Schedule& schedule, const std::vector<std::string>& engine_names,
                        const std::vector<std::string>& opening_positions);

}  // namespace arena::run

#pragma once
// The standings: every statistic of a run, kept up to date game by game from journal records (live, or read back
// by --resume and the stats command). Scores count only games of valid pair attempts; the fault counters
// (crashes, stalls, time losses, illegal moves) count every journaled game, so a crash that caused a replay is
// still reported; a second line of the same game counts for nothing.
//
// The SPRT decides on the longest complete prefix of pair indices: pairs 0..K-1 all finished, whatever order they
// finished in. Results that arrive early are the short games, and deciding on them would bias the test; and a
// verdict that depends only on the pair order is the same for a run on one machine, for `stats` on its journal
// and for a coordinator watching a cluster's shards. Once told the SPRT (decide_sprt), the prefix stops growing at
// the first pair at which the test decides, so every reader agrees on where it decided.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "journal/journal.h"
#include "stats/counts.h"
#include "stats/elo.h"
#include "stats/sprt.h"
#include "run/schedule.h"

namespace arena::standings {

struct EngineRecord {
  std::string name;
  stats::WdlCounts wdl;  // all its scored games, its own point of view
  int64_t crashes = 0;   // lost by disconnect (crash, closed pipes, or could not be restarted)
  int64_t stalls = 0;    // killed after not answering stop
  int64_t time_losses = 0;
  int64_t illegal_moves = 0;  // illegal or unparsable moves and false declarations
  double points() const { return double(wdl.wins) + 0.5 * double(wdl.draws); }
};

struct PairingRecord {
  run::Pairing pairing;
  stats::WdlCounts wdl;       // the first engine's point of view
  stats::WdlCounts as_black;  // the first engine's games as black (sente)
  stats::WdlCounts as_white;
  stats::PentaCounts penta;  // complete pairs
};

class Tally {
 public:
  // `pairings` may be empty: pairings are then found from the games (the stats command without a schedule).
  Tally(std::vector<std::string> engine_names, std::vector<run::Pairing> pairings, int games_per_pair);

  // Adds a game's line, in any order. Returns false for a line that says nothing new and is left out, faults and
  // all: a line of its game at its attempt was added already (a second copy, from a hand-edited or spliced journal;
  // a run writes one line per game and attempt).
  bool add(const journal::JournalGame& game);

  int64_t journaled() const { return journaled_; }  // every line, void ones included
  int64_t duplicates() const { return duplicates_; }  // lines add() left out
  int64_t scored() const { return scored_; }        // games that count
  int64_t void_games() const { return void_; }      // games of replayed pair attempts
  int64_t replays() const { return replays_; }      // pair attempts voided
  const std::vector<EngineRecord>& engines() const { return engines_; }
  const std::vector<PairingRecord>& pairings() const { return pairings_; }
  int games_per_pair() const { return games_per_pair_; }
  // All engines' faults together.
  EngineRecord faults() const;
  // The first pairing's statistics from the pairs when games are paired, else from the games.
  std::optional<stats::EloSummary> summary(size_t pairing) const;

  // Call before adding games: the prefix then stops at the first pair at which this SPRT decides.
  void decide_sprt(const stats::SprtConfig& config);
  // The complete prefix: its length in pairs and the first pairing's counts over it.
  int64_t prefix_pairs() const { return prefix_pairs_; }
  const stats::PentaCounts& prefix_penta() const { return prefix_penta_; }
  const stats::WdlCounts& prefix_wdl() const { return prefix_wdl_; }
  // Whether decide_sprt's test has decided on the prefix.
  bool sprt_decided() const { return sprt_decided_; }

 private:
  struct Counted {
    int pairing = -1;
    int first_points = -1;  // -1 not counted; else 0 loss, 1 draw, 2 win for the pairing's first engine
    bool first_is_black = true;
  };
  struct PairState {
    int attempt = 0;
    Counted games[2];
    bool done[2] = {false, false};  // journaled at this attempt (scored or not)
  };
  int engine_index(const std::string& name);
  int pairing_index(int black, int white, int game_in_pair);
  void count(Counted& c, int sign);
  void retract(PairState& p);
  void add_game(const journal::JournalGame& g);
  bool pair_complete(const PairState& p) const;
  void add_to_prefix(const PairState& p);
  void advance_prefix();

  std::vector<EngineRecord> engines_;
  std::vector<PairingRecord> pairings_;
  std::map<std::pair<int, int>, int> pairing_of_;  // (min, max) engine index -> pairing
  std::unordered_map<int64_t, PairState> pairs_;
  int games_per_pair_ = 2;
  int64_t journaled_ = 0, scored_ = 0, void_ = 0, replays_ = 0;
  int64_t duplicates_ = 0;
  std::set<std::pair<int64_t, int>> added_;  // (game, attempt) of every line added
  int64_t prefix_pairs_ = 0;
  stats::PentaCounts prefix_penta_;
  stats::WdlCounts prefix_wdl_;
  std::optional<stats::SprtConfig> sprt_;
  bool sprt_decided_ = false;
};

}  // namespace arena::standings

namespace arena::standings {

struct SprtStatus {
  double llr = 0;
  stats::SprtBounds bounds;
  stats::SprtVerdict verdict = stats::SprtVerdict::Continue;
};
// The SPRT of the first pairing over the complete prefix (see above): on pentanomial pair counts when games are
// paired, else on W/L/D.
SprtStatus sprt_status(const Tally& tally, const stats::SprtConfig& config);

}  // namespace arena::standings

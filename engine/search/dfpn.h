#pragma once
// Depth-first proof-number search (df-pn, Nagai 2002) for mates: the attacker (the side to move at the root) plays
// checks only, the defender every legal reply. Each position carries a proof number (how many more leaves must be
// proven for a mate at the least) and a disproof number; the search always expands the most-proving leaf, going
// down with thresholds instead of climbing back to the root, and keeps the numbers in a table of its own. Unlike the
// depth-first iterative-deepening solver (mate.h) it does not re-search short lines for every length, so it reaches
// the long mates of tsume problems.
//
// Shogi specifics: a position's entry is found by its board, and a proof is reused for the same board when the
// attacker holds at least as much in hand and the defender at most as much (a disproof the other way round), which
// merges the many orders of drops. A repetition is no mate (the attacker checks every move, so a cycle is his
// perpetual check), nor is a line through a position the game had already seen three times before the root (its
// fourth occurrence is sennichite), nor a line longer than the length limit; none is stored, as all depend on the path.

#include <atomic>
#include <cstdint>
#include <vector>

#include "rules/position.h"
#include "search/mate.h"

namespace shogi {

class DfpnSolver {
 public:
  // The table holds about table_mb megabytes (at least one cluster); it is made once and never cleared, each solve()
  // marking its own entries.
  explicit DfpnSolver(size_t table_mb = 16);

  // Proves or disproves a mate by the side to move. Gives up (Timeout) after max_nodes nodes (0: no limit) or when
  // `stop` is set. A Mate comes with its line (attacker and defender moves, ending in mate), read from the table:
  // the attacker's shortest proven reply and the defender's longest. NoMate is a disproof of every line of at most
  // max_plies plies.
  MateResult solve(Position& pos, uint64_t max_nodes, const std::atomic<bool>& stop, int max_plies = 255);
  uint64_t nodes() const { return nodes_; }

 private:
  // An entry without its board: the board keys of a cluster sit together in front of the entries, so that a look-up
  // reads two cache lines to find a board's entries instead of all of them.
  struct Entry {
    Hand attacker_hand = HAND_ZERO, defender_hand = HAND_ZERO;
    uint32_t pn = 1, dn = 1;
    uint16_t length = 0;      // proven: plies to mate along the line the table holds
    uint16_t generation = 0;  // the solve() that wrote it; an older one is free (0: never written)
    uint32_t work = 0;        // nodes spent under this entry (saturating): what replacement keeps
  };
  static constexpr int CLUSTER = 16;  // one board's positions with different hands share a cluster
  struct alignas(64) Cluster {
    Key boards[CLUSTER] = {};
    Entry entries[CLUSTER];
  };
  // The high half of the 128-bit product maps a key onto the clusters without a division.
  size_t cluster_index(Key board) const {
    __extension__ using u128 = unsigned __int128;
    return size_t(u128(board) * u128(table_.size()) >> 64);
  }
  const Cluster& cluster_of(Key board) const { return table_[cluster_index(board)]; }
  Cluster& cluster_of(Key board) { return table_[cluster_index(board)]; }

  struct Numbers {
    uint32_t pn = 1, dn = 1;
    uint16_t length = 0;
  };
  // A node's numbers as its search leaves them; a disproof through a repetition or the length limit holds on this
  // path only and is not stored.
  struct Outcome : Numbers {
    bool path_dependent = false;
  };
  // What the table knows of a board with these hands: a proof or disproof that covers them, else the entry for
  // exactly them, else the numbers of a new leaf (1, 1).
  Numbers look_up(Key board, Hand attacker, Hand defender) const;
  void store(const Position& pos, const Numbers& n, uint64_t work);

  // Expands `pos` until its proof number reaches thpn or its disproof number thdn.
  Outcome mid(Position& pos, bool or_node, uint32_t thpn, uint32_t thdn, int ply);
  // The proven line from `pos` (the attacker's shortest mate, the defender's longest resistance), read from the
  // table; false when an entry it needs was replaced.
  bool collect_line(Position& pos, bool or_node, std::vector<Move>& line, int ply);
  // The move collect_line() follows from `pos`, or MOVE_NONE when the table lacks a proof; `mated`: the defender
  // has no move.
  Move proven_move(Position& pos, bool or_node, bool& mated);

  std::vector<Cluster> table_;
  uint16_t generation_ = 0;  // of the current solve(): the table is never cleared
  uint64_t nodes_ = 0;
  uint64_t max_nodes_ = 0;
  int max_plies_ = 255;
  Color attacker_ = BLACK;
  const std::atomic<bool>* stop_ = nullptr;
  bool aborted_ = false;
  bool depth_limited_ = false;  // some line was cut at max_plies: a disproof is then no proof of "no mate"
  // The game's positions seen three times before the root: a line reaching one again ends in sennichite (its fourth
  // occurrence), not in mate, so they open the path below the root and count as repetitions.
  void add_thrice_seen_positions(const Position& pos);

  std::vector<Key> path_;       // those positions, then the root to the node searched, for repetitions
};

}  // namespace shogi

#pragma once
// Mate detection outside the main alpha-beta search: a fast one-move mate test used at search nodes, and a
// depth-first iterative-deepening mate solver (attacker checks only, defender every legal reply) for `go mate`.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "rules/position.h"

namespace shogi {

// True if the side to move has no legal move (in shogi that loses, in check or not).
bool has_no_legal_move(const Position& pos);
// True if the legal move m leaves the opponent no legal move (a check that mates, when m gives check).
bool is_mate_after(Position& pos, Move m);
// Whether, after the legal checking move m, the defender's king (which must exist) could step out of check,
// answered without making m. When true, m does not mate; mate_in_one asks it first, since most contact checks
// fail it.
bool king_escapes_check(const Position& pos, Move m);
// A move that mates at once, or MOVE_NONE. Pawn-drop mates are never returned: they are illegal.
Move mate_in_one(Position& pos);

struct MateResult {
  enum class Status { Mate, NoMate, Timeout };
  Status status = Status::Timeout;
  std::vector<Move> pv;  // attacker and defender moves, ending in mate
};

class MateSolver {
 public:
  // Searches odd lengths 1, 3, 5, ... up to max_plies, so the mate it finds is a shortest one. NoMate only when the
  // whole tree was exhausted without hitting the length limit (no sequence of checks goes on for ever), which is a
  // proof. Gives up (Timeout) when `stop` is set or after max_nodes nodes (0: no limit).
  MateResult solve(Position& pos, int max_plies, const std::atomic<bool>& stop, uint64_t max_nodes = 0);
  uint64_t nodes() const { return nodes_; }
  // Whether the last solve() stopped early (its budget or `stop`); otherwise a Timeout at max_plies means that no
  // mate of at most max_plies plies exists.
  bool gave_up() const { return gave_up_; }

 private:
  bool attack(Position& pos, int depth, std::vector<Move>& pv);
  bool defend(Position& pos, int depth, std::vector<Move>& pv);

  const std::atomic<bool>* stop_ = nullptr;
  uint64_t nodes_ = 0;
  uint64_t max_nodes_ = 0;
  bool out_of_nodes_ = false;
  bool gave_up_ = false;
  bool depth_limited_ = false;
  // Attacker positions known to have no mate within the stored number of plies, last ones one move from the leaves
  // included: a table indexed by the key's low bits, each slot overwritten by the latest position stored there.
  // A slot holds only for the solve() that wrote it (its stamp), so a new solve() forgets the table without
  // clearing its 4 MB: a solver kept for many solves costs nothing to reuse.
  struct NoMate {
    Key key = 0;
    uint32_t stamp = 0;
    int32_t plies = 0;
  };
  static constexpr size_t NO_MATE_SLOTS = size_t(1) << 18;
  std::vector<NoMate> no_mate_within_;
  uint32_t stamp_ = 0;
  bool known_no_mate(Key key, int depth) const;
  // The defender's reply that last refuted the attack at each remaining depth: tried first at the next defence of
  // that depth, as one reply (a king step, a capture, an interposition) often refutes many checks alike.
  Move refutation_[MAX_PLY + 1] = {};
  void store_no_mate(Key key, int depth);
};

// A mate proven of `plies` plies (df-pn's line, or a mate the main search found) is not always the shortest: every
// shorter length by checks is searched (MateSolver up to plies - 2) within max_nodes (0: no limit) or until `stop`.
struct ShorterMate {
  std::vector<Move> pv;   // a shorter mate, the shortest by checks; empty when none was found
  bool shortest = false;  // every length below plies was searched to the end (pv, if any, is a shortest mate)
  uint64_t nodes = 0;
};
ShorterMate shorter_mate(Position& pos, int plies, const std::atomic<bool>& stop, uint64_t max_nodes);
// The same with a solver the caller keeps (a search shortens a few mates a move: its table is not made afresh).
ShorterMate shorter_mate(MateSolver& solver, Position& pos, int plies, const std::atomic<bool>& stop,
                         uint64_t max_nodes);

}  // namespace shogi

#include "search/dfpn.h"

#include <algorithm>
#include <array>
#include <span>

#include "rules/movegen.h"

namespace shogi {

namespace {

constexpr uint32_t INF = 0x7fffffff;  // a proof or disproof number that is infinite: the other one is 0

uint32_t saturated_sum(uint64_t a, uint64_t b) { return uint32_t(std::min<uint64_t>(a + b, INF)); }

// a holds at least as many of every piece as b.
bool hand_covers(Hand a, Hand b) {
  for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
    if (hand_count(a, PieceType(pt)) < hand_count(b, PieceType(pt))) return false;
  return true;
}

// A position one move on, as the table is keyed: the board (with the side to move) and both hands.
struct Child {
  Move move = MOVE_NONE;
  Key board = 0;
  Key full = 0;  // board and hands: for the repetition test along the path
  Hand hands[COLOR_NB] = {HAND_ZERO, HAND_ZERO};
  uint32_t pn = 1, dn = 1;
  uint16_t length = 0;
  bool path_dependent = false;  // a disproof by repetition or by the length limit
};

Child child_of(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  Child c;
  c.move = m;
  c.hands[BLACK] = pos.hand(BLACK);
  c.hands[WHITE] = pos.hand(WHITE);
  Key hand_key = pos.state()->hand_key;
  if (is_drop(m)) {
    c.hands[us] = hand_sub(c.hands[us], dropped_type(m));
    hand_key -= zobrist::HAND[us][dropped_type(m)];
  } else if (const Piece captured = pos.piece_on(to_sq(m)); captured != NO_PIECE) {
    c.hands[us] = hand_add(c.hands[us], raw_type(type_of(captured)));
    hand_key += zobrist::HAND[us][raw_type(type_of(captured))];
  }
  c.full = pos.key_after(m);
  c.board = c.full - hand_key;
  return c;
}

// The moves of a node: every legal check for the attacker (non-promotions too, problems need them), every legal
// reply for the defender (who is in check).
std::span<const ExtMove> node_moves(const Position& pos, bool or_node, ExtMove* moves) {
  return {moves, or_node ? generate<LEGAL_CHECKS>(pos, moves) : generate<LEGAL>(pos, moves)};
}

// A new leaf's numbers from its moves (df-pn+'s initial values): a defender with many replies is hard to prove, an
// attacker with many checks hard to disprove. A leaf the table does not know would otherwise count as (1, 1), and
// the search would learn its shape only by expanding it. No move at all settles it: mate, or no check left.
void initial_numbers(Position& pos, bool or_node, Child& c) {
  StateInfo st;
  pos.do_move(c.move, st);
  uint32_t moves = 0;
  if (or_node) {
    Bitboard drop_squares;  // the defender's drops on one square count once, as the AND node groups them
    for (const ExtMove& m : MoveList<LEGAL>(pos)) {
      if (is_drop(m.move)) {
        if (drop_squares.test(to_sq(m.move))) continue;
        drop_squares |= square_bb(to_sq(m.move));
      }
      ++moves;
    }
  } else {
    moves = uint32_t(MoveList<LEGAL_CHECKS>(pos).size());
  }
  pos.undo_move(c.move);
  if (or_node) {
    if (moves == 0)
      c.pn = 0, c.dn = INF, c.length = 0;  // mated (an illegal pawn-drop mate was never generated)
    else
      c.pn = moves, c.dn = 1;
  } else {
    if (moves == 0)
      c.pn = INF, c.dn = 0;
    else
      c.pn = 1, c.dn = moves;
  }
}

}  // namespace

DfpnSolver::DfpnSolver(size_t table_mb) {
  const size_t clusters = std::max<size_t>(1, table_mb * 1024 * 1024 / sizeof(Cluster));
  table_.resize(clusters);
}

DfpnSolver::Numbers DfpnSolver::look_up(Key board, Hand attacker, Hand defender) const {
  const Cluster& cluster = cluster_of(board);
  Numbers found;
  for (int i = 0; i < CLUSTER; ++i) {
    if (cluster.boards[i] != board) continue;
    const Entry& e = cluster.entries[i];
    if (e.generation != generation_) continue;
    // A proof holds for a richer attacker and a poorer defender, a disproof the other way round.
    if (e.pn == 0 && hand_covers(attacker, e.attacker_hand) && hand_covers(e.defender_hand, defender))
      return {0, INF, e.length};
    if (e.dn == 0 && hand_covers(e.attacker_hand, attacker) && hand_covers(defender, e.defender_hand))
      return {INF, 0, 0};
    if (e.attacker_hand == attacker && e.defender_hand == defender) found = {e.pn, e.dn, e.length};
  }
  return found;
}

void DfpnSolver::store(const Position& pos, const Numbers& n, uint64_t work) {
  const Key board = pos.board_key();
  const Hand attacker = pos.hand(attacker_), defender = pos.hand(~attacker_);
  Cluster& cluster = cluster_of(board);
  int slot = -1;
  for (int i = 0; i < CLUSTER; ++i) {
    const Entry& e = cluster.entries[i];
    if (cluster.boards[i] == board && e.generation == generation_ && e.attacker_hand == attacker &&
        e.defender_hand == defender) {
      slot = i;
      break;
    }
  }
  if (slot < 0) {
    // A free entry, else the one that cost the least to find, proofs and disproofs being worth the most.
    auto value = [&](const Entry& e) {
      return e.generation != generation_ ? 0 : e.work + ((e.pn == 0 || e.dn == 0) ? (1ull << 32) : 0);
    };
    slot = int(std::min_element(std::begin(cluster.entries), std::end(cluster.entries),
                                [&](const Entry& a, const Entry& b) { return value(a) < value(b); }) -
               std::begin(cluster.entries));
    cluster.entries[slot] = Entry{};
    cluster.boards[slot] = board;
    cluster.entries[slot].attacker_hand = attacker;
    cluster.entries[slot].defender_hand = defender;
  }
  Entry& e = cluster.entries[slot];
  e.pn = n.pn;
  e.dn = n.dn;
  e.length = n.length;
  e.generation = generation_;
  e.work = uint32_t(std::min<uint64_t>(uint64_t(e.work) + work, UINT32_MAX));
}

MateResult DfpnSolver::solve(Position& pos, uint64_t max_nodes, const std::atomic<bool>& stop, int max_plies) {
  if (++generation_ == 0) {  // wrapped: entries of 65,536 solves ago would look current
    std::fill(table_.begin(), table_.end(), Cluster{});
    generation_ = 1;
  }
  nodes_ = 0;
  max_nodes_ = max_nodes;
  max_plies_ = std::max(1, max_plies);
  stop_ = &stop;
  aborted_ = false;
  depth_limited_ = false;
  attacker_ = pos.side_to_move();
  path_.clear();
  add_thrice_seen_positions(pos);
  path_.push_back(pos.key());

  MateResult result;
  const Outcome root = mid(pos, true, INF, INF, 0);
  if (aborted_) return result;
  if (root.pn == 0) {
    std::vector<Move> line;
    if (collect_line(pos, true, line, 0)) {
      result.status = MateResult::Status::Mate;
      result.pv = std::move(line);
    }
  } else if (root.dn == 0 && !depth_limited_) {
    result.status = MateResult::Status::NoMate;
  }
  return result;
}

void DfpnSolver::add_thrice_seen_positions(const Position& pos) {
  std::vector<Key> seen;
  const StateInfo* st = pos.state();
  for (int i = 0; st && i <= pos.state()->plies_from_null; ++i, st = st->previous) seen.push_back(st->key());
  std::sort(seen.begin(), seen.end());
  for (size_t i = 0; i < seen.size();) {
    size_t j = i;
    while (j < seen.size() && seen[j] == seen[i]) ++j;
    if (j - i >= 3) path_.push_back(seen[i]);
    i = j;
  }
}

DfpnSolver::Outcome DfpnSolver::mid(Position& pos, bool or_node, uint32_t thpn, uint32_t thdn, int ply) {
  ++nodes_;
  if ((max_nodes_ && nodes_ >= max_nodes_) || ((nodes_ & 1023) == 0 && stop_->load(std::memory_order_relaxed)))
    aborted_ = true;
  const uint64_t nodes_before = nodes_;

  ExtMove move_buffer[MAX_MOVES];
  const std::span<const ExtMove> moves = node_moves(pos, or_node, move_buffer);
  std::vector<Child> children;
  children.reserve(moves.size());
  for (const ExtMove& m : moves) {
    children.push_back(child_of(pos, m.move));
    // Their entries are read below, after all of them are generated: the memory is on its way by then.
    const char* cluster = reinterpret_cast<const char*>(&cluster_of(children.back().board));
    __builtin_prefetch(cluster);
    __builtin_prefetch(cluster + 64);
  }
  const int n = int(children.size());

  if (n == 0) {
    // The attacker has no check (no mate here), or the defender no move (mated: a pawn-drop mate is no legal move
    // and was never generated).
    Outcome end;
    end.pn = or_node ? INF : 0;
    end.dn = or_node ? 0 : INF;
    store(pos, end, 1);
    return end;
  }
  const int child_ply = ply + 1;
  for (int i = 0; i < n; ++i) {
    Child& c = children[i];
    if (std::find(path_.begin(), path_.end(), c.full) != path_.end()) {
      c.pn = INF, c.dn = 0, c.path_dependent = true;  // a cycle of checks: the attacker's perpetual check
      continue;
    }
    if (!or_node && child_ply >= max_plies_) {
      c.pn = INF, c.dn = 0, c.path_dependent = true;
      depth_limited_ = true;
      continue;
    }
    const Numbers known = look_up(c.board, c.hands[attacker_], c.hands[~attacker_]);
    c.pn = known.pn, c.dn = known.dn, c.length = known.length;
    // A leaf the table does not know (an entry still at (1, 1) is looked at again: it cost one node).
    if (known.pn == 1 && known.dn == 1) initial_numbers(pos, or_node, c);
  }

  Outcome out;
  std::array<uint32_t, SQ_NB> drop_pn;  // AND nodes: the largest proof number of the drops on each square
  while (true) {
    // This node's numbers from its children's.
    uint64_t sum = 0;
    int best = -1;
    uint32_t second = INF;
    if (or_node) {
      uint32_t min_pn = INF;
      for (int i = 0; i < n; ++i) {
        sum = saturated_sum(sum, children[i].dn);
        const uint32_t pn = children[i].pn;
        // The shortest proven mate among equal proof numbers of 0.
        if (best < 0 || pn < min_pn || (pn == 0 && min_pn == 0 && children[i].length < children[best].length)) {
          if (best >= 0) second = std::min(second, min_pn);
          min_pn = pn, best = i;
        } else {
          second = std::min(second, pn);
        }
      }
      out.pn = min_pn;
      out.dn = uint32_t(sum);
      out.length = out.pn == 0 ? uint16_t(children[best].length + 1) : 0;
      // A disproof through a repetition or the length limit holds on this path only.
      out.path_dependent = false;
      if (out.dn == 0)
        for (int i = 0; i < n; ++i) out.path_dependent |= children[i].path_dependent;
    } else {
      uint32_t min_dn = INF;
      uint16_t longest = 0;
      // Drops on one square (the interpositions of every piece in hand) count as one child, the hardest of them:
      // summed, a defender with a full hand would make every distant check look hopeless.
      drop_pn.fill(0);
      for (int i = 0; i < n; ++i) {
        if (is_drop(children[i].move)) {
          uint32_t& group = drop_pn[to_sq(children[i].move)];
          if (children[i].pn > group) {
            sum = saturated_sum(sum - group, children[i].pn);
            group = children[i].pn;
          }
        } else {
          sum = saturated_sum(sum, children[i].pn);
        }
        longest = std::max(longest, children[i].length);
        const uint32_t dn = children[i].dn;
        if (best < 0 || dn < min_dn) {
          if (best >= 0) second = std::min(second, min_dn);
          min_dn = dn, best = i;
        } else {
          second = std::min(second, dn);
        }
      }
      out.pn = uint32_t(sum);
      out.dn = min_dn;
      out.length = out.pn == 0 ? uint16_t(longest + 1) : 0;
      out.path_dependent = out.dn == 0 && children[best].path_dependent;
    }
    if (out.pn >= thpn || out.dn >= thdn || aborted_) break;

    // Down into the most proving child (the attacker's with the smallest proof number, the defender's with the
    // smallest disproof number), with thresholds that send the search back up once a sibling looks better by a
    // quarter: the "1 + epsilon" trick (Pawlewicz and Lew), which saves the many trips up and down between two
    // siblings of nearly equal numbers (on long_mates.tsv 18 % fewer nodes than going back at once).
    Child& c = children[best];
    uint32_t child_thpn, child_thdn;
    if (or_node) {
      child_thpn = std::min<uint64_t>(thpn, uint64_t(second) + second / 4 + 1);
      child_thdn = uint32_t(std::min<uint64_t>(INF, thdn - out.dn + uint64_t(c.dn)));
    } else {
      child_thdn = std::min<uint64_t>(thdn, uint64_t(second) + second / 4 + 1);
      const uint32_t counted = is_drop(c.move) ? drop_pn[to_sq(c.move)] : c.pn;  // what out.pn holds of it
      child_thpn = uint32_t(std::min<uint64_t>(INF, thpn - out.pn + uint64_t(counted)));
    }
    StateInfo st;
    pos.do_move(c.move, st);
    path_.push_back(c.full);
    const Outcome got = mid(pos, !or_node, child_thpn, child_thdn, child_ply);
    path_.pop_back();
    pos.undo_move(c.move);
    c.pn = got.pn, c.dn = got.dn, c.length = got.length, c.path_dependent = got.path_dependent;
  }

  if (!(out.dn == 0 && out.path_dependent)) store(pos, out, nodes_ - nodes_before + 1);
  return out;
}

Move DfpnSolver::proven_move(Position& pos, bool or_node, bool& mated) {
  Move chosen = MOVE_NONE;
  int chosen_length = -1;
  mated = false;
  bool any = false;
  ExtMove move_buffer[MAX_MOVES];
  for (const ExtMove& m : node_moves(pos, or_node, move_buffer)) {
    any = true;
    const Child c = child_of(pos, m.move);
    if (std::find(path_.begin(), path_.end(), c.full) != path_.end()) {
      if (!or_node) return MOVE_NONE;  // the defender escapes into a repetition on this path
      continue;
    }
    Numbers known = look_up(c.board, c.hands[attacker_], c.hands[~attacker_]);
    if (or_node && known.pn != 0) {
      // A mate in one, proven by the initial numbers of its leaf, which are not stored.
      StateInfo st;
      pos.do_move(m.move, st);
      if (!has_legal_move(pos)) known = {0, INF, 0};
      pos.undo_move(m.move);
    }
    if (known.pn != 0) {
      if (!or_node) return MOVE_NONE;  // a reply the table does not prove (any more)
      continue;
    }
    // The attacker's shortest mate, the defender's longest resistance.
    if (chosen == MOVE_NONE || (or_node ? known.length < chosen_length : known.length > chosen_length))
      chosen = m.move, chosen_length = known.length;
  }
  mated = !or_node && !any;
  return chosen;
}

bool DfpnSolver::collect_line(Position& pos, bool or_node, std::vector<Move>& line, int ply) {
  if (ply > max_plies_) return false;
  bool mated = false;
  Move chosen = proven_move(pos, or_node, mated);
  if (mated) return true;
  if (chosen == MOVE_NONE) {
    // Entries of the proof were replaced (positions of one board share a cluster): prove this node again, within a
    // budget, and read it once more.
    const uint64_t saved_limit = max_nodes_;
    max_nodes_ = nodes_ + std::max<uint64_t>(100000, nodes_);
    const Outcome again = mid(pos, or_node, INF, INF, ply);
    max_nodes_ = saved_limit;
    if (aborted_ || again.pn != 0) return false;
    chosen = proven_move(pos, or_node, mated);
    if (chosen == MOVE_NONE) return false;
  }
  line.push_back(chosen);
  StateInfo st;
  pos.do_move(chosen, st);
  path_.push_back(pos.key());
  const bool ok = collect_line(pos, !or_node, line, ply + 1);
  path_.pop_back();
  pos.undo_move(chosen);
  return ok;
}

}  // namespace shogi

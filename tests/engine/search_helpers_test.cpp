// SEE, move ordering, the correction history, the transposition table (store, probe, aging, statistics) and mate-score adjustment.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "search/history.h"
#include "search/mate.h"
#include "search/movepick.h"
#include "search/see.h"
#include "search/tt.h"
#include "search/tune.h"
#include "search/value.h"

using namespace shogi;

namespace {

struct Setup {
  Position pos;
  std::deque<StateInfo> states{1};
  explicit Setup(std::string_view sfen) {
    Position::init();
    auto r = pos.set(sfen, &states.back());
    REQUIRE_MESSAGE(r.has_value(), sfen);
  }
  Move move(std::string_view usi) {
    auto m = parse_usi_move(pos, usi);
    REQUIRE_MESSAGE(m.has_value(), usi);
    return *m;
  }
};

}  // namespace

TEST_CASE("SEE: free captures win, defended captures by a bigger piece lose, drops onto attacked squares lose") {
  // Black rook 5e; white gold 7e (undefended), white pawn 5c defended by the gold on 5b.
  Setup s("4k4/4g4/4p4/9/2g1R4/9/9/9/4K4 b S 1");
  const Move take_gold = s.move("5e7e");
  CHECK(see_ge(s.pos, take_gold, 0));
  CHECK(see_ge(s.pos, take_gold, capture_value(GOLD)));
  CHECK_FALSE(see_ge(s.pos, take_gold, capture_value(GOLD) + 1));

  const Move take_pawn = s.move("5e5c+");
  CHECK_FALSE(see_ge(s.pos, take_pawn, 0));
  CHECK(see_ge(s.pos, take_pawn, -capture_value(DRAGON)));

  // A silver dropped where only the gold can take it is lost; on an unattacked square it is safe.
  CHECK_FALSE(see_ge(s.pos, s.move("S*6c"), 0));
  CHECK(see_ge(s.pos, s.move("S*1e"), 0));
}

TEST_CASE("SEE: an exchange counts the recapture by a slider behind (x-ray)") {
  // Black rook on 5h and a lance on 5i behind it, white pawn 5e defended by a white rook on 5a.
  Setup s("4r4/9/9/9/4p4/9/9/4R4/4LK3 b - 1");
  // Rook takes pawn, rook takes rook, lance takes rook: black wins a pawn and a rook for a rook.
  CHECK(see_ge(s.pos, s.move("5h5e"), 0));
  Setup lone("4r4/9/9/9/4p4/9/9/4R4/5K3 b - 1");
  CHECK_FALSE(see_ge(lone.pos, lone.move("5h5e"), 0));
}

TEST_CASE("move picker: hash move, good captures, killers, quiets, bad captures last, nothing lost or repeated") {
  Setup s("4k4/4g4/4p4/9/2g1R4/9/9/9/4K4 b - 1");
  const Move tt = s.move("5i4h");
  const Move killer = s.move("5i6h");
  const Move killers[2] = {killer, MOVE_NONE};
  ButterflyHistory history;
  history.clear();
  MovePicker mp(s.pos, tt, 5, &history, nullptr, {}, killers, MOVE_NONE);
  std::vector<Move> order;
  for (Move m; (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);

  REQUIRE(order.size() >= 4);
  CHECK(order[0] == tt);
  CHECK(order[1] == s.move("5e7e"));
  CHECK(order[2] == killer);
  CHECK(order.back() == s.move("5e5c+"));

  MoveList<NON_EVASIONS> all(s.pos);
  CHECK(order.size() == all.size());
  std::vector<Move> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  for (const ExtMove& m : all) CHECK(std::find(order.begin(), order.end(), m.move) != order.end());
}

TEST_CASE("move picker: quiet moves follow the history scores") {
  Setup s("4k4/9/9/9/9/9/9/9/4K4 b - 1");
  ButterflyHistory history;
  history.clear();
  const Move best = s.move("5i4i");
  history.update(BLACK, best, 5000);
  history.update(BLACK, s.move("5i6i"), -3000);
  const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
  MovePicker mp(s.pos, MOVE_NONE, 3, &history, nullptr, {}, no_killers, MOVE_NONE);
  std::vector<Move> order;
  for (Move m; (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);
  REQUIRE(order.size() == 5);
  CHECK(order.front() == best);
  CHECK(order.back() == s.move("5i6i"));
}

TEST_CASE("move picker: quiet direct checks come before quiet moves with a good history") {
  // Black drops a gold: on 4a, 6a, 4b, 5b or 6b it checks the king on 5a; anywhere else it does not.
  Setup s("4k4/9/9/9/9/9/9/9/4K4 b G 1");
  ButterflyHistory history;
  history.clear();
  const Move favoured = s.move("5i4i"), quiet_drop = s.move("G*1i");
  history.update(BLACK, favoured, tune::QuietCheckBonus / 2);
  history.update(BLACK, s.move("G*4b"), -tune::QuietCheckBonus / 4);  // a check with a bad history still leads
  const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
  MovePicker mp(s.pos, MOVE_NONE, 3, &history, nullptr, {}, no_killers, MOVE_NONE);
  std::vector<Move> order;
  for (Move m; (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);
  const std::vector<Move> checks = {s.move("G*4a"), s.move("G*6a"), s.move("G*4b"), s.move("G*5b"), s.move("G*6b")};
  REQUIRE(order.size() > checks.size() + 1);
  for (const Move check : checks)
    CHECK(std::find(order.begin(), order.begin() + checks.size(), check) != order.begin() + checks.size());
  CHECK(order[checks.size()] == favoured);
  CHECK(std::find(order.begin(), order.end(), quiet_drop) != order.end());
}

TEST_CASE("move picker: the continuation histories of earlier moves add to the butterfly history") {
  Setup s("4k4/9/9/9/9/9/9/9/4K4 b - 1");
  ButterflyHistory history;
  history.clear();
  auto continuation = std::make_unique<ContinuationHistory>();
  continuation->clear();
  const Move favoured = s.move("5i4i"), follows = s.move("5i6h"), punished = s.move("5i6i");
  history.update(BLACK, favoured, 3000);
  // What followed white's 5a4b before (a ply back) and black's 5i5h (two plies back) outweighs the butterfly.
  Setup white("4k4/9/9/9/9/9/9/9/4K4 w - 1");
  const Move previous = white.move("5a4b"), earlier = s.move("5i5h");
  continuation->after(previous)->update(follows, 2500);
  continuation->after(earlier)->update(follows, 2500);
  continuation->after(earlier)->update(punished, -4000);
  const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
  MovePicker mp(s.pos, MOVE_NONE, 3, &history, nullptr,
                {continuation->after(previous), continuation->after(earlier), nullptr}, no_killers, MOVE_NONE);
  std::vector<Move> order;
  for (Move m; (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);
  REQUIRE(order.size() == 5);
  CHECK(order[0] == follows);
  CHECK(order[1] == favoured);
  CHECK(order.back() == punished);
}

TEST_CASE("move picker: captures of equal MVV-LVA follow the capture history, in the main and quiescence search") {
  // Two silvers can each take an undefended pawn: the same victim, the same attacker.
  Setup s("4k4/9/9/3p1p3/3S1S3/9/9/9/4K4 b - 1");
  const Move left = s.move("6e6d"), right = s.move("4e4d");
  ButterflyHistory history;
  history.clear();
  const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
  auto first_two = [&](const CaptureHistory& captures, bool quiescence) {
    std::vector<Move> order;
    if (quiescence) {
      MovePicker mp(s.pos, MOVE_NONE, DEPTH_QS_NO_CHECKS, &history, &captures);
      for (Move m; order.size() < 2 && (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);
    } else {
      MovePicker mp(s.pos, MOVE_NONE, 5, &history, &captures, {}, no_killers, MOVE_NONE);
      for (Move m; order.size() < 2 && (m = mp.next_move()) != MOVE_NONE;) order.push_back(m);
    }
    return order;
  };
  for (bool quiescence : {false, true}) {
    CAPTURE(quiescence);
    CaptureHistory captures;
    captures.update(right, PAWN, 4000);
    captures.update(left, PAWN, -2000);
    CHECK(first_two(captures, quiescence) == std::vector<Move>{right, left});
    captures.clear();
    captures.update(left, PAWN, 4000);
    CHECK(first_two(captures, quiescence) == std::vector<Move>{left, right});
  }
}

TEST_CASE("move picker: quiescence search tries a hash move that is a quiet check first, and never drops one") {
  // Black has a gold in hand and a rook that can take an undefended pawn: G*5b is a quiet check, G*1a no check.
  Setup s("4k4/9/1p7/9/9/9/9/1R7/4K4 b G 1");
  const Move check = s.move("G*5b"), quiet = s.move("G*1a"), capture = s.move("8h8c+");
  REQUIRE(s.pos.gives_check(check));
  REQUIRE_FALSE(s.pos.gives_check(quiet));
  ButterflyHistory history;
  history.clear();
  CaptureHistory captures;
  captures.clear();
  auto moves = [&](Move tt_move, Depth depth) {
    std::vector<Move> out;
    MovePicker mp(s.pos, tt_move, depth, &history, &captures);
    for (Move m; (m = mp.next_move()) != MOVE_NONE;) out.push_back(m);
    return out;
  };
  const std::vector<Move> plain = moves(MOVE_NONE, DEPTH_QS_CHECKS);
  REQUIRE(std::count(plain.begin(), plain.end(), check) == 1);

  // The hash move a quiescence node stored (its best move was the check) comes first when it is searched again:
  // it used to be skipped as a hash move not worth trying and then left out of the checks as one already tried.
  const std::vector<Move> with_check = moves(check, DEPTH_QS_CHECKS);
  REQUIRE_FALSE(with_check.empty());
  CHECK(with_check.front() == check);
  CHECK(std::count(with_check.begin(), with_check.end(), check) == 1);
  CHECK(with_check.size() == plain.size());

  // Below the first ply quiescence search tries no quiet check, the hash move included; a quiet hash move that does
  // not check is no quiescence move at any depth, and neither hides another move.
  const std::vector<Move> deeper = moves(check, DEPTH_QS_NO_CHECKS);
  CHECK(std::count(deeper.begin(), deeper.end(), check) == 0);
  CHECK(std::count(deeper.begin(), deeper.end(), capture) == 1);
  CHECK(moves(quiet, DEPTH_QS_CHECKS) == plain);
}

namespace {

// Stockfish's partial insertion sort, the order sort_moves_above must reproduce move for move.
void reference_partial_insertion_sort(ExtMove* begin, ExtMove* end, int limit) {
  for (ExtMove *sorted_end = begin, *p = begin + 1; p < end; ++p)
    if (p->value >= limit) {
      ExtMove tmp = *p, *q;
      *p = *++sorted_end;
      for (q = sorted_end; q != begin && (q - 1)->value < tmp.value; --q) *q = *(q - 1);
      *q = tmp;
    }
}

}  // namespace

TEST_CASE("move ordering: sorting the moves above a limit gives the partial insertion sort's exact order") {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  auto next = [&seed] {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return seed;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    // Lengths across the sort's runs and merges, values with many ties (history scores often are), limits from
    // none selected to all.
    const int n = int(next() % 300);
    const int spread = 1 + int(next() % 40);
    std::vector<ExtMove> a(size_t(n) + 1), b;
    for (int i = 0; i < n; ++i) a[size_t(i)] = {Move(uint32_t(i + 1)), int(next() % uint64_t(spread)) - spread / 2};
    const int limit = int(next() % uint64_t(spread + 4)) - spread / 2 - 2;
    a.resize(size_t(n));
    b = a;
    reference_partial_insertion_sort(a.data(), a.data() + n, limit);
    sort_moves_above(b.data(), b.data() + n, limit);
    bool same = true;
    for (int i = 0; i < n; ++i) same = same && a[size_t(i)].move == b[size_t(i)].move;
    REQUIRE_MESSAGE(same, "trial " << trial << ", " << n << " moves, limit " << limit);
  }
}

namespace {

// Calls visit(pos, legal) at every position of `games` random games from the start (up to 200 plies each, until no
// legal move is left): captures fill the hands, so drops, promotions, pins and checks of every kind turn up.
template <typename Visit>
void for_each_random_position(int games, uint64_t seed, Visit visit) {
  Position::init();
  for (int game = 0; game < games; ++game) {
    Position pos;
    std::deque<StateInfo> states(1);
    REQUIRE(pos.set(START_SFEN, &states.back()).has_value());
    for (int ply = 0; ply < 200; ++ply) {
      const MoveList<LEGAL> legal(pos);
      if (legal.size() == 0) break;
      visit(pos, legal);
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      states.emplace_back();
      pos.do_move(legal.begin()[seed % legal.size()].move, states.back());
    }
  }
}

// mate_in_one as it was before its pre-test: every candidate check is made and judged on the board.
Move reference_mate_in_one(Position& pos) {
  const Color them = ~pos.side_to_move();
  if (!pos.has_king(them) || pos.in_check()) return MOVE_NONE;
  const Bitboard near = king_attacks(pos.king_square(them)) | pos.check_squares(KNIGHT);
  for (const ExtMove& m : MoveList<QUIET_CHECKS>(pos))
    if (near.test(to_sq(m.move)) && pos.legal(m.move) && is_mate_after(pos, m.move)) return m.move;
  for (const ExtMove& m : MoveList<CAPTURES>(pos))
    if (near.test(to_sq(m.move)) && pos.gives_check(m.move) && pos.legal(m.move) && is_mate_after(pos, m.move))
      return m.move;
  return MOVE_NONE;
}

}  // namespace

TEST_CASE("one-move mates: the king-escape test before the move agrees with the board after it") {
  int checks = 0, escapes = 0, mates = 0;
  for_each_random_position(120, 0x2545f4914f6cdd1dULL, [&](Position& pos, const MoveList<LEGAL>& legal) {
    for (const ExtMove& m : legal) {
      if (!pos.gives_check(m.move)) continue;
      ++checks;
      const bool escapes_before = king_escapes_check(pos, m.move);
      StateInfo st;
      pos.do_move(m.move, st, true);
      bool king_steps = false;
      for (const ExtMove& reply : MoveList<LEGAL>(pos)) king_steps |= type_of(moved_piece(reply.move)) == KING;
      pos.undo_move(m.move);
      escapes += escapes_before;
      REQUIRE_MESSAGE(escapes_before == king_steps, pos.sfen() << " " << to_usi(m.move));
    }
    const Move mate = mate_in_one(pos);
    mates += mate != MOVE_NONE;
    REQUIRE_MESSAGE(mate == reference_mate_in_one(pos), pos.sfen());
  });
  // The games must have exercised both answers, and found mates.
  CHECK(checks > 5000);
  CHECK(escapes > checks / 2);
  CHECK(escapes < checks);
  CHECK(mates > 20);
  MESSAGE(checks << " checks, " << escapes << " with a king escape, " << mates << " one-move mates");
}

namespace {

// see_ge as it was before it took the attackers of both colours at once and re-read only the sliders.
bool reference_see_ge(const Position& pos, Move m, int threshold) {
  constexpr PieceType order[] = {PAWN,       LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, SILVER,
                                 PRO_SILVER, GOLD,  BISHOP, ROOK,     HORSE,     DRAGON,     KING};
  const Square to = to_sq(m);
  const bool drop = is_drop(m);
  const Piece captured = drop ? NO_PIECE : pos.piece_on(to);
  int swap = (captured == NO_PIECE ? 0 : capture_value(type_of(captured))) - threshold;
  if (is_promotion(m)) swap += promotion_gain(type_of(moved_piece(m)));
  if (swap < 0) return false;
  swap = capture_value(type_of(moved_piece_after(m))) - swap;
  if (swap <= 0) return true;
  Bitboard occupied = pos.pieces();
  if (!drop) occupied ^= square_bb(from_sq(m));
  occupied |= square_bb(to);
  Bitboard attackers = (pos.attackers_to(BLACK, to, occupied) | pos.attackers_to(WHITE, to, occupied)) & occupied;
  Color stm = pos.side_to_move();
  int res = 1;
  while (true) {
    stm = ~stm;
    attackers &= occupied;
    const Bitboard stm_attackers = attackers & pos.pieces(stm);
    if (stm_attackers.empty()) break;
    res ^= 1;
    PieceType pt = NO_PIECE_TYPE;
    Bitboard bb;
    for (PieceType t : order)
      if (!(bb = stm_attackers & pos.pieces(t)).empty()) {
        pt = t;
        break;
      }
    if (pt == KING) return (attackers & pos.pieces(~stm)).empty() ? res : res ^ 1;
    if ((swap = capture_value(pt) - swap) < res) break;
    occupied ^= square_bb(bb.lsb());
    attackers |= (pos.attackers_to(BLACK, to, occupied) | pos.attackers_to(WHITE, to, occupied)) & occupied;
  }
  return bool(res);
}

}  // namespace

TEST_CASE("SEE: the same answer as the full re-read of the attackers, on every move of random games") {
  int judged = 0, winning = 0;
  for_each_random_position(60, 0xda942042e4dd58b5ULL, [&](Position& pos, const MoveList<LEGAL>& legal) {
    for (const ExtMove& m : legal)
      for (int threshold : {-600, -1, 0, 1, 200, 900}) {
        const bool see = see_ge(pos, m.move, threshold);
        REQUIRE_MESSAGE(see == reference_see_ge(pos, m.move, threshold),
                        pos.sfen() << " " << to_usi(m.move) << " threshold " << threshold);
        ++judged;
        winning += see;
      }
  });
  CHECK(judged > 100000);
  CHECK(winning > judged / 10);
  CHECK(winning < judged * 9 / 10);
}

TEST_CASE("correction history: moves toward the misses it is taught, saturates, keeps the sides apart") {
  auto h = std::make_unique<CorrectionHistory>();
  h->clear();
  const uint64_t sig = 0x0123456789ABCDEFULL, other = 0xFEDCBA9876543210ULL;
  CHECK(h->get(BLACK, sig) == 0);

  h->update(BLACK, sig, 100);
  const int after_one = h->get(BLACK, sig);
  CHECK(after_one == 100);
  CHECK(h->get(WHITE, sig) == 0);  // the other side to move has its own entries
  CHECK(h->get(BLACK, other) == 0);

  // One position moves an entry by at most a quarter of its range, however far it missed.
  h->clear();
  h->update(WHITE, sig, 1'000'000);
  CHECK(h->get(WHITE, sig) == CorrectionHistory::LIMIT / 4);
  h->update(WHITE, sig, -1'000'000);
  CHECK(h->get(WHITE, sig) < 0);

  // Taught the same miss again and again, an entry rises toward LIMIT and stops there, never past it.
  h->clear();
  int previous = 0;
  for (int i = 0; i < 200; ++i) {
    h->update(BLACK, sig, CorrectionHistory::LIMIT);
    const int e = h->get(BLACK, sig);
    CHECK(e >= previous);
    CHECK(e <= CorrectionHistory::LIMIT);
    previous = e;
  }
  CHECK(previous > CorrectionHistory::LIMIT * 9 / 10);
  // And misses of the other sign pull it back down past zero.
  for (int i = 0; i < 200; ++i) h->update(BLACK, sig, -CorrectionHistory::LIMIT);
  CHECK(h->get(BLACK, sig) < -CorrectionHistory::LIMIT * 9 / 10);
  CHECK(h->get(BLACK, sig) >= -CorrectionHistory::LIMIT);
}

TEST_CASE("mate scores are stored relative to the node and read back relative to the root") {
  CHECK(value_to_tt(mate_in(5), 3) == mate_in(2));
  CHECK(value_from_tt(mate_in(2), 7) == mate_in(9));
  CHECK(value_to_tt(mated_in(6), 4) == mated_in(2));
  CHECK(value_from_tt(mated_in(2), 1) == mated_in(3));
  for (int ply = 0; ply < 40; ++ply)
    for (Value v : {mate_in(ply + 3), mated_in(ply + 2), Value(123), Value(-456), VALUE_ZERO}) {
      CHECK(value_from_tt(value_to_tt(v, ply), ply) == v);
    }
  CHECK(value_from_tt(VALUE_NONE, 10) == VALUE_NONE);
  CHECK(value_to_tt(500, 10) == 500);
}

TEST_CASE("null move: a fail-high passes on an ordinary score, never a mate or a perpetual found after it") {
  CHECK(null_move_cutoff_value(350, 200) == 350);
  CHECK(null_move_cutoff_value(VALUE_KNOWN_WIN - 1, 200) == VALUE_KNOWN_WIN - 1);
  CHECK(null_move_cutoff_value(mate_in(7), 200) == 200);
  // The perpetual check's score lies below the mate range: a clamp of mates alone let it through.
  CHECK(null_move_cutoff_value(VALUE_PERPETUAL, 200) == 200);
  CHECK(null_move_cutoff_value(VALUE_KNOWN_WIN, -50) == -50);
}

namespace {
// Keys that share a cluster in a 1 MB table: they differ only in bits that do not reach the index.
constexpr Key BASE = 0x1234567800000000ULL;
Key same_cluster(int i) { return BASE + Key(i); }
}  // namespace

TEST_CASE("TT: store and probe round-trip every field") {
  TranspositionTable tt;
  tt.resize(1);
  bool found;
  TTEntry* e = tt.probe(same_cluster(1), found);
  CHECK_FALSE(found);
  tt.save(e, same_cluster(1), -345, true, BOUND_LOWER, 9, Move16(0x1234), 77);
  e = tt.probe(same_cluster(1), found);
  REQUIRE(found);
  CHECK(e->value() == -345);
  CHECK(e->eval() == 77);
  CHECK(e->depth() == 9);
  CHECK(e->bound() == BOUND_LOWER);
  CHECK(e->is_pv());
  CHECK(e->move() == Move16(0x1234));
  tt.probe(same_cluster(2), found);
  CHECK_FALSE(found);
  tt.clear();
  tt.probe(same_cluster(1), found);
  CHECK_FALSE(found);
}

TEST_CASE("TT: replacement prefers old entries over deep ones (aging)") {
  TranspositionTable tt;
  tt.resize(1);
  bool found;
  // A deep entry from three searches ago.
  tt.save(tt.probe(same_cluster(1), found), same_cluster(1), 10, false, BOUND_EXACT, 20, MOVE16_NONE, 0);
  tt.new_search();
  tt.new_search();
  tt.new_search();
  // Two shallow entries of the current search fill the cluster.
  tt.save(tt.probe(same_cluster(2), found), same_cluster(2), 10, false, BOUND_EXACT, 5, MOVE16_NONE, 0);
  tt.save(tt.probe(same_cluster(3), found), same_cluster(3), 10, false, BOUND_EXACT, 5, MOVE16_NONE, 0);
  TTEntry* e = tt.probe(same_cluster(4), found);
  CHECK_FALSE(found);
  tt.save(e, same_cluster(4), 10, false, BOUND_EXACT, 3, MOVE16_NONE, 0);
  tt.probe(same_cluster(1), found);
  CHECK_FALSE(found);  // the old deep entry went
  tt.probe(same_cluster(2), found);
  CHECK(found);
  tt.probe(same_cluster(3), found);
  CHECK(found);

  // Without aging the deep entry would survive: same test within one search.
  TranspositionTable fresh;
  fresh.resize(1);
  fresh.save(fresh.probe(same_cluster(1), found), same_cluster(1), 10, false, BOUND_EXACT, 20, MOVE16_NONE, 0);
  fresh.save(fresh.probe(same_cluster(2), found), same_cluster(2), 10, false, BOUND_EXACT, 5, MOVE16_NONE, 0);
  fresh.save(fresh.probe(same_cluster(3), found), same_cluster(3), 10, false, BOUND_EXACT, 5, MOVE16_NONE, 0);
  fresh.save(fresh.probe(same_cluster(4), found), same_cluster(4), 10, false, BOUND_EXACT, 3, MOVE16_NONE, 0);
  fresh.probe(same_cluster(1), found);
  CHECK(found);
}

TEST_CASE("TT: hashfull counts the current search's entries only") {
  TranspositionTable tt;
  tt.resize(1);
  CHECK(tt.hashfull() == 0);
  bool found;
  uint64_t k = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 200000; ++i) {
    k = k * 6364136223846793005ULL + 1442695040888963407ULL;
    tt.save(tt.probe(k, found), k, 0, false, BOUND_EXACT, 1, MOVE16_NONE, 0);
  }
  const int full = tt.hashfull();
  CHECK(full > 500);
  CHECK(full <= 1000);
  tt.new_search();
  CHECK(tt.hashfull() == 0);
}

TEST_CASE("TT statistics: a shared key fragment is a collision, not a hit; stores are judged at save time") {
  TranspositionTable tt;
  tt.resize(1, true);
  bool found;
  const Key a = BASE + 0xABCD;
  const Key b = a + (Key(1) << 16);  // same cluster, same low 16 bits, different position
  TTEntry* e = tt.probe(a, found);
  CHECK_FALSE(found);
  tt.save(e, a, 1, false, BOUND_EXACT, 4, MOVE16_NONE, 0);
  tt.probe(a, found);
  CHECK(found);
  e = tt.probe(b, found);
  CHECK(found);  // the table itself cannot tell...
  TTStats s = tt.stats();
  CHECK(s.probes == 3);
  CHECK(s.misses == 1);
  CHECK(s.hits == 1);
  CHECK(s.fragment_collisions == 1);  // ...but the check code can
  tt.save(e, b, 2, false, BOUND_EXACT, 4, MOVE16_NONE, 0);
  tt.save(e, b, 3, false, BOUND_EXACT, 5, MOVE16_NONE, 0);
  s = tt.stats();
  CHECK(s.stores_new == 1);
  CHECK(s.stores_index_collision == 1);
  CHECK(s.stores_same == 1);
  CHECK(s.probes == s.hits + s.misses + s.fragment_collisions);
}

TEST_CASE("correction history: a corrected evaluation stays an evaluation; only an evaluation's miss teaches") {
  // Reverse futility and quiescence futility take a static evaluation for less than a known win: the learned
  // evaluation clamps itself to that range, the correction must not carry it past, and the hand-written one (which
  // can pass it) is brought back.
  CHECK(CorrectionHistory::corrected(100, 800) == 200);
  CHECK(CorrectionHistory::corrected(-100, -800) == -200);
  CHECK(CorrectionHistory::corrected(VALUE_KNOWN_WIN - 1, CorrectionHistory::LIMIT) == VALUE_KNOWN_WIN - 1);
  CHECK(CorrectionHistory::corrected(VALUE_KNOWN_WIN - 50, CorrectionHistory::LIMIT) == VALUE_KNOWN_WIN - 1);
  CHECK(CorrectionHistory::corrected(-VALUE_KNOWN_WIN + 1, -CorrectionHistory::LIMIT) == -VALUE_KNOWN_WIN + 1);
  CHECK(CorrectionHistory::corrected(12000, 0) == VALUE_KNOWN_WIN - 1);
  CHECK(CorrectionHistory::corrected(-12000, 0) == -VALUE_KNOWN_WIN + 1);
  // A perpetual check, a mate or a known win is the search's verdict on the game, not a miss of the evaluation.
  for (Value v : {VALUE_PERPETUAL, VALUE_MATE_IN_MAX_PLY, VALUE_KNOWN_WIN}) {
    CHECK_FALSE(CorrectionHistory::teaches(v));
    CHECK_FALSE(CorrectionHistory::teaches(-v));
  }
  CHECK(CorrectionHistory::teaches(VALUE_KNOWN_WIN - 1));
  CHECK(CorrectionHistory::teaches(-VALUE_KNOWN_WIN + 1));
  CHECK(CorrectionHistory::teaches(0));
}

// The learned KP evaluation: its features, the incremental update against a full recomputation over random games
// (drops, promotions, captures and king moves included), the exact negation under a colour flip, the mirror
// symmetry of symmetric weights, the weights file (round trip; a missing, damaged, truncated or foreign file
// refused with the reason), and engines in one process that search with weights of their own.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "eval/builtin_weights.h"
#include "eval/evaluate.h"
#include "eval/hand_weights.h"
#include "eval/kp.h"
#include "rules/game_end.h"
#include "rules/movegen.h"
#include "search/engine.h"

using namespace shogi;
namespace fs = std::filesystem;

namespace {

// Random weights (with pair terms unless `pairs` is false, and a network when `net`); mirror images made equal when
// `symmetric`.
kp::Weights random_weights(uint64_t seed, bool symmetric, bool pairs = true, bool net = false) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(-400, 400);
  kp::Weights w;
  for (auto& v : w.p) v = int16_t(d(rng));
  for (auto& v : w.kp) v = int16_t(d(rng));
  if (pairs) {
    w.pairs.resize(kp::PAIR_FEATURES);
    for (auto& v : w.pairs) v = int16_t(d(rng));
    if (symmetric)
      for (int f : kp::slot_ordered_pairs()) w.pairs[size_t(kp::mirror_pair(f))] = w.pairs[size_t(f)];
  }
  w.tempo = 16 * 20;
  w.base = seed % 2 ? kp::Base::HandWritten : kp::Base::None;
  if (symmetric) {
    for (int f = 0; f < kp::FEATURES; ++f) w.p[size_t(kp::mirror_feature(f))] = w.p[size_t(f)];
    for (int k = 0; k < SQ_NB; ++k)
      for (int f = 0; f < kp::FEATURES; ++f) w.at(kp::mirror(Square(k)), kp::mirror_feature(f)) = w.at(Square(k), f);
  }
  if (net) {
    // Rows of an eighth of a unit: a side's forty-odd pieces leave some units inside [0, ONE] and some clamped.
    std::uniform_int_distribution<int> row(-kp::NET_ONE / 8, kp::NET_ONE / 8), unit(0, kp::NET_ONE);
    w.net.rows.resize(size_t(kp::NET_KINGS) * kp::FEATURES * kp::NET_WIDTH);
    for (auto& v : w.net.rows) v = int16_t(row(rng));
    for (auto& v : w.net.bias) v = unit(rng) - kp::NET_ONE / 2;
    for (auto& v : w.net.out) v = int16_t(d(rng) * 4);
    w.net.out_bias = d(rng);
    if (symmetric) {
      auto at = [&](int k, int f) { return &w.net.rows[(size_t(k) * kp::FEATURES + size_t(f)) * kp::NET_WIDTH]; };
      for (int k = 0; k < kp::NET_KINGS; ++k)
        for (int f = 0; f < kp::FEATURES; ++f) {
          const int mk = k == kp::NO_KING ? k : kp::mirror(Square(k));
          std::copy_n(at(k, f), kp::NET_WIDTH, at(mk, kp::mirror_feature(f)));
        }
    }
  }
  return w;
}

// Symmetric random tables (and a network with `net`), small enough to keep a search sane, on top of the
// hand-written evaluation.
std::shared_ptr<const kp::Weights> searchable_weights(uint64_t seed, bool net = false) {
  kp::Weights w = random_weights(seed, true, true, net);
  for (auto& v : w.p) v = int16_t(v / 8);
  for (auto& v : w.kp) v = int16_t(v / 8);
  for (auto& v : w.pairs) v = int16_t(v / 8);
  for (auto& v : w.net.out) v = int16_t(v / 8);
  w.base = kp::Base::HandWritten;
  return std::make_shared<const kp::Weights>(w);
}

// Searches each position to `nodes` nodes with `engine`'s settings.
void search_each(Engine& engine, std::initializer_list<const char*> positions, uint64_t nodes) {
  for (const char* position : positions) {
    REQUIRE(engine.set_position(position));
    SearchLimits limits;
    limits.nodes = nodes;
    engine.go(limits);
    engine.wait_for_search_finished();
  }
}

const char* const STARTS[] = {
    "startpos",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "sfen 9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    // Three bishops and more pawns in hand than a hand has slots.
    "sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
    "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P20p 1",
    // No black king (a mate problem).
    "sfen 3sks3/9/4S4/9/9/8B/9/9/9 b S 1",
};

std::string mirrored_sfen(const Position& pos) {
  BoardSetup setup;
  for (int s = 0; s < SQ_NB; ++s) setup.board[kp::mirror(Square(s))] = pos.piece_on(Square(s));
  setup.hand[BLACK] = pos.hand(BLACK);
  setup.hand[WHITE] = pos.hand(WHITE);
  setup.side_to_move = pos.side_to_move();
  setup.move_number = pos.game_ply();
  return to_sfen(setup);
}

}  // namespace

TEST_CASE("KP features: every piece one distinct index in range, seen from each side") {
  Position::init();
  for (const char* start : STARTS) {
    GameRecord g;
    REQUIRE(g.start(start, PieceLimits::Relaxed));
    const Position& pos = g.position();
    for (Color side : {BLACK, WHITE}) {
      int f[kp::MAX_ACTIVE];
      const int n = kp::active_features(pos, side, f);
      int expected = (pos.pieces().andnot(pos.pieces(KING))).count();
      for (Color c : {BLACK, WHITE})
        for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
          expected += std::min(hand_count(pos.hand(c), PieceType(pt)), kp::HAND_SLOTS[pt]);
      CHECK(n == expected);
      std::set<int> seen(f, f + n);
      CHECK(int(seen.size()) == n);
      CHECK(*seen.begin() >= 0);
      CHECK(*seen.rbegin() < kp::FEATURES);
    }
  }
  // A black pawn on 7g seen by black is white's pawn on 3c seen by white.
  CHECK(kp::board_feature(BLACK, B_PAWN, make_square(FILE_7, RANK_7)) ==
        kp::board_feature(WHITE, W_PAWN, make_square(FILE_3, RANK_3)));
  // The mirror of a piece on 7g is the same piece on 3g; a hand feature is its own mirror.
  CHECK(kp::mirror_feature(kp::board_feature(BLACK, B_SILVER, make_square(FILE_7, RANK_7))) ==
        kp::board_feature(BLACK, B_SILVER, make_square(FILE_3, RANK_7)));
  CHECK(kp::mirror_feature(kp::hand_feature(WHITE, BLACK, ROOK, 1)) == kp::hand_feature(WHITE, BLACK, ROOK, 1));
}

namespace {

// Plays random games with w and checks every incremental update (plain and through a refresh cache) against a full
// recomputation.
void check_incremental_updates(const kp::Weights& w) {
  std::mt19937_64 rng(11);
  int moves = 0, drops = 0, captures = 0, promotions = 0, king_moves = 0, cached = 0;
  // Kept across games, so that its entries are also brought up to date from unrelated positions.
  auto cache = std::make_unique<kp::RefreshCache>();
  for (const char* start : STARTS) {
    for (int game = 0; game < 30; ++game) {
      GameRecord g;
      REQUIRE(g.start(start, PieceLimits::Relaxed));
      kp::Accumulator acc;
      kp::refresh(w, g.position(), acc);
      for (int ply = 0; ply < 150; ++ply) {
        MoveList<LEGAL> list(g.position());
        if (list.size() == 0) break;
        // Prefer captures and drops now and then, so that hands fill and empty.
        Move m = list.begin()[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)];
        for (const ExtMove& em : list)
          if ((g.position().is_capture(em.move) || is_drop(em.move)) && rng() % 3 == 0) {
            m = em.move;
            break;
          }
        drops += is_drop(m);
        captures += g.position().is_capture(m);
        promotions += is_promotion(m);
        king_moves += !is_drop(m) && type_of(moved_piece(m)) == KING;
        g.play(m);
        kp::Accumulator next, full, through_cache;
        REQUIRE(kp::update(w, g.position(), m, acc, next));
        kp::refresh(w, g.position(), full);
        INFO(g.position().sfen(), " after ", int(m));
        REQUIRE(kp::same_sums(next, full));
        // The refresh cache gives the same sums, whatever positions its entries were made from.
        REQUIRE(kp::update(w, g.position(), m, acc, through_cache, cache.get()));
        REQUIRE(kp::same_sums(through_cache, full));
        for (Color side : {BLACK, WHITE})
          if (g.position().has_king(side)) {
            kp::NetSums net{};
            REQUIRE(cache->side_sum(w, g.position(), side, &net) == full.sum[side]);
            if (w.has_net()) REQUIRE(net == full.net[side]);
            ++cached;
          }
        CHECK(next.key == g.position().key());
        CHECK(kp::evaluate(w, g.position(), next) == kp::evaluate(w, g.position()));
        acc = next;
        ++moves;
      }
    }
  }
  CHECK(moves > 10000);
  CHECK(drops > 500);
  CHECK(captures > 500);
  CHECK(promotions > 100);
  CHECK(king_moves > 200);
  CHECK(cached > 10000);

  // A null move keeps the sums and takes the new key.
  Position pos;
  StateInfo st, st2;
  REQUIRE(pos.set(std::string(START_SFEN), &st));
  kp::Accumulator a, b;
  kp::refresh(w, pos, a);
  pos.do_null_move(st2);
  REQUIRE(kp::update(w, pos, MOVE_NULL, a, b));
  CHECK(kp::same_sums(b, a));
  CHECK(b.key == pos.key());
  CHECK_FALSE(kp::update(w, pos, MOVE_NONE, a, b));
}

}  // namespace

TEST_CASE("KP: the incremental update equals a full recomputation along random games") {
  Position::init();
  check_incremental_updates(random_weights(1, false));
}

TEST_CASE("the network's sums: the incremental update equals a full recomputation along random games") {
  Position::init();
  const kp::Weights w = random_weights(1, false, true, true);
  check_incremental_updates(w);
  // The network's sums take part: a position's network sums differ from the bias alone, and the output is not zero.
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(std::string(START_SFEN), &st));
  kp::Accumulator acc;
  kp::refresh(w, pos, acc);
  CHECK(acc.net[BLACK] != w.net.bias);
  kp::Weights without = w;
  without.net = {};
  CHECK(kp::evaluate(w, pos) != kp::evaluate(without, pos));
}

TEST_CASE("KP: a colour flip negates the evaluation exactly; symmetric weights see a mirrored board the same") {
  Position::init();
  int checked = 0;
  for (bool with_net : {false, true}) {
    CAPTURE(with_net);
    const kp::Weights any = random_weights(2, false, true, with_net),
                      symmetric = random_weights(3, true, true, with_net);
    std::mt19937_64 rng(5);
    for (const char* start : STARTS) {
      GameRecord g;
      REQUIRE(g.start(start, PieceLimits::Relaxed));
      for (int ply = 0; ply < 60; ++ply) {
        const Position& pos = g.position();
        Position flipped, mirrored;
        StateInfo s1, s2;
        REQUIRE(flipped.set(pos.flipped_sfen(), &s1, PieceLimits::Relaxed));
        REQUIRE(mirrored.set(mirrored_sfen(pos), &s2, PieceLimits::Relaxed));
        CHECK(kp::evaluate_black(any, flipped) == -kp::evaluate_black(any, pos));
        CHECK(kp::evaluate_black(symmetric, mirrored) == kp::evaluate_black(symmetric, pos));
        ++checked;
        MoveList<LEGAL> list(pos);
        if (list.size() == 0) break;
        g.play(list.begin()[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)]);
      }
    }
  }
  CHECK(checked > 400);
}

TEST_CASE("pair terms: the zone's pieces counted from the board agree with pair_sum; a mirrored pair is its image") {
  Position::init();
  const kp::Weights w = random_weights(6, false);
  // From the pieces' side: a piece is in side's zone when its offset from the king, turned to side's view, is one of
  // the zone's offsets.
  auto brute_force = [&](const Position& pos, Color side) {
    if (!pos.has_king(side)) return 0;
    const Square k = pos.king_square(side);
    std::vector<std::pair<int, int>> zone;  // (slot, state)
    for (int s = 0; s < SQ_NB; ++s) {
      const Piece pc = pos.piece_on(Square(s));
      if (pc == NO_PIECE || type_of(pc) == KING) continue;
      int df = file_of(Square(s)) - file_of(k), dr = rank_of(Square(s)) - rank_of(k);
      if (side == WHITE) df = -df, dr = -dr;
      for (int slot = 0; slot < kp::ZONE_SLOTS; ++slot)
        if (kp::ZONE_OFFSETS[slot][0] == df && kp::ZONE_OFFSETS[slot][1] == dr) {
          zone.emplace_back(slot, (color_of(pc) == side ? 0 : kp::ZONE_TYPES) + kp::zone_type(type_of(pc)));
        }
    }
    std::sort(zone.begin(), zone.end());
    int sum = 0;
    for (size_t i = 0; i < zone.size(); ++i)
      for (size_t j = i + 1; j < zone.size(); ++j)
        sum += w.pairs[size_t((zone[i].first * kp::ZONE_STATES + zone[i].second) * kp::ZONE_PIECES +
                              zone[j].first * kp::ZONE_STATES + zone[j].second)];
    return sum;
  };
  std::mt19937_64 rng(8);
  int checked = 0, with_pairs = 0;
  for (const char* start : STARTS) {
    GameRecord g;
    REQUIRE(g.start(start, PieceLimits::Relaxed));
    for (int ply = 0; ply < 80; ++ply) {
      const Position& pos = g.position();
      for (Color side : {BLACK, WHITE}) {
        INFO(pos.sfen(), " side ", int(side));
        const int expected = brute_force(pos, side);
        CHECK(kp::pair_sum(w, pos, side) == expected);
        with_pairs += expected != 0;
        ++checked;
      }
      MoveList<LEGAL> list(pos);
      if (list.size() == 0) break;
      g.play(list.begin()[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)]);
    }
  }
  CHECK(checked > 400);
  CHECK(with_pairs > 200);
  // The start position: black's king on 5i has its pawns on 6g, 5g, 4g two ahead (slots 0-2), nothing on the
  // rank in front, and golds on 6i and 4i beside it (slots 6 and 7).
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(std::string(START_SFEN), &st));
  int zone[kp::ZONE_SLOTS];
  REQUIRE(kp::zone_pieces(pos, BLACK, zone) == 5);
  for (int i = 0; i < 3; ++i) CHECK(zone[i] == i * kp::ZONE_STATES + kp::zone_type(PAWN));
  CHECK(zone[3] == 6 * kp::ZONE_STATES + kp::zone_type(GOLD));
  CHECK(zone[4] == 7 * kp::ZONE_STATES + kp::zone_type(GOLD));
  int pairs[kp::MAX_PAIRS];
  CHECK(kp::pairs_of(zone, 5, pairs) == 10);
  // Mirror: an own gold ahead-left (slot 3) and an enemy pawn right (slot 7) become an enemy pawn left (slot 6) and
  // the gold ahead-right (slot 5); a pair's image's image is the pair.
  const int gold = kp::zone_type(GOLD), enemy_pawn = kp::ZONE_TYPES + kp::zone_type(PAWN);
  const int gold3 = 3 * kp::ZONE_STATES + gold, pawn7 = 7 * kp::ZONE_STATES + enemy_pawn;
  const int gold5 = 5 * kp::ZONE_STATES + gold, pawn6 = 6 * kp::ZONE_STATES + enemy_pawn;
  CHECK(kp::mirror_pair(kp::pair_feature(gold3, pawn7)) == kp::pair_feature(gold5, pawn6));
  for (int f : kp::slot_ordered_pairs()) REQUIRE(kp::mirror_pair(kp::mirror_pair(f)) == f);
  // A pair and its image share one canonical index, one of the two.
  for (int f : kp::slot_ordered_pairs()) {
    REQUIRE(kp::canonical_pair(f) == kp::canonical_pair(kp::mirror_pair(f)));
    REQUIRE((kp::canonical_pair(f) == f || kp::canonical_pair(f) == kp::mirror_pair(f)));
  }
  CHECK(kp::canonical_pair(kp::pair_feature(gold5, pawn6)) ==
        std::min(kp::pair_feature(gold3, pawn7), kp::pair_feature(gold5, pawn6)));
  // Zone types: the promoted minor pieces are golds; the others one type each.
  std::set<int> types;
  for (PieceType pt : {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, HORSE, DRAGON}) types.insert(kp::zone_type(pt));
  CHECK(types.size() == size_t(kp::ZONE_TYPES));
  CHECK(*types.begin() == 0);
  CHECK(*types.rbegin() == kp::ZONE_TYPES - 1);
  for (PieceType pt : {PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER}) CHECK(kp::zone_type(pt) == kp::zone_type(GOLD));
}

TEST_CASE("KP weights file: round trip, and every kind of bad file refused with the reason") {
  const fs::path dir = fs::temp_directory_path() / ("shogi-arena-kp-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const kp::Weights w = random_weights(4, false);
  const std::string path = (dir / "w.bin").string();
  REQUIRE(kp::save_weights(w, path));
  auto back = kp::load_weights(path);
  REQUIRE_MESSAGE(back, (back ? "" : back.error()));
  CHECK((*back)->p == w.p);
  CHECK((*back)->kp == w.kp);
  CHECK((*back)->pairs == w.pairs);
  CHECK((*back)->tempo == w.tempo);
  CHECK((*back)->base == w.base);
  // Weights without pair terms are a format 1 file, as before them, and load without a PAIRS table.
  const kp::Weights w1 = random_weights(4, false, false);
  const std::string bytes1 = kp::weights_to_bytes(w1);
  CHECK(bytes1.substr(0, 8) == "SAKPEV1\n");
  CHECK(kp::weights_to_bytes(w).substr(0, 8) == "SAKPEV2\n");
  CHECK(bytes1.size() + 2 * size_t(kp::PAIR_FEATURES) == kp::weights_to_bytes(w).size());
  auto back1 = kp::weights_from_bytes(bytes1);
  REQUIRE(back1);
  CHECK_FALSE((*back1)->has_pairs());
  CHECK((*back1)->kp == w1.kp);

  const std::string bytes = kp::weights_to_bytes(w);
  auto expect_error = [](const std::string& b, const std::string& what) {
    auto r = kp::weights_from_bytes(b);
    REQUIRE_FALSE(r);
    CHECK_MESSAGE(r.error().find(what) != std::string::npos, r.error());
  };
  std::string damaged = bytes;
  damaged[1000] ^= 1;
  expect_error(damaged, "checksum");
  expect_error(bytes.substr(0, bytes.size() - 2), "truncated");
  expect_error(bytes1.substr(0, bytes1.size() - 2), "truncated");
  std::string format1_with_pairs = bytes;  // a format 2 payload labelled as format 1
  format1_with_pairs[6] = '1';
  expect_error(format1_with_pairs, "padded");
  std::string format2_without_pairs = bytes1;  // and the other way round
  format2_without_pairs[6] = '2';
  expect_error(format2_without_pairs, "truncated");
  expect_error(bytes + "x", "padded");
  std::string damaged_pairs = bytes;  // the checksum covers the pair table too
  damaged_pairs[bytes.size() - 100] ^= 1;
  expect_error(damaged_pairs, "checksum");
  expect_error("PK\x03\x04 a zip file", "not a weights file");
  std::string other = bytes;
  other[8] = 7;  // another feature count
  expect_error(other, "features");
  kp::Weights unknown_base = w;
  unknown_base.base = kp::Base(9);
  expect_error(kp::weights_to_bytes(unknown_base), "unknown base");

  // A network makes a format 3 file, with or without pair terms; its flags, width and size are checked.
  for (bool pairs : {true, false}) {
    CAPTURE(pairs);
    const kp::Weights wn = random_weights(5, false, pairs, true);
    const std::string bytes3 = kp::weights_to_bytes(wn);
    CHECK(bytes3.substr(0, 8) == "SAKPEV3\n");
    auto back3 = kp::weights_from_bytes(bytes3);
    REQUIRE_MESSAGE(back3, (back3 ? "" : back3.error()));
    CHECK((*back3)->kp == wn.kp);
    CHECK((*back3)->pairs == wn.pairs);
    CHECK((*back3)->net.rows == wn.net.rows);
    CHECK((*back3)->net.bias == wn.net.bias);
    CHECK((*back3)->net.out == wn.net.out);
    CHECK((*back3)->net.out_bias == wn.net.out_bias);
    CHECK(kp::weights_to_bytes(**back3) == bytes3);
    expect_error(bytes3.substr(0, bytes3.size() - 2), "truncated");
    expect_error(bytes3 + "x", "padded");
    std::string damaged3 = bytes3;
    damaged3[bytes3.size() - 20] ^= 1;
    expect_error(damaged3, "checksum");
    const size_t flags_at = 24 + 2 * size_t(kp::FEATURES) * (1 + SQ_NB);
    std::string unknown_flags = bytes3;
    unknown_flags[flags_at] |= 4;
    expect_error(unknown_flags, "unknown flags");
    std::string other_width = bytes3;
    other_width[flags_at + 4 + (pairs ? 2 * size_t(kp::PAIR_FEATURES) : 0)] = 8;
    expect_error(other_width, "8 wide");
    std::string no_net = bytes3;  // format 3 always holds a network
    no_net[flags_at] &= ~2;
    expect_error(no_net, "unknown flags");
  }

  auto missing = kp::load_weights((dir / "missing.bin").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("missing.bin: cannot open") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("evaluate() uses the learned weights it is given, and the hand-written evaluation without") {
  Position::init();
  Position pos;
  StateInfo st;
  REQUIRE(pos.set("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", &st));
  const Value hand_written = evaluate(pos, nullptr);
  CHECK(hand_written == evaluate_hand_written(pos));
  CHECK(hand_written == -evaluate_black(pos) + eval::HAND_WEIGHTS.tempo);  // white to move
  const kp::Weights w = random_weights(6, true);
  REQUIRE(w.base == kp::Base::None);
  CHECK(evaluate(pos, &w) == kp::evaluate(w, pos));
  // On top of the hand-written evaluation: its value without its tempo (the tables have their own) is added.
  kp::Weights on_hand = w;
  on_hand.base = kp::Base::HandWritten;
  CHECK(evaluate(pos, &on_hand) == kp::evaluate(on_hand, pos) - evaluate_black(pos));  // white to move
  // Zero tables with the hand-written tempo on top of it play exactly as the hand-written evaluation.
  kp::Weights zero;
  zero.base = kp::Base::HandWritten;
  zero.tempo = eval::HAND_WEIGHTS.tempo * kp::WEIGHT_SCALE;
  CHECK(evaluate(pos, &zero) == hand_written);
}

TEST_CASE("the search's accumulators equal a full recomputation at every evaluation") {
  Position::init();
  for (bool with_net : {false, true}) {
    CAPTURE(with_net);
    set_accumulator_check(true);
    Engine engine;
    engine.set_eval_weights(searchable_weights(8, with_net));
    engine.set_hash_size(8);
    SearchCallbacks cb;
    engine.set_callbacks(cb);
    search_each(engine,
                {"startpos moves 7g7f 3c3d 8h2b+ 3a2b",
                 "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
                 "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P20p 1"},
                30000);
    const AccumulatorCheck check = accumulator_check();
    set_accumulator_check(false);
    CHECK(check.mismatches == 0);
    CHECK(check.computed > 10000);
    // Nearly every accumulator comes from the parent's sums, not from scratch.
    CHECK(check.incremental * 10 > check.computed * 9);
    MESSAGE("accumulators computed ", check.computed, ", from the parent's ", check.incremental);
  }
}

TEST_CASE("an engine whose weights change between searches sums with the new ones, never with cached old sums") {
  Position::init();
  // Each thread keeps a side's sums by king square across evaluations (kp::RefreshCache): made with other weights,
  // they would be wrong the moment a king returns to a square.
  const auto first = searchable_weights(12), second = searchable_weights(13);
  set_accumulator_check(true);
  Engine engine;
  engine.set_hash_size(8);
  SearchCallbacks cb;
  engine.set_callbacks(cb);
  for (const auto& w : {first, second, first}) {
    engine.set_eval_weights(w);
    // Kings with room to move, so that the same king squares come back in every search.
    search_each(engine, {"sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"}, 20000);
  }
  const AccumulatorCheck check = accumulator_check();
  set_accumulator_check(false);
  CHECK(check.computed > 10000);
  CHECK(check.mismatches == 0);
}

TEST_CASE("engines in one process search with their own weights, each as it does alone, also at the same time") {
  // With the weights process-wide, setting them for one engine set them for the other: its evaluation and its
  // search changed with them.
  Position::init();
  const std::string sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(sfen, &st));
  const auto builtin = kp::builtin_weights();
  // Symmetric random tables alone (no base): a third evaluation, unlike both others.
  kp::Weights random = random_weights(10, true);
  for (auto& v : random.p) v = int16_t(v / 4);
  for (auto& v : random.kp) v = int16_t(v / 4);
  for (auto& v : random.pairs) v = int16_t(v / 4);
  const auto tables = std::make_shared<const kp::Weights>(random);

  Engine learned, hand, other;  // every engine starts with the built-in weights
  REQUIRE(hand.set_eval_file("none"));
  other.set_eval_weights(tables);
  CHECK(learned.eval_weights() == builtin);
  CHECK(hand.eval_weights() == nullptr);
  Engine* engines[] = {&learned, &hand, &other};
  for (Engine* e : engines) {
    e->set_hash_size(8);
    e->set_callbacks({});
    REQUIRE(e->set_position("sfen " + sfen));
  }
  CHECK(learned.static_eval() == evaluate(pos, builtin.get()));
  CHECK(hand.static_eval() == evaluate_hand_written(pos));
  CHECK(other.static_eval() == kp::evaluate(random, pos));
  CHECK(learned.static_eval() != hand.static_eval());
  CHECK(other.static_eval() != hand.static_eval());
  CHECK(other.static_eval() != learned.static_eval());

  // A fixed-depth search from a fresh table counts the same nodes every time (the bench signature): each engine
  // alone, then all three at once.
  auto start = [](Engine& e) {
    e.new_game();
    SearchLimits limits;
    limits.depth = 7;
    e.go(limits);
  };
  uint64_t alone[3];
  for (int i = 0; i < 3; ++i) {
    start(*engines[i]);
    engines[i]->wait_for_search_finished();
    alone[i] = engines[i]->nodes_searched();
  }
  CHECK(alone[0] != alone[1]);
  CHECK(alone[2] != alone[1]);
  CHECK(alone[2] != alone[0]);
  for (Engine* e : engines) start(*e);
  for (Engine* e : engines) e->wait_for_search_finished();
  for (int i = 0; i < 3; ++i) CHECK(engines[i]->nodes_searched() == alone[i]);
  MESSAGE("nodes at depth 7: built-in ", alone[0], ", hand-written ", alone[1], ", random tables ", alone[2]);
}

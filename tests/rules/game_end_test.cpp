#include <doctest/doctest.h>

#include <map>

#include "rules/game_end.h"
#include "test_util.h"

using namespace shogi;

TEST_CASE("sennichite on the fourth occurrence is a draw") {
  GameRecord g;
  REQUIRE(g.start("startpos"));
  const char* cycle[] = {"2h3h", "8b7b", "3h2h", "7b8b"};
  for (int i = 0; i < 12; ++i) {
    CHECK(g.status(0).end == GameEnd::None);
    REQUIRE(g.play_usi(cycle[i % 4]));
  }
  GameStatus s = g.status(0);
  CHECK(s.end == GameEnd::Sennichite);
  CHECK(s.draw);
}

TEST_CASE("perpetual check: the side that checked on every move of the cycle loses") {
  // Black's rook checks from 2c and 1c in turn; white's king can only shuttle between 1a and 2a.
  GameRecord g;
  REQUIRE(g.start("sfen 6pk1/9/8R/6NN1/9/9/9/9/K8 b - 1"));
  const char* cycle[] = {"1c2c", "2a1a", "2c1c", "1a2a"};
  for (int i = 0; i < 12; ++i) {
    REQUIRE_MESSAGE(g.status(0).end == GameEnd::None, "ply ", i);
    auto m = g.play_usi(cycle[i % 4]);
    REQUIRE_MESSAGE(m.has_value(), (m ? std::string() : m.error()));
  }
  GameStatus s = g.status(0);
  CHECK(s.end == GameEnd::PerpetualCheck);
  CHECK_FALSE(s.draw);
  CHECK(s.winner == WHITE);
}

TEST_CASE("in-search repetition sees the second occurrence") {
  shogi::test::Board b;
  for (const char* m : {"2h3h", "8b7b", "3h2h", "7b8b"}) b.play(m);
  CHECK(b.pos.repetition(2, 16) == Repetition::Draw);
  CHECK(b.pos.repetition(3, 16) == Repetition::None);
  CHECK(b.pos.repetition(2, 3) == Repetition::None);  // the cycle is 4 plies long
}

TEST_CASE("no legal move loses for the side to move") {
  GameRecord g;
  REQUIRE(g.start("8k/8G/8P/9/9/9/9/9/K8 w - 1"));
  GameStatus s = g.status(0);
  CHECK(s.end == GameEnd::NoLegalMoves);
  CHECK(s.winner == BLACK);
}

TEST_CASE("max moves counts plies from move number 1") {
  GameRecord g;
  REQUIRE(g.start("startpos moves 7g7f 3c3d 2g2f"));
  CHECK(g.status(4).end == GameEnd::None);
  REQUIRE(g.play_usi("4c4d"));
  CHECK(g.status(4).end == GameEnd::MaxMoves);
  CHECK(g.status(4).draw);
  CHECK(g.status(0).end == GameEnd::None);
  CHECK(g.opening_plies() == 3);
  CHECK(g.usi_position_command() == "position startpos moves 7g7f 3c3d 2g2f 4c4d");
}

TEST_CASE("game record start: errors name the move and leave the record intact") {
  GameRecord g;
  REQUIRE(g.start("startpos moves 7g7f"));
  auto r = g.start("startpos moves 7g7f 3c3d 7f7e 5a5b 7e7d 5b5a 7d7c");
  CHECK(r);
  auto bad = g.start("position startpos moves 7g7f 7g7f");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("move 2") != std::string::npos);
  CHECK(g.moves().size() == 7);
  CHECK_FALSE(g.start("startpos 7g7f"));
  CHECK_FALSE(g.start(""));
  REQUIRE(g.start("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 3 moves G*5b"));
  CHECK(g.usi_position_command() == "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 3 moves G*5b");
}

TEST_CASE("entering-king declaration, 27-point rule") {
  // Ten pieces besides the king in the camp: two rooks, two bishops (20) and six small (6), plus two pawns in hand.
  shogi::test::Board b("RRBBGGGGS/4KS3/9/9/9/9/9/9/8k b 2P 1");
  CHECK(declaration_points(b.pos, BLACK) == 28);
  CHECK(check_declaration(b.pos, EnteringKingRule::Point27).valid);
  CHECK_FALSE(check_declaration(b.pos, EnteringKingRule::Point24).valid);  // 24-point rule wants 31
  CHECK_FALSE(check_declaration(b.pos, EnteringKingRule::Off).valid);

  shogi::test::Board short_one("RRBBGGGGS/4KS3/9/9/9/9/9/9/8k b P 1");
  auto c = check_declaration(short_one.pos, EnteringKingRule::Point27);
  CHECK_FALSE(c.valid);
  CHECK(c.reason == "27 points, 28 needed");
  // White needs only 27: the same material, flipped.
  shogi::test::Board white(short_one.pos.flipped_sfen());
  CHECK(check_declaration(white.pos, EnteringKingRule::Point27).valid);

  shogi::test::Board nine("RRBBGGGG1/4KS3/9/9/9/9/9/9/8k b 2PS 1");
  CHECK(check_declaration(nine.pos, EnteringKingRule::Point27).reason ==
        "9 pieces besides the king in the enemy camp, 10 needed");
  shogi::test::Board outside("RRBBGGGGS/5S3/4K4/9/9/9/9/9/8k b 2P 1");
  CHECK(check_declaration(outside.pos, EnteringKingRule::Point27).valid);  // rank 3 is inside the camp
  shogi::test::Board out4("RRBBGGGGS/5S3/9/4K4/9/9/9/9/8k b 2P 1");
  CHECK(check_declaration(out4.pos, EnteringKingRule::Point27).reason == "the king is not in the enemy camp");
  shogi::test::Board checked("RRBBGGGGS/4KS3/3s5/9/9/9/9/9/8k b 2P 1");
  CHECK(check_declaration(checked.pos, EnteringKingRule::Point27).reason == "the king is in check");
}

TEST_CASE("entering-king rule names") {
  CHECK(parse_entering_king_rule("27").value() == EnteringKingRule::Point27);
  CHECK(parse_entering_king_rule("CSARule27").value() == EnteringKingRule::Point27);
  CHECK(parse_entering_king_rule("24").value() == EnteringKingRule::Point24);
  CHECK(parse_entering_king_rule("off").value() == EnteringKingRule::Off);
  CHECK_FALSE(parse_entering_king_rule("25"));
}

TEST_CASE("GameRecord::start: relaxed piece limits admit composed positions, strict ones refuse them") {
  Position::init();
  const std::string three_bishops = "sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1 moves B*5g";
  GameRecord strict;
  const auto refused = strict.start(three_bishops);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().find("too many bishops") != std::string::npos);
  GameRecord relaxed;
  REQUIRE(relaxed.start(three_bishops, PieceLimits::Relaxed).has_value());
  CHECK(relaxed.position().sfen() == "k+n7/sg7/9/9/9/9/+r3B1K1g/7L1/2LN1R1+Bb w RGSNLP 2");
  CHECK(relaxed.moves().size() == 1);
  // A failed start leaves the record as it was, relaxed or not.
  CHECK_FALSE(relaxed.start("sfen k8/9/9/9/9/9/9/9/K7K b - 1", PieceLimits::Relaxed).has_value());
  CHECK(relaxed.position().sfen() == "k+n7/sg7/9/9/9/9/+r3B1K1g/7L1/2LN1R1+Bb w RGSNLP 2");
}

// The game record counts positions as the game goes (O(1) a move) and runs the exact test only at a fourth
// occurrence. Kings and rooks shuffling behind their pawns (no captures, no checks; golds and silvers step in when
// nothing else avoids a fourth occurrence) keep
// every position at three occurrences or fewer for 1,000 plies, always moving to the most-seen position that has not
// been seen three times yet (as close to a repetition as the rule allows); the
// record must call none of them a repetition, then call the first fourth occurrence sennichite. A reference counts
// the positions by their SFEN (no keys involved).
TEST_CASE("a 1,000-ply shuffle near repetition is judged exactly") {
  GameRecord g;
  REQUIRE(g.start("startpos"));
  std::map<std::string, int> seen;  // SFEN without the move number -> occurrences
  auto position_of = [](const Position& p) {
    std::string s = p.sfen();
    return s.substr(0, s.rfind(' '));
  };
  seen[position_of(g.position())] = 1;
  // Where a move leads, on a mirror of the game that can take a move back (the record cannot).
  shogi::test::Board mirror;
  auto after = [&](Move m) {
    StateInfo st;
    mirror.pos.do_move(m, st);
    std::string where = position_of(mirror.pos);
    mirror.pos.undo_move(m);
    return where;
  };
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  auto next = [&] { return rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; };
  int fourth_at = -1;
  for (int ply = 0; ply < 1400 && fourth_at < 0; ++ply) {
    std::vector<Move> closest, repeating;  // to the most-seen positions below three; to positions seen three times
    int most_seen = -1;
    // Kings and rooks first; golds and silvers only when every king and rook move would make a fourth occurrence.
    for (bool widen : {false, true}) {
      if (!closest.empty()) break;
      for (const auto& em : MoveList<LEGAL>(g.position())) {
        const Move m = em.move;
        if (is_drop(m) || g.position().is_capture(m) || is_promotion(m) || g.position().gives_check(m)) continue;
        const PieceType pt = type_of(g.position().piece_on(from_sq(m)));
        if (!(pt == KING || pt == ROOK || (widen && (pt == GOLD || pt == SILVER)))) continue;
        const int n = seen[after(m)];
        if (n >= 3) {
          if (!widen) repeating.push_back(m);
          continue;
        }
        if (n > most_seen) most_seen = n, closest.clear();
        if (n == most_seen) closest.push_back(m);
      }
    }
    REQUIRE(!closest.empty());
    // Stay below four occurrences for 1,000 plies, then take the first move that makes a fourth.
    const bool finish = ply >= 1000 && !repeating.empty();
    const std::vector<Move>& pool = finish ? repeating : closest;
    const Move m = pool[next() % pool.size()];
    REQUIRE(g.play_usi(to_usi(m)));
    mirror.play(to_usi(m));
    const int count = ++seen[position_of(g.position())];
    const GameStatus s = g.status(0);
    if (count < 4) {
      REQUIRE_MESSAGE(s.end == GameEnd::None, "ply ", ply + 1, ": a position seen ", count, " times");
    } else {
      fourth_at = ply + 1;
      CHECK(s.end == GameEnd::Sennichite);
      CHECK(s.draw);
    }
  }
  CHECK(fourth_at > 1000);
  // The count of every position reached three somewhere: the test was near repetition throughout.
  int threes = 0;
  for (const auto& [sfen, n] : seen) threes += n >= 3;
  CHECK(threes > 50);
}

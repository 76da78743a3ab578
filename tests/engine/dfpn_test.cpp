// The df-pn mate solver on its own: long tsume it proves with a line that really mates, disproofs, its node budget,
// the defender's full hand (interpositions everywhere), and a table kept from one solve to the next.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "search/dfpn.h"

using namespace shogi;

namespace {

struct Solved {
  MateResult result;
  uint64_t nodes = 0;
};

Solved solve(DfpnSolver& solver, const std::string& sfen, uint64_t max_nodes = 0) {
  Position::init();
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(sfen, &st).has_value());
  const std::string before = pos.sfen();
  std::atomic<bool> stop{false};
  Solved s{solver.solve(pos, max_nodes, stop), solver.nodes()};
  CHECK(pos.sfen() == before);  // every move taken back
  CHECK(pos.validate().empty());
  return s;
}

// Plays the line: every move legal, every attacker move a check, and no legal reply at the end.
bool really_mates(const std::string& sfen, const std::vector<Move>& line) {
  Position pos;
  std::deque<StateInfo> st(1);
  (void)pos.set(sfen, &st.back());
  const Color attacker = pos.side_to_move();
  for (Move m : line) {
    if (!MoveList<LEGAL>(pos).contains(m)) return false;
    if (pos.side_to_move() == attacker && !pos.gives_check(m)) return false;
    st.emplace_back();
    pos.do_move(m, st.back());
  }
  return line.size() % 2 == 1 && MoveList<LEGAL>(pos).size() == 0;
}

std::string line_text(const std::vector<Move>& line) {
  std::string out;
  for (Move m : line) out += to_usi(m) + " ";
  return out;
}

}  // namespace

TEST_CASE("df-pn proves long tsume of the Edo era with lines that mate") {
  // Classic problems (Shogi Zuko #2 and #11, 1755), the defender holding every piece the attacker does not: 21 and
  // 49 plies as published. df-pn proves each in a few thousand nodes, where iterative deepening to those lengths
  // does not end in any reasonable time.
  struct Problem {
    const char* sfen;
    size_t published_plies;
    const char* first;
  };
  const Problem problems[] = {
      {"9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1", 21, "2h2g"},
      {"r+b2n4/1Pk1p4/pp1sG4/N1+s1+p4/2P1+R4/+pB1LN4/9/9/9 b SN3gs3l11p 1", 49, "6f6c+"},
  };
  DfpnSolver solver(16);
  for (const Problem& p : problems) {
    const Solved s = solve(solver, p.sfen, 2'000'000);
    INFO(p.sfen, ": ", line_text(s.result.pv), "(", s.nodes, " nodes)");
    REQUIRE(s.result.status == MateResult::Status::Mate);
    CHECK(really_mates(p.sfen, s.result.pv));
    CHECK(to_usi(s.result.pv[0]) == p.first);
    // Tsume count the longest defence without useless interpositions; a line of plain shogi may differ a little.
    CHECK(s.result.pv.size() + 8 >= p.published_plies);
  }
}

TEST_CASE("df-pn through a defender's full hand: interpositions on every square of a bishop's line") {
  // Two bishops and a king against a king in the corner whose side holds every other piece: each distant check
  // can be answered by seven kinds of drop on each square between. Counted one by one the interpositions made the
  // proof numbers hopeless; as one child per square they are proven (13 plies).
  const std::string sfen = "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1";
  DfpnSolver solver(16);
  const Solved s = solve(solver, sfen, 1'000'000);
  INFO(line_text(s.result.pv), "(", s.nodes, " nodes)");
  REQUIRE(s.result.status == MateResult::Status::Mate);
  CHECK(really_mates(sfen, s.result.pv));
  CHECK(s.result.pv.size() == 13);
}

TEST_CASE("df-pn disproves: no check, a check the king takes, a mate only by an illegal pawn drop") {
  DfpnSolver solver(4);
  // Nothing to check with.
  CHECK(solve(solver, "4k4/9/9/9/9/9/9/9/4K4 b - 1").result.status == MateResult::Status::NoMate);
  // P*5b checks; the king takes the pawn, and the attacker has nothing left.
  CHECK(solve(solver, "4k4/9/9/9/9/9/9/9/4K4 b P 1").result.status == MateResult::Status::NoMate);
  // P*1b would mate but is uchifuzume, so illegal; every other check fails too (the mate in 3 there begins with a
  // quiet move, outside a mate search). Proven, where iterative deepening only runs out of time.
  CHECK(solve(solver, "7lk/9/8S/9/9/9/9/7L1/8K b P 1").result.status == MateResult::Status::NoMate);
}

TEST_CASE("df-pn gives up at its node budget and leaves the position as it was") {
  DfpnSolver solver(4);
  const Solved s = solve(solver, "r+b2n4/1Pk1p4/pp1sG4/N1+s1+p4/2P1+R4/+pB1LN4/9/9/9 b SN3gs3l11p 1", 500);
  CHECK(s.result.status == MateResult::Status::Timeout);
  CHECK(s.result.pv.empty());
  CHECK(s.nodes <= 501);
}

TEST_CASE("df-pn keeps its table between solves without mixing them up") {
  // A small table, solves of different positions one after the other, then the first again: each answer is the
  // one a fresh solver gives (entries of an earlier solve are treated as empty).
  DfpnSolver shared(1);
  const std::string mate = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
  const std::string no_mate = "4k4/9/9/9/9/9/9/9/4K4 b P 1";
  const std::string corner = "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1";
  for (int round = 0; round < 2; ++round) {
    const Solved a = solve(shared, mate, 2'000'000);
    REQUIRE(a.result.status == MateResult::Status::Mate);
    CHECK(really_mates(mate, a.result.pv));
    CHECK(solve(shared, no_mate).result.status == MateResult::Status::NoMate);
    const Solved c = solve(shared, corner, 1'000'000);
    REQUIRE(c.result.status == MateResult::Status::Mate);
    CHECK(really_mates(corner, c.result.pv));
  }
}

TEST_CASE("df-pn plays no mate through a position the game has seen three times") {
  // The start position R (black to move, K 1a, rook 2e, silver in hand: S*1b mates) comes back twice by shuffling
  // the silvers; then 2e5e 1a2a. From there 5e2e 2a1a S*1b mates by checks alone, but 2a1a makes R's fourth
  // occurrence: sennichite ends the game first, and no other line of checks mates.
  const std::string start = "6l1k/s5p2/8P/9/7R1/9/9/S8/9 b S 1";
  const std::string after_moves = "6lk1/s5p2/8P/9/4R4/9/9/S8/9 b S";
  const std::string after = after_moves + " 1";  // the same position without the history
  DfpnSolver solver(1);
  const Solved fresh = solve(solver, after);
  REQUIRE(fresh.result.status == MateResult::Status::Mate);
  CHECK(line_text(fresh.result.pv) == "5e2e 2a1a S*1b ");

  Position pos;
  std::deque<StateInfo> states(1);
  REQUIRE(pos.set(start, &states.back()).has_value());
  for (const char* text : {"9h8i", "9b8a", "8i9h", "8a9b", "9h8i", "9b8a", "8i9h", "8a9b", "2e5e", "1a2a"}) {
    const auto m = parse_usi_move(pos, text);
    REQUIRE(m.has_value());
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
  REQUIRE(pos.sfen() == after_moves + " 11");
  std::atomic<bool> stop{false};
  const MateResult r = solver.solve(pos, 1'000'000, stop);
  INFO("line: " << line_text(r.pv));
  CHECK(r.status == MateResult::Status::NoMate);
  // The same position without the history is mate again for the same solver: nothing of this solve stays behind.
  CHECK(solve(solver, after).result.status == MateResult::Status::Mate);
}

TEST_CASE("slow: the long mates of tests/engine/long_mates.tsv, each within 8 million nodes") {
  const char* slow = std::getenv("SHOGI_ARENA_SLOW_TESTS");
  if (!slow || std::string(slow) != "1") {
    MESSAGE("skipped: set SHOGI_ARENA_SLOW_TESTS=1 (about a minute)");
    return;
  }
  std::ifstream in(std::string(SHOGI_ARENA_SOURCE_DIR) + "/tests/engine/long_mates.tsv");
  REQUIRE(in);
  DfpnSolver solver(64);
  int rows = 0, proven = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::string sfen = line.substr(0, line.find('\t'));
    ++rows;
    const Solved s = solve(solver, sfen, 8'000'000);
    INFO(sfen, ": ", line_text(s.result.pv));
    CHECK(s.result.status != MateResult::Status::NoMate);  // each is a mate
    if (s.result.status != MateResult::Status::Mate) continue;
    CHECK(really_mates(sfen, s.result.pv));
    ++proven;
  }
  CHECK(rows == 26);
  CHECK(proven >= 22);  // README, "Mates: df-pn"
}

TEST_CASE("shorter_mate: a shorter mate than df-pn's line, every shorter length searched, or gives up at its budget") {
  Position::init();
  std::atomic<bool> stop{false};
  // nshogi res/test/mate-5-ply.txt: df-pn's first line is 21 plies.
  const std::string sfen = "4+Rb2l/3g1p1s1/3ppk3/p1+B2gpSp/4n2nP/2P+pP1PP1/P6KL/3P1+rg2/6N2 w GNL3P2slp 154";
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(sfen, &st).has_value());
  DfpnSolver dfpn(1);
  const MateResult proof = dfpn.solve(pos, 0, stop);
  REQUIRE(proof.status == MateResult::Status::Mate);
  CHECK(proof.pv.size() > 5);

  const ShorterMate s = shorter_mate(pos, int(proof.pv.size()), stop, 0);
  CHECK(s.shortest);
  REQUIRE(s.pv.size() == 5);
  CHECK(really_mates(sfen, s.pv));
  CHECK(pos.key() == st.key());  // the position is left as it was

  // At its own length there is nothing shorter: searched to the end, no line.
  const ShorterMate none = shorter_mate(pos, 5, stop, 0);
  CHECK(none.shortest);
  CHECK(none.pv.empty());

  // A budget too small to search the lengths below: no line, and not known to be the shortest.
  const ShorterMate cut = shorter_mate(pos, int(proof.pv.size()), stop, 50);
  CHECK_FALSE(cut.shortest);
  CHECK(cut.pv.empty());
  CHECK(cut.nodes <= 60);
}

TEST_CASE("the check-only solver's last ply: a distant check mates unless the defender can drop between") {
  Position::init();
  std::atomic<bool> stop{false};
  // The king on 1a is shut in by its own lance and pawn; a lance dropped on file 1 two or more squares away checks.
  // With nothing in hand it mates; a gold, or a knight, dropped between answers it.
  struct Case {
    const char* sfen;
    bool mate;
  };
  for (const Case& c : {Case{"7lk/7p1/9/9/9/9/9/9/9 b L 1", true}, Case{"7lk/7p1/9/9/9/9/9/9/9 b Lg 1", false},
                        Case{"7lk/7p1/9/9/9/9/9/9/9 b Ln 1", false}}) {
    INFO(c.sfen);
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(c.sfen, &st).has_value());
    MateSolver solver;
    const MateResult r = solver.solve(pos, 1, stop);
    CHECK((r.status == MateResult::Status::Mate) == c.mate);
    if (c.mate) {
      REQUIRE(r.pv.size() == 1);
      CHECK(really_mates(c.sfen, r.pv));
    }
  }
}

TEST_CASE("a check-only solver kept for many solves answers each as a fresh one does") {
  // A search keeps one solver to shorten its mates: each solve() forgets what the last one stored (a no-mate entry
  // holds for its root's history only: a repetition ends a line), without clearing the table.
  Position::init();
  std::atomic<bool> stop{false};
  const std::vector<std::pair<std::string, int>> rows = {
      {"4+Rb2l/3g1p1s1/3ppk3/p1+B2gpSp/4n2nP/2P+pP1PP1/P6KL/3P1+rg2/6N2 w GNL3P2slp 154", 3},
      {"4+Rb2l/3g1p1s1/3ppk3/p1+B2gpSp/4n2nP/2P+pP1PP1/P6KL/3P1+rg2/6N2 w GNL3P2slp 154", 7},
      {"7lk/7p1/9/9/9/9/9/9/9 b Lg 1", 5},
      {"7lk/7p1/9/9/9/9/9/9/9 b L 1", 3},
      {"4+Rb2l/3g1p1s1/3ppk3/p1+B2gpSp/4n2nP/2P+pP1PP1/P6KL/3P1+rg2/6N2 w GNL3P2slp 154", 5},
  };
  MateSolver kept;
  for (const auto& [sfen, plies] : rows) {
    INFO(sfen, " within ", plies);
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(sfen, &st).has_value());
    MateSolver fresh;
    const MateResult a = kept.solve(pos, plies, stop), b = fresh.solve(pos, plies, stop);
    CHECK(a.status == b.status);
    CHECK(a.pv == b.pv);
    CHECK(kept.nodes() == fresh.nodes());
    CHECK(kept.gave_up() == fresh.gave_up());
  }
}

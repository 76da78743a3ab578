// Mates from ../shared/positions: every mate of up to 7 plies is found with the right `score mate n` and a mating
// first move, `go mate` solves them, and nothing in no_mate.tsv is reported as a mate within its bound.
#include <doctest/doctest.h>

#include <condition_variable>
#include <optional>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "search/engine.h"
#include "search/mate.h"

using namespace shogi;

namespace {

struct Row {
  std::string sfen;
  int plies = 0;
  std::string first_move;
};

std::vector<Row> read_rows(const std::string& file) {
  std::vector<Row> rows;
  std::ifstream in(std::string(SHOGI_ARENA_SHARED_DIR) + "/positions/" + file);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Row r;
    std::string plies;
    std::getline(ls, r.sfen, '\t');
    std::getline(ls, plies, '\t');
    std::getline(ls, r.first_move, '\t');
    r.plies = std::stoi(plies);
    rows.push_back(r);
  }
  return rows;
}

bool shared_available() {
  if (std::filesystem::exists(std::string(SHOGI_ARENA_SHARED_DIR) + "/positions/mates.tsv")) return true;
  MESSAGE("skipped: " << SHOGI_ARENA_SHARED_DIR << "/positions not present");
  return false;
}

struct Result {
  Value last_score = VALUE_NONE;
  std::vector<Value> mate_scores;  // every info line's mate score for the side to move, bounds included
  Move best = MOVE_NONE;
  std::optional<CheckmateStatus> mate_status;
  std::vector<Move> mate_pv;
};

Result run(Engine& engine, const std::string& sfen, SearchLimits limits) {
  Result r;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  SearchCallbacks cb;
  cb.on_info = [&](const InfoFull& info) {
    std::lock_guard lock(m);
    if (info.multipv == 1 && !info.lowerbound && !info.upperbound) r.last_score = info.score;
    if (info.score >= VALUE_MATE_IN_MAX_PLY) r.mate_scores.push_back(info.score);
  };
  auto finish = [&] {
    std::lock_guard lock(m);
    done = true;
    cv.notify_all();
  };
  cb.on_bestmove = [&](Move best, Move) {
    r.best = best;
    finish();
  };
  cb.on_checkmate = [&](CheckmateStatus status, const std::vector<Move>& pv) {
    r.mate_status = status;
    r.mate_pv = pv;
    finish();
  };
  engine.set_callbacks(cb);
  REQUIRE(engine.set_position("sfen " + sfen).has_value());
  engine.go(limits);
  std::unique_lock lock(m);
  cv.wait(lock, [&] { return done; });
  lock.unlock();
  engine.wait_for_search_finished();
  return r;
}

// `go btime 0 wtime 0 byoyomi <ms>`, as a GUI sends it in a byoyomi game.
SearchLimits byoyomi_only(int64_t ms) {
  SearchLimits limits;
  limits.time[BLACK] = limits.time[WHITE] = 0;
  limits.byoyomi[BLACK] = limits.byoyomi[WHITE] = ms;
  return limits;
}

// `go mate <ms>`.
SearchLimits go_mate(int64_t ms) {
  SearchLimits limits;
  limits.mate_search = true;
  limits.mate_time = ms;
  return limits;
}

// After `first`, every defence still loses to a mate in the remaining plies (checked by the exhaustive solver
// for lines of checks, or directly when it is mate at once).
bool mates_in(const std::string& sfen, Move first, int plies) {
  Position pos;
  std::deque<StateInfo> st(2);
  (void)pos.set(sfen, &st[0]);
  if (!MoveList<LEGAL>(pos).contains(first)) return false;
  pos.do_move(first, st[1]);
  MoveList<LEGAL> replies(pos);
  if (plies == 1) return replies.size() == 0;
  std::atomic<bool> stop{false};
  for (const ExtMove& reply : replies) {
    StateInfo s;
    pos.do_move(reply.move, s);
    MateSolver solver;
    const bool mate = solver.solve(pos, plies - 2, stop).status == MateResult::Status::Mate;
    pos.undo_move(reply.move);
    if (!mate) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("mates of up to 7 plies: score mate n of the right length and a mating first move") {
  if (!shared_available()) return;
  Engine engine;
  engine.set_hash_size(32);
  engine.ready();
  int tested = 0;
  for (const Row& row : read_rows("mates.tsv")) {
    if (row.plies > 7) continue;
    engine.new_game();
    SearchLimits limits;
    limits.movetime = 20000;  // a proven mate stops the search long before
    const Result r = run(engine, row.sfen, limits);
    INFO(row.sfen, " expected mate ", row.plies, " (", row.first_move, "), got ", to_usi(r.best));
    CHECK(r.last_score == mate_in(row.plies));
    // A first move other than the listed one is fine if it mates as fast; the solver only proves check-only
    // lines, so such an alternative must be a check-mating sequence.
    const bool listed = to_usi(r.best) == row.first_move;
    CHECK((listed || mates_in(row.sfen, r.best, row.plies)));
    ++tested;
  }
  CHECK(tested >= 25);
}

TEST_CASE("go mate solves the mates of up to 7 plies with a line that really mates") {
  if (!shared_available()) return;
  Engine engine;
  engine.ready();
  for (const Row& row : read_rows("mates.tsv")) {
    if (row.plies > 7) continue;
    const SearchLimits limits = go_mate(20000);
    const Result r = run(engine, row.sfen, limits);
    INFO(row.sfen);
    REQUIRE(r.mate_status == CheckmateStatus::Mate);
    // Play the line: every attacker move checks, and the final position has no legal reply.
    Position pos;
    std::deque<StateInfo> st(1);
    (void)pos.set(row.sfen, &st.back());
    const Color attacker = pos.side_to_move();
    for (Move m : r.mate_pv) {
      REQUIRE(MoveList<LEGAL>(pos).contains(m));
      const bool check = pos.gives_check(m);
      if (pos.side_to_move() == attacker) CHECK(check);
      st.emplace_back();
      pos.do_move(m, st.back());
    }
    CHECK(r.mate_pv.size() % 2 == 1);
    CHECK(int(r.mate_pv.size()) <= row.plies);
    CHECK(MoveList<LEGAL>(pos).size() == 0);
  }
}

TEST_CASE("no_mate.tsv: no mate within the stated bound is reported") {
  if (!shared_available()) return;
  Engine engine;
  engine.ready();
  for (const Row& row : read_rows("no_mate.tsv")) {
    SearchLimits limits;
    limits.movetime = 1500;
    const Result r = run(engine, row.sfen, limits);
    INFO(row.sfen);
    const bool short_mate = r.last_score != VALUE_NONE && r.last_score >= mate_in(row.plies);
    CHECK_FALSE(short_mate);

    const SearchLimits mate_limits = go_mate(3000);
    const Result m = run(engine, row.sfen, mate_limits);
    if (m.mate_status == CheckmateStatus::Mate) CHECK(int(m.mate_pv.size()) > row.plies);
  }
}

TEST_CASE("a mate that needs a non-promotion: the shortest one is found by the search and by go mate") {
  // 2d2b must not promote: after 3c3b the pawn drop P*4c checks, and with a dragon on 2b covering 3c it would be
  // a pawn-drop mate (illegal); the unpromoted rook leaves 3c open, so the drop is legal and 2b2d+ then mates.
  // Without non-promotions there is no mate within 7 plies (checked with a check-only solver when this was found).
  const std::string sfen = "5g3/5k1+pG/6g2/7R1/7+B1/4L4/9/9/K8 b - 1";
  Engine engine;
  engine.ready();
  const Result r = run(engine, sfen, byoyomi_only(5000));
  CHECK(r.last_score == mate_in(5));
  CHECK(to_usi(r.best) == "2d2b");

  const SearchLimits mate_limits = go_mate(20000);
  const Result m = run(engine, sfen, mate_limits);
  REQUIRE(m.mate_status == CheckmateStatus::Mate);
  CHECK(m.mate_pv.size() == 5);
  REQUIRE_FALSE(m.mate_pv.empty());
  CHECK(to_usi(m.mate_pv[0]) == "2d2b");
}

TEST_CASE("no mate is reported where the only mating move would be a pawn-drop mate") {
  // P*1b would mate (the silver on 1c guards the pawn, and with the lance on 2h covers 2b) but is uchifuzume, so
  // illegal; P*2b then mates in 3. The search must not report a mate in 1, and its move must not be the illegal drop.
  const std::string sfen = "7lk/9/8S/9/9/9/9/7L1/8K b P 1";
  Engine engine;
  engine.ready();
  const Result r = run(engine, sfen, byoyomi_only(2000));
  CHECK(r.last_score != mate_in(1));
  CHECK(to_usi(r.best) != "P*1b");
  CHECK(r.last_score == mate_in(3));
}

TEST_CASE("the shortest mate is reported when a longer one is found first") {
  // R*1b mates in 7 and is found at depth 3; 6b4d+ 2b1c R*1e 1c2c G*1d mates in 5. The search used to keep mate 7
  // to depth 15 and stop there as proven: razoring cut the attacker's nodes (quiescence never finds the mate) and
  // move-count pruning skipped the checking drop R*1e, although only a mate could beat alpha there.
  const std::string sfen = "7S1/3B2sk1/5P3/9/1B7/9/9/9/8K b RGS 1";
  Engine engine;
  engine.ready();
  const Result r = run(engine, sfen, byoyomi_only(5000));
  CHECK(r.last_score == mate_in(5));
  CHECK(mates_in(sfen, r.best, 5));
}

TEST_CASE("a long mate the search prunes past is played: df-pn at the root of a timed search") {
  // Shogi Zuko #11 (1755), 49 plies: alpha-beta alone at one second a move (generation 2 weights) scores it -834
  // and plays 8b8a+; df-pn proves the mate in a few thousand nodes.
  const std::string sfen = "r+b2n4/1Pk1p4/pp1sG4/N1+s1+p4/2P1+R4/+pB1LN4/9/9/9 b SN3gs3l11p 1";
  Engine engine;
  engine.ready();
  const Result r = run(engine, sfen, byoyomi_only(1000));
  // df-pn's mate starts 6f6c+ (49 plies). The search may find a shorter one that is no tsume: 7e7d, a quiet pawn
  // capture (the attacker has no king to lose), after which a 20 s search mates the defender in 12.
  const std::string best = to_usi(r.best);
  CHECK((best == "6f6c+" || best == "7e7d"));
  REQUIRE(r.last_score != VALUE_NONE);
  CHECK(r.last_score >= VALUE_MATE_IN_MAX_PLY);

  // Fixed depths stay as they were: no df-pn, no mate seen. A fresh engine: the timed search's hash table knows
  // the mates it found.
  Engine fresh;
  fresh.ready();
  SearchLimits depth;
  depth.depth = 6;
  const Result d = run(fresh, sfen, depth);
  CHECK(d.last_score < VALUE_MATE_IN_MAX_PLY);
}

TEST_CASE("go mate: a 21-ply tsume proven by df-pn, and nomate where no check mates") {
  Engine engine;
  engine.ready();
  // Every shorter length of a 21-ply mate is more than 20 s of search: the first proof is the answer here.
  engine.options().shortest_mate = false;
  const SearchLimits limits = go_mate(20000);
  // Shogi Zuko #2 (1755).
  const std::string sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
  const Result r = run(engine, sfen, limits);
  REQUIRE(r.mate_status == CheckmateStatus::Mate);
  REQUIRE_FALSE(r.mate_pv.empty());
  CHECK(to_usi(r.mate_pv[0]) == "2h2g");
  CHECK(r.mate_pv.size() % 2 == 1);
  CHECK(r.mate_pv.size() <= 21);

  const Result none = run(engine, "4k4/9/9/9/9/9/9/9/4K4 b P 1", limits);
  CHECK(none.mate_status == CheckmateStatus::NoMate);
}

// The mate that df-pn proves first at the root is often not the shortest (its table holds the attacker's shortest
// proven reply, not the shortest there is): these game positions (nyashiki/nshogi res/test/mate-9-ply.txt) have a
// 9-ply mate and df-pn's first line is 27 and 15 plies long. A mate score is a claim: every line says 9.
TEST_CASE("a timed search claims the shortest mate proven, never df-pn's longer first line") {
  const std::vector<std::string> sfens = {
      "3g2sn1/6+N2/p6p1/6p1p/9/P1l3P1P/1PPPPP2k/2G1S2+r1/LN1KSg+rP1 w 3P2bgsn2l2p 104",
      "1GS1k3l/2r6/3g1L1P1/p1p1pSp1p/1n1p3p1/PPP1N1PbP/2SPP4/1KG2+r3/LN1+p3N+b w gsl2p 96",
  };
  for (const std::string& sfen : sfens) {
    INFO(sfen);
    Engine engine;
    engine.ready();
    const Result r = run(engine, sfen, byoyomi_only(1000));
    CHECK(r.last_score == mate_in(9));
    CHECK(mates_in(sfen, r.best, 9));
    REQUIRE_FALSE(r.mate_scores.empty());
    for (Value v : r.mate_scores) CHECK(v == mate_in(9));
  }
}

TEST_CASE("go mate answers the shortest mate by checks, or the first proof with ShortestMate off") {
  // df-pn's first line here is 21 plies; the shortest is 5 (nshogi res/test/mate-5-ply.txt).
  const std::string sfen = "4+Rb2l/3g1p1s1/3ppk3/p1+B2gpSp/4n2nP/2P+pP1PP1/P6KL/3P1+rg2/6N2 w GNL3P2slp 154";
  Engine engine;
  engine.ready();
  const SearchLimits limits = go_mate(20000);
  const Result r = run(engine, sfen, limits);
  REQUIRE(r.mate_status == CheckmateStatus::Mate);
  CHECK(r.mate_pv.size() == 5);
  REQUIRE_FALSE(r.mate_pv.empty());
  CHECK(mates_in(sfen, r.mate_pv[0], 5));

  engine.options().shortest_mate = false;
  const Result first = run(engine, sfen, limits);
  REQUIRE(first.mate_status == CheckmateStatus::Mate);
  // Within half df-pn's nodes (and at least 100,000) the cheap pass finds the 5 as well; the answer is never longer
  // than df-pn's line.
  CHECK(first.mate_pv.size() <= 21);
  CHECK(first.mate_pv.size() % 2 == 1);
}

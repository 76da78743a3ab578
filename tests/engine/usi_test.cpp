// The USI loop: declarations, robustness against bad input, perft, bench determinism, ponder and stop.
#include <condition_variable>
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "eval/builtin_weights.h"
#include "eval/evaluate.h"
#include "eval/kp.h"
#include "rules/game_end.h"
#include "rules/notation.h"
#include "usi/bench.h"
#include "usi/usi.h"

using namespace shogi;

namespace {

// The engine writes from its search thread while the test reads: the buffer takes a lock for both. Recursive,
// because the stream may call overflow() from inside xsputn().
class LockedStringBuf : public std::stringbuf {
 public:
  std::string snapshot() const {
    std::lock_guard lock(mutex_);
    return str();
  }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    return std::stringbuf::xsputn(s, n);
  }
  int_type overflow(int_type c) override {
    std::lock_guard lock(mutex_);
    return std::stringbuf::overflow(c);
  }

 private:
  mutable std::recursive_mutex mutex_;
};

struct Session {
  std::istringstream in;
  LockedStringBuf buf;
  std::ostream out{&buf};
  usi::UsiLoop loop{in, out};
  void send(std::string_view line) { loop.execute(line); }
  void wait() { loop.engine().wait_for_search_finished(); }
  std::string text() const { return buf.snapshot(); }
  size_t count(std::string_view needle) const {
    size_t n = 0;
    for (size_t at = 0; (at = text().find(needle, at)) != std::string::npos; at += needle.size()) ++n;
    return n;
  }
  std::string last_bestmove() const {
    const std::string t = text();
    const size_t at = t.rfind("bestmove ");
    if (at == std::string::npos) return {};
    return t.substr(at + 9, t.find_first_of(" \n", at + 9) - at - 9);
  }
};

}  // namespace

TEST_CASE("usi: identification and every option with type, default and range") {
  Session s;
  s.send("usi");
  const std::string t = s.text();
  CHECK(t.find("id name ") != std::string::npos);
  CHECK(t.find("id author ") != std::string::npos);
  for (const char* decl : {"option name USI_Hash type spin default 64 min 1 max 65536",
                           "option name Threads type spin default 1 min 1 max 256",
                           "option name USI_Ponder type check default false", "option name MultiPV type spin default 1",
                           "option name NetworkDelay type spin", "option name NetworkDelay2 type spin",
                           "option name MinimumThinkingTime type spin", "option name SlowMover type spin default 100",
                           "option name RoundUpToFullSecond type check default false",
                           "option name ResignValue type spin", "option name DrawValue type spin default 0",
                           "option name EnteringKingRule type combo default CSARule27",
                           "option name DepthLimit type spin default 0", "option name NodesLimit type spin default 0"})
    CHECK_MESSAGE(t.find(decl) != std::string::npos, decl);
  CHECK(t.rfind("usiok") != std::string::npos);
  s.send("isready");
  CHECK(s.text().find("readyok") != std::string::npos);
}

TEST_CASE("usi: bad input gets an info string and the engine keeps working on the right position") {
  Session s;
  s.send("isready");
  const char* bad[] = {
      "frobnicate",
      "setoption name Threads value many",
      "setoption name Threads value 0",
      "setoption name NoSuchOption value 1",
      "setoption name EnteringKingRule value sometimes",
      "setoption",
      "position sfen this is not a position",
      "position startpos moves 7g7f 7g7f",
      "position startpos moves 5a5b",
      "gameover perhaps",
      "go depth many",
      "go wibble",
  };
  for (const char* line : bad) {
    const size_t before = s.count("info string");
    s.send(line);
    // A go with unusable limits still searches (a GUI expects a bestmove); end it.
    if (std::string_view(line).starts_with("go")) s.send("stop");
    s.wait();
    CHECK_MESSAGE(s.count("info string") > before, line);
  }
  // A valid position after all that: the engine searches it and answers a legal move.
  s.send("position startpos moves 2g2f");
  s.send("d");
  CHECK(s.text().find("lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2") != std::string::npos);
  s.send("go depth 4");
  s.wait();
  const std::string best = s.last_bestmove();
  Position::init();
  Position pos;
  StateInfo st, st2;
  REQUIRE(pos.set("startpos", &st).has_value());
  pos.do_move(*parse_usi_move(pos, "2g2f"), st2);
  CHECK_MESSAGE(parse_usi_move(pos, best).has_value(), best);
}

TEST_CASE("usi: after a refused position, go never searches the previous one: an info string and resign") {
  Session s;
  s.send("isready");
  s.send("position startpos moves 2g2f");
  // An illegal move list: the GUI's game is somewhere this engine cannot follow.
  s.send("position startpos moves 2g2f 2g2f");
  CHECK(s.text().find("bad position: ") != std::string::npos);
  s.send("d");
  CHECK(s.text().find("info string no position: ") != std::string::npos);
  CHECK(s.text().find(" w - 2") == std::string::npos);  // the previous position is not shown as if current

  SUBCASE("a timed go answers resign at once") {
    s.send("go btime 1000 wtime 1000 byoyomi 1000");
    s.wait();
    CHECK(s.last_bestmove() == "resign");
    CHECK(s.count("bestmove") == 1);
    CHECK(s.text().find("info string go: no position: ") != std::string::npos);
  }
  SUBCASE("go perft prints the error and no count") {
    s.send("go perft 2");
    CHECK(s.text().find("info string go: no position: ") != std::string::npos);
    CHECK(s.text().find("Nodes searched") == std::string::npos);
  }
  SUBCASE("go mate answers nomate") {
    s.send("go mate 1000");
    CHECK(s.text().find("checkmate nomate") != std::string::npos);
  }
  SUBCASE("go ponder and go infinite hold the resign until ponderhit or stop, as USI requires") {
    s.send("go ponder btime 1000 wtime 1000 byoyomi 1000");
    CHECK(s.count("bestmove") == 0);
    s.send("ponderhit");
    CHECK(s.last_bestmove() == "resign");
    s.send("go infinite");
    CHECK(s.count("bestmove") == 1);
    s.send("stop");
    CHECK(s.count("bestmove resign") == 2);
  }
  SUBCASE("an unparsable SFEN refuses the same way") {
    s.send("position sfen lnsgkgsnl/9/9/9/9/9/9/9/9 b");
    s.send("go depth 3");
    s.wait();
    CHECK(s.last_bestmove() == "resign");
  }
  // A valid position ends the refusal.
  s.send("position startpos");
  s.send("go depth 3");
  s.wait();
  CHECK(s.last_bestmove() != "resign");
  CHECK_FALSE(s.last_bestmove().empty());
}

TEST_CASE("usi: composed positions with extra pieces are accepted and searched (relaxed piece limits)") {
  Session s;
  s.send("isready");
  // Three bishops (two on the board, one in hand) and three rooks: more than a set has, as in perft suites.
  s.send("position sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1");
  CHECK(s.text().find("bad position") == std::string::npos);
  s.send("go perft 1");
  CHECK(s.text().find("Nodes searched: 45") != std::string::npos);
  s.send("go perft 2");
  CHECK(s.text().find("Nodes searched: 1148") != std::string::npos);
  s.send("go depth 5");
  s.wait();
  Position::init();
  Position pos;
  StateInfo st;
  REQUIRE(pos.set("k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1", &st, PieceLimits::Relaxed).has_value());
  CHECK_MESSAGE(parse_usi_move(pos, s.last_bestmove()).has_value(), s.last_bestmove());
  // Moves after a relaxed start position are followed too.
  s.send("position sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1 moves B*5g");  // the dragon checks along rank g: interpose
  s.send("d");
  CHECK(s.text().find("info string sfen k+n7/sg7/9/9/9/9/+r3B1K1g/7L1/2LN1R1+Bb w RGSNLP 2") != std::string::npos);
  // What no rules can represent is still refused: two black kings.
  s.send("position sfen k8/9/9/9/9/9/9/9/K7K b - 1");
  CHECK(s.text().find("bad position: ") != std::string::npos);
}

TEST_CASE("usi: go perft divides by root move") {
  Session s;
  s.send("position startpos");
  s.send("go perft 3");
  CHECK(s.text().find("\n7g7f: ") != std::string::npos);
  CHECK(s.text().find("Nodes searched: 25470") != std::string::npos);
  CHECK(s.count(": ") >= 31);
}

TEST_CASE("usi: node and depth limits are deterministic with one thread") {
  auto nodes_of = [](const std::string& go) {
    Session s;
    s.send("setoption name USI_Hash value 4");
    s.send("isready");
    s.send("position startpos moves 7g7f 3c3d");
    s.send(go);
    s.wait();
    const std::string t = s.text();
    const size_t at = t.rfind(" nodes ");
    return std::make_pair(t.substr(at, t.find(' ', at + 7) - at), s.last_bestmove());
  };
  CHECK(nodes_of("go depth 7") == nodes_of("go depth 7"));
  CHECK(nodes_of("go nodes 20000") == nodes_of("go nodes 20000"));
}

namespace {

// An output that holds the search thread for a while right after it writes its bestmove, after telling the test:
// the window in which a GUI that reacts at once sends its next command while the search thread winds down.
class SlowAfterBestmove : public std::stringbuf {
 public:
  std::mutex mutex;
  std::condition_variable seen;
  bool bestmove = false;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const std::streamsize r = std::stringbuf::xsputn(s, n);
    if (std::string_view(s, size_t(n)).find("bestmove") != std::string_view::npos) {
      {
        std::lock_guard lock(mutex);
        bestmove = true;
      }
      seen.notify_all();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return r;
  }
};

}  // namespace

TEST_CASE("usi: setoption sent as soon as the bestmove is read is applied, not refused as during a search") {
  // A GUI that changes an option between moves sends it the moment it reads the bestmove, while the search thread
  // may still be winding down: the option must take effect for the next search.
  std::istringstream in;
  SlowAfterBestmove buf;
  std::ostream out(&buf);
  usi::UsiLoop loop(in, out);
  loop.execute("setoption name USI_Hash value 4");
  loop.execute("isready");
  loop.execute("position startpos moves 7g7f 3c3d");
  loop.execute("go nodes 3000");
  {
    std::unique_lock lock(buf.mutex);
    buf.seen.wait(lock, [&] { return buf.bestmove; });
  }
  loop.execute("setoption name MultiPV value 3");
  loop.engine().wait_for_search_finished();
  loop.execute("go nodes 3000");
  loop.engine().wait_for_search_finished();
  const std::string text = buf.str();
  CHECK(text.find("setoption ignored") == std::string::npos);
  CHECK(text.find(" multipv 3 ") != std::string::npos);
}

TEST_CASE("usi: a move whose time is gone before the search begins is still searched, with an info line") {
  // movetime 1 leaves nothing after the move overhead: the first iteration is searched anyway (a referee or a GUI
  // reads a score; the move is a searched one, not the first root move).
  Session s;
  s.send("setoption name USI_Hash value 4");
  s.send("isready");
  s.send("position startpos moves 7g7f 3c3d 6g6f 4c4d 6f6e 4d4e 2h6h 8b4b 6i5h 4a5b 5i4h 4e4f 4g4f 4b4f 4h3h 4f4b "
         "P*4g 3d3e 7f7e 2b8h+ 7i8h B*4e B*7h 4e7h+");
  s.send("go movetime 1");
  s.wait();
  const std::string t = s.text();
  CHECK(t.find("info depth 1 ") != std::string::npos);
  CHECK(t.find(" score cp ") != std::string::npos);
  CHECK(s.last_bestmove() == "6h7h");  // the rook takes the horse back
}

TEST_CASE("bench: the same node count on every run, with the weights it is given; over USI the session's") {
  std::ostringstream a, b, c;
  const auto ra = usi::run_bench(a, kp::builtin_weights(), 5);
  const auto rb = usi::run_bench(b, kp::builtin_weights(), 5);
  CHECK(ra.nodes == rb.nodes);
  CHECK(ra.nodes > 1000);
  CHECK(a.str().find("Nodes searched: ") != std::string::npos);
  CHECK(a.str().find("Nodes/second: ") != std::string::npos);
  const auto hand_written = usi::run_bench(c, nullptr, 5);
  CHECK(hand_written.nodes != ra.nodes);

  // `bench` in a session searches with the session's weights: the built-in ones, then after EvalFile none the
  // hand-written evaluation (README quotes both signatures this way).
  Session s;
  s.send("bench 5");
  CHECK(s.count("Nodes searched: " + std::to_string(ra.nodes) + "\n") == 1);
  s.send("setoption name EvalFile value none");
  s.send("bench 5");
  CHECK(s.count("Nodes searched: " + std::to_string(hand_written.nodes) + "\n") == 1);
}

TEST_CASE(
    "bench with threads and a hash size: one thread and 16 MB is the signature, two threads a time per position") {
  std::ostringstream one, explicit_one, two;
  const auto signature = usi::run_bench(one, kp::builtin_weights(), 5);
  CHECK(usi::run_bench(explicit_one, kp::builtin_weights(), 5, 1, 16).nodes == signature.nodes);
  const auto smp = usi::run_bench(two, kp::builtin_weights(), 5, 2, 8);
  CHECK(smp.nodes > 0);
  for (int i = 1; i <= int(usi::bench_positions().size()); ++i) {
    const std::string head = "position " + std::to_string(i) + ": ";
    const size_t at = two.str().find(head);
    REQUIRE(at != std::string::npos);
    const std::string line = two.str().substr(at, two.str().find('\n', at) - at);
    CHECK(line.find(" nodes, ") != std::string::npos);
    CHECK(line.ends_with(" ms"));
  }

  Session s;
  s.send("bench 5 1 16");
  CHECK(s.count("Nodes searched: " + std::to_string(signature.nodes) + "\n") == 1);
  s.send("bench 5 2 8");
  CHECK(s.count("Nodes searched: ") == 2);
}

TEST_CASE("usi: ponder waits for ponderhit, then the clock runs from ponderhit; stop ends infinite") {
  Session s;
  s.send("isready");
  s.send("position startpos");
  s.send("go ponder btime 1000 wtime 1000 byoyomi 0");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(s.count("bestmove") == 0);  // pondering never answers by itself
  const auto hit = std::chrono::steady_clock::now();
  s.send("ponderhit");
  s.wait();
  const auto took = std::chrono::steady_clock::now() - hit;
  CHECK(s.count("bestmove") == 1);
  // 1 s sudden death allows at most an eighth of the clock (plus scheduling slack under load).
  CHECK(took < std::chrono::milliseconds(1000));

  s.send("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(s.count("bestmove") == 1);
  s.send("isready");  // answered during the search
  CHECK(s.count("readyok") == 2);
  s.send("stop");
  s.wait();
  CHECK(s.count("bestmove") == 2);
}

TEST_CASE("usi: after a ponder that already thought long enough, ponderhit answers at once") {
  // 5 s sudden death allows the first moves an optimum of about 80 ms and a maximum of about 420 ms. A ponder of
  // 1.5 s has thought for longer than the whole maximum: ponderhit must answer at once, as Stockfish does, whatever
  // the iteration in progress (before, the allocation started over and the answer came 150-420 ms after ponderhit,
  // when the ponder's deep iteration ended or at the maximum).
  Session s;
  s.send("isready");
  for (const char* position : {"position startpos moves 7g7f 3c3d", "position startpos moves 2g2f 8c8d"}) {
    s.send("usinewgame");
    s.send(position);
    s.send("go ponder btime 5000 wtime 5000 byoyomi 0");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const auto hit = std::chrono::steady_clock::now();
    s.send("ponderhit");
    s.wait();
    const auto took = std::chrono::steady_clock::now() - hit;
    CHECK(took < std::chrono::milliseconds(100));
  }
  CHECK(s.count("bestmove") == 2);
}

TEST_CASE("usi: ponderhit while the search starts reads no clock state unlocked (a ThreadSanitizer case)") {
  // ponderhit rewrites the time allocation under the wake mutex while the search runs; the search must read it
  // under the same mutex. Nothing else here orders the two threads (no output is read before ponderhit), so a
  // ThreadSanitizer build reports a race when the search reads the allocation bare, as the root's df-pn once did.
  Session s;
  s.send("isready");
  s.send("position startpos");
  s.send("go ponder btime 2000 wtime 2000 byoyomi 500");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  s.send("ponderhit");
  s.wait();
  CHECK(s.count("bestmove") == 1);
}

TEST_CASE("usi: bestmove resign when mated, bestmove win when the declaration holds, MultiPV lines") {
  Session s;
  // Black to move has no legal move: mated.
  s.send("position sfen 8k/9/9/9/9/9/9/7+r1/7gK b - 1");
  s.send("go depth 3");
  s.wait();
  CHECK(s.last_bestmove() == "resign");

  // Black king in the enemy camp with enough pieces and points (CSA 27-point rule: 28 for black).
  s.send("position sfen 2SGKGS2/1R5B1/PPPPPPPPP/9/9/9/9/9/4k4 b 5P 1");
  s.send("go depth 3");
  s.wait();
  CHECK(s.last_bestmove() == "win");
  s.send("setoption name EnteringKingRule value NoEnteringKing");
  s.send("go depth 2");
  s.wait();
  CHECK(s.last_bestmove() != "win");

  s.send("setoption name MultiPV value 3");
  s.send("position startpos");
  s.send("go depth 4");
  s.wait();
  CHECK(s.count("multipv 3") >= 1);
}

TEST_CASE("usi: go mate answers checkmate with a line, or nomate") {
  Session s;
  s.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  s.send("go mate 5000");
  s.wait();
  CHECK(s.text().find("checkmate G*5b") != std::string::npos);
  // A lone king against nothing: no check exists at all, a proof of no mate.
  s.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1");
  s.send("go mate 5000");
  s.wait();
  CHECK(s.text().find("checkmate nomate") != std::string::npos);
}

TEST_CASE("tt stats: on a fixed search the counts behave as the design predicts") {
  auto stats_for = [](int hash_mb) {
    Engine engine;
    engine.set_hash_size(size_t(hash_mb));
    engine.set_hash_statistics(true);
    engine.ready();
    REQUIRE(engine.set_position("sfen l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91"));
    SearchLimits limits;
    limits.depth = 10;
    engine.go(limits);
    engine.wait_for_search_finished();
    return engine.tt().stats();
  };
  const TTStats small = stats_for(1), large = stats_for(64);
  for (const TTStats& s : {small, large}) {
    INFO(s.to_string());
    CHECK(s.probes == s.hits + s.misses + s.fragment_collisions);
    CHECK(s.hits > 0);
    CHECK(s.stores_new <= s.entries);
    // Fragment collisions follow the 1/65536-per-occupied-entry estimate (Poisson bound).
    const double expected = s.expected_fragment_collisions();
    CHECK(double(s.fragment_collisions) <= expected + 5 * std::sqrt(expected) + 5);
  }
  // A table too small for the search overwrites other positions far more often.
  auto share = [](const TTStats& s) {
    return double(s.stores_index_collision) / double(s.stores_new + s.stores_same + s.stores_index_collision);
  };
  CHECK(share(small) > 2 * share(large));
  CHECK(small.fragment_collisions + large.fragment_collisions < small.probes / 1000 + 10);

  Session session;
  session.send("setoption name HashStatistics value true");
  session.send("isready");
  session.send("position startpos");
  session.send("go depth 5");
  session.wait();
  session.send("tt stats");
  CHECK(session.text().find("info string tt stats entries ") != std::string::npos);
}

TEST_CASE("usi: the input stream is untied from the output, so reading never flushes it behind print()'s lock") {
  // Regression: std::cin is tied to std::cout. The protocol thread's getline flushed std::cout while the search
  // thread printed its bestmove under the output lock; the racing flushes wrote that bestmove twice, and the
  // runner took the duplicate as the answer to its next `go` (an illegal move in most games at 10 s).
  std::istringstream in;
  std::ostringstream out;
  in.tie(&out);
  shogi::usi::UsiLoop loop(in, out);
  CHECK(in.tie() == nullptr);
}

TEST_CASE("EvalFile: a missing or foreign file is refused in one line and the evaluation stays; a weights file is used") {
  Session s;
  // A session starts with the built-in weights, as the option's default <empty> says.
  CHECK(s.loop.engine().eval_weights() == kp::builtin_weights());
  s.send("position startpos");
  s.send("eval");
  const std::string before = s.text().substr(s.text().rfind("info string eval"));
  Position::init();
  Position start;
  StateInfo st;
  REQUIRE(start.set(std::string(START_SFEN), &st));
  CHECK(before == "info string eval " + std::to_string(evaluate(start, kp::builtin_weights().get())) +
                      " (side to move)\n");
  s.send("setoption name EvalFile value /nonexistent/weights.bin");
  CHECK(s.count("info string EvalFile: /nonexistent/weights.bin: cannot open (the evaluation in use is unchanged)\n") ==
        1);
  s.send("eval");
  CHECK(s.text().substr(s.text().rfind("info string eval")) == before);

  // Weights that value a pawn in hand at 2,500 centipawns: the evaluation of a position with one shows it.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("shogi-arena-usi-evalfile-" + std::to_string(::getpid()) + ".bin"))
          .string();
  kp::Weights w;
  w.p[size_t(kp::hand_feature(BLACK, BLACK, PAWN, 0))] = int16_t(2500 * kp::WEIGHT_SCALE / 2);
  w.p[size_t(kp::hand_feature(WHITE, BLACK, PAWN, 0))] = int16_t(-2500 * kp::WEIGHT_SCALE / 2);
  REQUIRE(kp::save_weights(w, path));
  s.send("setoption name EvalFile value " + path);
  CHECK(s.count("info string EvalFile: " + path + "\n") == 1);
  s.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1");
  s.send("eval");
  CHECK(s.text().find("info string eval 2500 ") != std::string::npos);
  s.send("position startpos");
  s.send("go nodes 3000");
  s.wait();
  GameRecord g;
  REQUIRE(g.start("startpos"));
  CHECK(parse_usi_move(g.position(), s.last_bestmove()).has_value());
  // none is the hand-written evaluation alone.
  s.send("setoption name EvalFile value none");
  CHECK(s.count("info string EvalFile: the hand-written evaluation\n") == 1);
  CHECK(s.loop.engine().eval_weights() == nullptr);
  s.send("position startpos");
  s.send("eval");
  CHECK(s.text().substr(s.text().rfind("info string eval")) ==
        "info string eval " + std::to_string(evaluate_hand_written(start)) + " (side to move)\n");
  // <empty> is the weights built into the binary: another evaluation than the hand-written one's.
  s.send("setoption name EvalFile value <empty>");
  CHECK(s.count("info string EvalFile: the built-in weights\n") == 1);
  CHECK(s.loop.engine().eval_weights() == kp::builtin_weights());
  s.send("position startpos");
  s.send("eval");
  CHECK(s.text().substr(s.text().rfind("info string eval")) == before);
  s.send("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  s.send("eval");
  const std::string learned = s.text().substr(s.text().rfind("info string eval"));
  s.send("setoption name EvalFile value none");
  s.send("eval");
  CHECK(s.text().substr(s.text().rfind("info string eval")) != learned);
  std::filesystem::remove(path);
}

TEST_CASE(
    "the built-in weights load: the committed engine/eval/default.kpev is a valid file on the hand-written base") {
  auto w = kp::builtin_weights();
  REQUIRE(w);
  CHECK(w->base == kp::Base::HandWritten);
  CHECK(w->p.size() == size_t(kp::FEATURES));
  auto again = kp::builtin_weights();
  CHECK(again.get() == w.get());  // read once
}

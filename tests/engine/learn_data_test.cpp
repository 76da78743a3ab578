// Training data: the 64-byte record round-trips every position, refuses damaged bytes, and gensfen writes only what
// the trainer should see (quiet positions, a legal quiet best move, a bounded score, the game's result), continues
// a file, cuts a torn one, stops on request and plays with its own weights beside other runs; shuffle splits without
// losing or inventing a record; the progress lines report the speed since the previous line.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "learn/commands.h"
#include "learn/gensfen.h"
#include "learn/progress.h"
#include "learn/training_record.h"
#include "learn_files.h"
#include "rules/game_end.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "support/temp_dir.h"

using namespace shogi;
using namespace shogi::learn;
namespace fs = std::filesystem;
using learn_test::read_all;

namespace {

// The SFEN of pos with the move number that a record stores in `ply`.
void check_round_trip(const Position& pos) {
  TrainingRecord r;
  r.position = pack_position(pos);
  r.ply = uint16_t(pos.game_ply());
  auto sfen = record_sfen(r);
  REQUIRE_MESSAGE(sfen.has_value(), pos.sfen());
  CHECK(*sfen == pos.sfen());
}

}  // namespace

TEST_CASE("a record packs every position exactly: random games with captures, drops and promotions") {
  Position::init();
  std::mt19937_64 rng(7);
  int positions = 0;
  for (const char* start : {"startpos", "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
                            // Full hands of every type, and three bishops (a relaxed composition).
                            "sfen 9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
                            "sfen k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1"}) {
    for (int game = 0; game < 20; ++game) {
      GameRecord record;
      REQUIRE(record.start(start, PieceLimits::Relaxed));
      for (int ply = 0; ply < 200; ++ply) {
        check_round_trip(record.position());
        ++positions;
        MoveList<LEGAL> moves(record.position());
        if (moves.size() == 0) break;
        record.play(moves.begin()[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)]);
      }
    }
  }
  CHECK(positions > 10000);
}

TEST_CASE("a damaged record is refused with the reason") {
  Position::init();
  Position pos;
  StateInfo st;
  REQUIRE(pos.set(std::string(START_SFEN), &st));
  TrainingRecord r;
  r.position = pack_position(pos);
  REQUIRE(record_sfen(r));

  TrainingRecord bad = r;
  bad.position[0] |= 0x0f;  // square 1a: white's lance (18) becomes code 31, no piece
  auto e = record_sfen(bad);
  REQUIRE_FALSE(e);
  CHECK(e.error().find("no piece") != std::string::npos);

  // Two black kings.
  bad = r;
  bad.position[0] = uint8_t((bad.position[0] & ~0x1f) | B_KING);
  auto kings = record_sfen(bad);
  REQUIRE_FALSE(kings);
  CHECK(kings.error().find("two kings") != std::string::npos);

  bad = r;
  bad.reserved = 3;
  CHECK_FALSE(record_sfen(bad));
  bad = r;
  bad.result = 2;
  CHECK_FALSE(record_sfen(bad));
}

TEST_CASE("gensfen writes quiet positions with a legal quiet best move, a bounded score and the game's result") {
  Position::init();
  const test_support::TempDir tmp("learn-gensfen");
  const fs::path& dir = tmp.path;
  GensfenOptions o;
  o.output = (dir / "data.bin").string();
  o.positions = 400;
  o.threads = 2;
  o.nodes = 300;
  o.hash_mb = 4;
  o.write_min_ply = 10;
  o.eval_limit = 2000;
  o.progress_seconds = 0;
  o.seed = 5;
  std::atomic<bool> stop{false};
  std::ostringstream log;
  auto summary = run_gensfen(o, log, stop);
  REQUIRE_MESSAGE(summary, (summary ? "" : summary.error()));
  CHECK(summary->positions_before == 0);
  CHECK(summary->positions_written == 400);
  CHECK(summary->games >= 1);
  CHECK_FALSE(summary->interrupted);

  const auto records = read_all(o.output);
  REQUIRE(records.size() == 400);
  CHECK(fs::file_size(o.output) == 400 * RECORD_SIZE);
  int wins = 0, losses = 0;
  for (const TrainingRecord& r : records) {
    auto sfen = record_sfen(r);
    REQUIRE(sfen);
    Position p;
    StateInfo s;
    REQUIRE_MESSAGE(p.set(*sfen, &s, PieceLimits::Relaxed), *sfen);
    INFO(*sfen);
    CHECK_FALSE(p.in_check());
    CHECK(p.game_ply() >= o.write_min_ply);
    CHECK(std::abs(r.score) < o.eval_limit);
    const Move m = p.to_move(Move16(r.move));
    REQUIRE(m != MOVE_NONE);
    CHECK(MoveList<LEGAL>(p).contains(m));
    CHECK_FALSE(p.is_capture_or_promotion(m));
    CHECK((r.result >= -1 && r.result <= 1));
    wins += r.result == 1;
    losses += r.result == -1;
  }
  // Both sides of decided games are written: a win for the mover here is a loss for the mover there.
  CHECK(wins > 0);
  CHECK(losses > 0);
  // A game is written whole, its plies rising: within it the result flips with the side to move.
  int checked = 0;
  for (size_t i = 0; i + 1 < records.size(); ++i) {
    const TrainingRecord &a = records[i], &b = records[i + 1];
    if (b.ply <= a.ply || b.ply - a.ply > 2) continue;  // another game starts here
    const bool same_mover = (b.ply - a.ply) % 2 == 0;
    CHECK(b.result == (same_mover ? a.result : -a.result));
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE("gensfen continues a file, cuts a torn last record, and stops when asked") {
  Position::init();
  const test_support::TempDir tmp("learn-continue");
  const fs::path& dir = tmp.path;
  GensfenOptions o = learn_test::small_selfplay(dir / "data.bin", 100);
  learn_test::generate(o);
  std::atomic<bool> stop{false};
  std::ostringstream log;
  const auto first = read_all(o.output);
  REQUIRE(first.size() == 100);

  // A killed writer left 10 bytes of a record behind.
  {
    std::ofstream out(o.output, std::ios::binary | std::ios::app);
    out.write("0123456789", 10);
  }
  o.positions = 180;
  auto more = run_gensfen(o, log, stop);
  REQUIRE(more);
  CHECK(more->torn_bytes_dropped == 10);
  CHECK(more->positions_before == 100);
  CHECK(more->positions_written == 80);
  const auto second = read_all(o.output);
  REQUIRE(second.size() == 180);
  CHECK(fs::file_size(o.output) == 180 * RECORD_SIZE);
  CHECK(std::equal(first.begin(), first.end(), second.begin(),
                   [](const TrainingRecord& a, const TrainingRecord& b) { return a.position == b.position; }));
  // The continued games are new ones, not a replay of the first run's.
  CHECK(second[100].position != second[0].position);

  // A file that is not training data is not continued (nor cut).
  {
    const std::string other = (dir / "notes.txt").string();
    std::ofstream(other) << std::string(200, 'x');
    GensfenOptions wrong = o;
    wrong.output = other;
    auto refused = run_gensfen(wrong, log, stop);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().find("is not training data") != std::string::npos);
    CHECK(fs::file_size(other) == 200);
  }

  // A file that is already full is left alone.
  auto full = run_gensfen(o, log, stop);
  REQUIRE(full);
  CHECK(full->positions_written == 0);

  // Asked to stop: nothing is written, and the run says it was interrupted.
  o.positions = 10000;
  stop = true;
  auto stopped = run_gensfen(o, log, stop);
  REQUIRE(stopped);
  CHECK(stopped->interrupted);
  CHECK(stopped->positions_written == 0);
  CHECK(read_all(o.output).size() == 180);
}

TEST_CASE("gensfen plays with the weights it is given: runs with other weights at the same time change nothing") {
  // Two configurations in one process (as SPSA or a comparison of weights would run them), each run alone and then
  // both at once: with the weights process-wide, the run started second would have set them for the first.
  Position::init();
  const test_support::TempDir tmp("learn-weights");
  const fs::path& dir = tmp.path;
  GensfenOptions base;
  base.positions = 60;
  base.threads = 1;
  base.nodes = 200;
  base.hash_mb = 4;
  base.write_min_ply = 10;
  base.progress_seconds = 0;
  base.seed = 11;
  GensfenOptions learned = base, hand = base;
  learned.eval_file = "";  // the built-in weights
  hand.eval_file = "none";
  std::atomic<bool> stop{false};
  // The file's bytes, or the error (no doctest assertion here: one of the runs is on another thread).
  auto run = [&](GensfenOptions o, const std::string& name) {
    o.output = (dir / name).string();
    std::ostringstream log;
    if (auto summary = run_gensfen(o, log, stop); !summary) return "gensfen: " + summary.error();
    std::ifstream in(o.output, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string learned_alone = run(learned, "learned-alone.bin"), hand_alone = run(hand, "hand-alone.bin");
  REQUIRE_MESSAGE(learned_alone.size() == 60 * RECORD_SIZE, learned_alone.substr(0, 200));
  REQUIRE_MESSAGE(hand_alone.size() == 60 * RECORD_SIZE, hand_alone.substr(0, 200));
  CHECK(learned_alone != hand_alone);  // the evaluations play different games
  // Deterministic for a seed with one thread: the same again.
  CHECK(run(hand, "hand-again.bin") == hand_alone);

  std::string learned_together, hand_together;
  std::thread other([&] { learned_together = run(learned, "learned-together.bin"); });
  hand_together = run(hand, "hand-together.bin");
  other.join();
  CHECK(learned_together == learned_alone);
  CHECK(hand_together == hand_alone);
}

TEST_CASE("gensfen refuses bad options and a bad openings line with its file and line") {
  Position::init();
  const test_support::TempDir tmp("learn-bad");
  const fs::path& dir = tmp.path;
  std::atomic<bool> stop{false};
  std::ostringstream log;
  GensfenOptions o;
  o.output = (dir / "data.bin").string();
  o.progress_seconds = 0;
  o.nodes = 0;
  CHECK_FALSE(run_gensfen(o, log, stop));
  o.nodes = 100;
  o.openings = (dir / "openings.sfen").string();
  {
    std::ofstream out(o.openings);
    out << "# a comment\n\nstartpos moves 7g7f 3c3d\nstartpos moves 7g7f 7g7f\n";
  }
  auto r = run_gensfen(o, log, stop);
  REQUIRE_FALSE(r);
  CHECK(r.error().find("openings.sfen:4: ") != std::string::npos);
  CHECK_FALSE(fs::exists(o.output));

  auto loaded = load_start_positions((dir / "missing.sfen").string());
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().find("cannot open") != std::string::npos);

  std::ostringstream out, err;
  CHECK(run_learn_command("gensfen", {"--output", o.output, "--nodse", "5"}, out, err) == 2);
  CHECK(err.str().find("unknown option --nodse") != std::string::npos);
}

TEST_CASE("--help prints each command's whole usage, and the usage names exactly the options the command takes") {
  // The --options in a text, without their values.
  auto options_in = [](const std::string& text) {
    std::set<std::string> found;
    for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
      size_t end = at + 2;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-')) ++end;
      found.insert(text.substr(at, end - at));
    }
    return found;
  };
  for (const std::string command : {"gensfen", "rescore", "shuffle", "records", "learn"}) {
    INFO(command);
    std::ostringstream out, err;
    // Anywhere on the line, even where a value was expected: nothing runs, nothing is written.
    CHECK(run_learn_command(command, {"--output", "never-written.bin", "--help"}, out, err) == 0);
    CHECK(err.str().empty());
    CHECK(out.str().rfind("usage: " + command + " ", 0) == 0);
    CHECK_FALSE(std::filesystem::exists("never-written.bin"));
    std::ostringstream short_out, short_err;
    CHECK(run_learn_command(command, {"-h"}, short_out, short_err) == 0);
    CHECK(short_out.str() == out.str());
    // An unknown option's error lists the options the parser knows: the usage must list the same.
    std::ostringstream bad_out, bad_err;
    CHECK(run_learn_command(command, {"--no-such-option", "1"}, bad_out, bad_err) == 2);
    const std::string known = bad_err.str().substr(bad_err.str().find("expected one of"));
    CHECK(options_in(out.str()) == options_in(known));
  }
}

TEST_CASE("shuffle splits the records into train and validation by whole games, each record once") {
  Position::init();
  const test_support::TempDir tmp("learn-shuffle");
  const fs::path& dir = tmp.path;
  learn_test::generate(learn_test::small_selfplay(dir / "a.bin", 120));
  GensfenOptions b = learn_test::small_selfplay(dir / "b.bin", 80);
  b.seed = 2;
  learn_test::generate(b);

  std::ostringstream out, err;
  const std::string train = (dir / "train.bin").string(), validation = (dir / "validation.bin").string();
  REQUIRE_MESSAGE(run_learn_command("shuffle",
                                    {"--train", train, "--validation", validation, "--validation-fraction", "0.1",
                                     "--seed", "3", (dir / "a.bin").string(), (dir / "b.bin").string()},
                                    out, err) == 0,
                  err.str());
  auto key = [](const TrainingRecord& r) { return std::string(reinterpret_cast<const char*>(&r), RECORD_SIZE); };
  std::vector<std::string> in, split;
  for (const char* f : {"a.bin", "b.bin"})
    for (const auto& r : read_all(dir / f)) in.push_back(key(r));
  const auto t = read_all(train), v = read_all(validation);
  // Whole games go to validation: at least the fraction, and a game at most more.
  CHECK(v.size() >= 20);
  CHECK(v.size() < 120);
  CHECK(t.size() + v.size() == 200);
  for (const auto& r : t) split.push_back(key(r));
  for (const auto& r : v) split.push_back(key(r));
  std::sort(in.begin(), in.end());
  std::sort(split.begin(), split.end());
  CHECK(in == split);

  // --dedup on: a file given twice adds nothing; each position once, whatever else the records hold.
  {
    std::ostringstream dedup_out, dedup_err;
    REQUIRE_MESSAGE(run_learn_command("shuffle",
                                      {"--train", train, "--validation", validation, "--dedup", "on",
                                       (dir / "a.bin").string(), (dir / "b.bin").string(), (dir / "a.bin").string()},
                                      dedup_out, dedup_err) == 0,
                    dedup_err.str());
    std::set<std::string> positions;
    for (const char* f : {"a.bin", "b.bin"})
      for (const auto& r : read_all(dir / f))
        positions.insert(std::string(reinterpret_cast<const char*>(r.position.data()), r.position.size()));
    const size_t kept = read_all(train).size() + read_all(validation).size();
    CHECK(kept == positions.size());
    CHECK(dedup_out.str().find(std::to_string(320 - kept) + " repeated positions left out") != std::string::npos);
    std::ostringstream bad_out, bad_err;
    CHECK(run_learn_command("shuffle",
                            {"--train", train, "--validation", validation, "--dedup", "yes", (dir / "a.bin").string()},
                            bad_out, bad_err) == 2);
    CHECK(bad_err.str() == "shuffle: --dedup 'yes': expected on or off\n");
    // The validation share may be 0 but not 1: a split with nothing to train on is refused.
    for (const char* fraction : {"1", "1.0", "-0.1", "0.5x"}) {
      std::ostringstream f_out, f_err;
      CHECK(run_learn_command("shuffle",
                              {"--train", train, "--validation", validation, "--validation-fraction", fraction,
                               (dir / "a.bin").string()},
                              f_out, f_err) == 2);
      CHECK(f_err.str() == "shuffle: --validation-fraction '" + std::string(fraction) +
                               "': expected a number from 0 up to (not including) 1\n");
    }
  }

  // --exclude: records added to a training set later leave out every position of a validation set made before.
  {
    const std::string held = (dir / "held.bin").string(), rest = (dir / "rest.bin").string(),
                      more = (dir / "more.bin").string(), none = (dir / "none.bin").string();
    std::ostringstream o1, e1;
    REQUIRE_MESSAGE(run_learn_command("shuffle",
                                      {"--train", rest, "--validation", held, "--validation-fraction", "0.3",
                                       (dir / "a.bin").string()},
                                      o1, e1) == 0,
                    e1.str());
    auto position = [](const TrainingRecord& r) {
      return std::string(reinterpret_cast<const char*>(r.position.data()), r.position.size());
    };
    std::set<std::string> held_positions;
    for (const auto& r : read_all(held)) held_positions.insert(position(r));
    REQUIRE(!held_positions.empty());
    std::ostringstream o2, e2;
    REQUIRE_MESSAGE(run_learn_command("shuffle",
                                      {"--train", more, "--validation", none, "--validation-fraction", "0", "--exclude",
                                       held, (dir / "a.bin").string(), (dir / "b.bin").string()},
                                      o2, e2) == 0,
                    e2.str());
    size_t in_held = 0, inputs_in_held = 0;
    for (const auto& r : read_all(more)) in_held += held_positions.contains(position(r));
    for (const char* f : {"a.bin", "b.bin"})
      for (const auto& r : read_all(dir / f)) inputs_in_held += held_positions.contains(position(r));
    CHECK(in_held == 0);
    CHECK(inputs_in_held >= held_positions.size());
    CHECK(read_all(none).empty());
    CHECK(read_all(more).size() + inputs_in_held == 200);  // every other record kept
    CHECK(o2.str().find(std::to_string(inputs_in_held) + " positions of " + held + " left out") != std::string::npos);
    std::ostringstream o3, e3;
    CHECK(run_learn_command("shuffle",
                            {"--train", more, "--validation", none, "--exclude", (dir / "missing.bin").string(),
                             (dir / "a.bin").string()},
                            o3, e3) == 1);
    CHECK(e3.str().find("shuffle: --exclude ") == 0);
    CHECK(e3.str().find("missing.bin") != std::string::npos);
  }

  // A torn input is refused, naming the file.
  {
    std::ofstream torn(dir / "a.bin", std::ios::binary | std::ios::app);
    torn.write("x", 1);
  }
  std::ostringstream out2, err2;
  CHECK(run_learn_command("shuffle", {"--train", train, "--validation", validation, (dir / "a.bin").string()}, out2,
                          err2) == 1);
  CHECK(err2.str().find("a.bin") != std::string::npos);
}

TEST_CASE("a progress line's speed is the one since the previous line, so a pause does not drag it down") {
  ProgressRate rate(1000, 0);  // a continued part: 1,000 records were there before the run
  CHECK(rate.line(1000 + 500, 10000, 5, "positions") == "100 positions/s, ETA 0:01:25");
  // Stopped for three hours (SIGSTOP), then resumed: the line that spans the pause is slow...
  CHECK(rate.line(2000, 10000, 10800 + 10, "positions") == "0 positions/s, ETA 48:01:20");
  // ...and the next one is the job's own speed again, where the average since the start would say 0.18 a second.
  CHECK(rate.line(2000 + 1000, 10000, 10800 + 20, "positions") == "100 positions/s, ETA 0:01:10");
  // Nothing done in an interval, or no time passed: no ETA to give.
  CHECK(rate.line(3000, 10000, 10800 + 30, "records") == "0 records/s, ETA ?");
  CHECK(rate.line(3000, 10000, 10800 + 30, "records") == "0 records/s, ETA ?");
  // Past the target (a part continued beyond it): nothing left.
  CHECK(rate.line(10100, 10000, 10800 + 40, "records") == "710 records/s, ETA 0:00:00");
}

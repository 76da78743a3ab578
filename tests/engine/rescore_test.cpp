// rescore: a deeper teacher relabels training data record for record (position, move number and result kept, order
// kept), puts a proven mate at the score limit with its mating move, continues a stopped or killed run, and refuses
// an output that is not its input's relabelling, naming the file.
#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "learn/commands.h"
#include "learn/gensfen.h"
#include "learn/rescore.h"
#include "learn/training_record.h"
#include "learn_files.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "support/temp_dir.h"

using namespace shogi;
using namespace shogi::learn;
namespace fs = std::filesystem;
using learn_test::read_all;

namespace {

// Self-play records at a shallow search, the data a deeper teacher relabels.
std::string shallow_data(const fs::path& dir, uint64_t positions) {
  const GensfenOptions o = learn_test::small_selfplay(dir / "shallow.bin", positions);
  learn_test::generate(o);
  return o.output;
}

RescoreOptions deeper(const std::string& input, const fs::path& output) {
  RescoreOptions o;
  o.input = input;
  o.output = output.string();
  o.threads = 2;
  o.nodes = 3000;
  o.hash_mb = 4;
  o.progress_seconds = 0;
  return o;
}

}  // namespace

TEST_CASE("rescore relabels every record in order and keeps its position, move number and result") {
  Position::init();
  const test_support::TempDir tmp("rescore-relabel");
  const fs::path& dir = tmp.path;
  const std::string input = shallow_data(dir, 150);
  const auto before = read_all(input);

  std::atomic<bool> stop{false};
  std::ostringstream log;
  const RescoreOptions o = deeper(input, dir / "deep.bin");
  auto summary = run_rescore(o, log, stop);
  REQUIRE_MESSAGE(summary, (summary ? "" : summary.error()));
  CHECK(summary->records == 150);
  CHECK(summary->done_before == 0);
  CHECK(summary->searched == 150);
  CHECK_FALSE(summary->interrupted);

  const auto after = read_all(o.output);
  REQUIRE(after.size() == before.size());
  int score_changed = 0, move_changed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    INFO("record " << i);
    CHECK(after[i].position == before[i].position);
    CHECK(after[i].ply == before[i].ply);
    CHECK(after[i].result == before[i].result);
    CHECK(std::abs(after[i].score) <= o.score_limit);
    auto sfen = record_sfen(after[i]);
    REQUIRE(sfen);
    Position p;
    StateInfo s;
    REQUIRE(p.set(*sfen, &s, PieceLimits::Relaxed));
    const Move m = p.to_move(Move16(after[i].move));
    REQUIRE(m != MOVE_NONE);
    CHECK(MoveList<LEGAL>(p).contains(m));
    score_changed += after[i].score != before[i].score;
    move_changed += after[i].move != before[i].move;
  }
  // Fifteen times the nodes changes most scores and some moves; the summary counts what changed.
  CHECK(score_changed > 75);
  CHECK(move_changed > 10);
  CHECK(summary->same_move == 150 - summary->kept - uint64_t(move_changed));
  CHECK(summary->mean_abs_change > 0);

  // The same command again finds the output complete and leaves it alone.
  auto again = run_rescore(o, log, stop);
  REQUIRE(again);
  CHECK(again->done_before == 150);
  CHECK(again->searched == 0);
}

TEST_CASE("rescore gives a mate the score limit and the mating move") {
  Position::init();
  const test_support::TempDir tmp("rescore-mate");
  const fs::path& dir = tmp.path;
  // White's king on 5a, a black gold on 5c, a gold in black's hand: G*5b mates. The record says 0 and no move.
  Position p;
  StateInfo s;
  REQUIRE(p.set("4k4/9/4G4/9/9/9/9/9/9 b G 1", &s, PieceLimits::Relaxed));
  TrainingRecord r;
  r.position = pack_position(p);
  r.ply = 1;
  r.result = 1;
  const std::string input = (dir / "mate.bin").string();
  REQUIRE(write_record_file(input, &r, 1));

  std::atomic<bool> stop{false};
  std::ostringstream log;
  RescoreOptions o = deeper(input, dir / "deep.bin");
  o.score_limit = 2500;
  REQUIRE(run_rescore(o, log, stop));
  const auto after = read_all(o.output);
  REQUIRE(after.size() == 1);
  CHECK(after[0].score == 2500);
  CHECK(to_usi(p.to_move(Move16(after[0].move))) == "G*5b");
  CHECK(after[0].result == 1);
}

TEST_CASE("rescore continues a stopped or killed run and refuses what it cannot continue") {
  Position::init();
  const test_support::TempDir tmp("rescore-continue");
  const fs::path& dir = tmp.path;
  const std::string input = shallow_data(dir, 200);
  const auto before = read_all(input);
  std::ostringstream log;

  // Asked to stop at once: nothing is written, and the run says so.
  std::atomic<bool> stop{true};
  RescoreOptions o = deeper(input, dir / "deep.bin");
  auto stopped = run_rescore(o, log, stop);
  REQUIRE(stopped);
  CHECK(stopped->interrupted);
  CHECK(stopped->searched == 0);
  CHECK(read_all(o.output).empty());

  // A killed run left 70 whole records and 20 bytes of the next one.
  stop = false;
  RescoreOptions part = deeper(input, dir / "first.bin");
  REQUIRE(run_rescore(part, log, stop));
  const auto full = read_all(part.output);
  REQUIRE(write_record_file(o.output, full.data(), 70));
  {
    std::ofstream out(o.output, std::ios::binary | std::ios::app);
    out.write(reinterpret_cast<const char*>(&full[70]), 20);
  }
  auto resumed = run_rescore(o, log, stop);
  REQUIRE_MESSAGE(resumed, (resumed ? "" : resumed.error()));
  CHECK(resumed->torn_bytes_dropped == 20);
  CHECK(resumed->done_before == 70);
  CHECK(resumed->searched == 130);
  CHECK_FALSE(resumed->interrupted);
  const auto after = read_all(o.output);
  REQUIRE(after.size() == 200);
  for (size_t i = 0; i < after.size(); ++i) {
    INFO("record " << i);
    CHECK(after[i].position == before[i].position);
    if (i < 70) {  // the records already done are kept as they were, not searched again
      CHECK(after[i].score == full[i].score);
      CHECK(after[i].move == full[i].move);
    }
  }

  // Stopped in the middle of a run (after the first batch is written): whole batches only (64 records a thread)
  // are in the output, and the same command finishes it. On a machine so loaded that the run ends before the stop
  // lands, the output is simply whole.
  {
    RescoreOptions slow = deeper(input, dir / "stopped.bin");
    slow.nodes = 20000;
    std::atomic<bool> stop_midway{false}, returned{false};
    std::thread stopper([&] {
      // file_size answers uintmax_t(-1) while the output does not exist yet: that is no size at all, not a big one.
      const auto written = [&] {
        std::error_code ec;
        const auto n = fs::file_size(slow.output, ec);
        return ec ? 0 : n;
      };
      while (!returned && written() < 128 * RECORD_SIZE) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      stop_midway = true;
    });
    auto midway = run_rescore(slow, log, stop_midway);
    returned = true;
    stopper.join();
    REQUIRE_MESSAGE(midway, (midway ? "" : midway.error()));
    const auto size = fs::file_size(slow.output);
    if (midway->interrupted) {
      CHECK(size == 128 * RECORD_SIZE);
      auto finished = run_rescore(slow, log, stop);
      REQUIRE(finished);
      CHECK(finished->done_before == 128);
      CHECK(finished->searched == 72);
      CHECK_FALSE(finished->interrupted);
    }
    CHECK(read_all(slow.output).size() == 200);
  }

  // Another input's output is not continued, nor touched (not even its torn last record cut), nor is a file too
  // small to hold one record.
  const std::string other = (dir / "other.bin").string(), torn_other = (dir / "torn-other.bin").string();
  REQUIRE(write_record_file(other, before.data() + 100, 50));
  REQUIRE(write_record_file(torn_other, before.data() + 100, 50));
  {
    std::ofstream out(torn_other, std::ios::binary | std::ios::app);
    out.write("0123456789", 10);
  }
  for (const std::string& output : {other, torn_other}) {
    const auto size = fs::file_size(output);
    auto refused = run_rescore(deeper(input, output), log, stop);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().find("other.bin is not a relabelling of") != std::string::npos);
    CHECK(fs::file_size(output) == size);
  }
  const std::string note = (dir / "note.txt").string();
  std::ofstream(note) << "a note";
  auto small = run_rescore(deeper(input, note), log, stop);
  REQUIRE_FALSE(small);
  CHECK(small.error().find("note.txt holds 6 bytes, less than one record") != std::string::npos);
  CHECK(fs::file_size(note) == 6);

  // An output longer than the input, the input as its own output, a torn input, no limit: errors naming the file.
  RescoreOptions longer = deeper((dir / "other.bin").string(), o.output);
  auto too_long = run_rescore(longer, log, stop);
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error().find("more than") != std::string::npos);
  auto self = run_rescore(deeper(input, input), log, stop);
  REQUIRE_FALSE(self);
  CHECK(self.error().find("must not be the input") != std::string::npos);
  {
    std::ofstream torn(other, std::ios::binary | std::ios::app);
    torn.write("x", 1);
  }
  auto torn_input = run_rescore(deeper(other, dir / "x.bin"), log, stop);
  REQUIRE_FALSE(torn_input);
  CHECK(torn_input.error().find("other.bin") != std::string::npos);
  RescoreOptions no_limit = deeper(input, dir / "y.bin");
  no_limit.nodes = 0;
  CHECK_FALSE(run_rescore(no_limit, log, stop));

  // The command line: usage errors are 2, a bad value names its option.
  std::ostringstream out, err;
  CHECK(run_learn_command("rescore", {"--output", (dir / "z.bin").string()}, out, err) == 2);
  CHECK(err.str().find("usage: rescore") != std::string::npos);
  CHECK(run_learn_command("rescore", {"--output", (dir / "z.bin").string(), "--nodes", "many", input}, out, err) == 2);
  CHECK(err.str().find("--nodes 'many'") != std::string::npos);
  CHECK(run_learn_command(
            "rescore",
            {"--output", (dir / "z.bin").string(), "--nodes", "500", "--threads", "1", "--progress", "0", input}, out,
            err) == 0);
  CHECK(out.str().find("rescore: 200 of 200 records") != std::string::npos);
}

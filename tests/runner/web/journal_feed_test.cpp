// The live page of a run played by other processes (slurm --web): JournalFeed reads what the shards' segments gained
// since its last look and publishes the new games and the standings.
#include <doctest/doctest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "journal/journal.h"
#include "journal/segments.h"
#include "journal/spsa_pair.h"
#include "output/json.h"
#include "sample_games.h"
#include "support/temp_dir.h"
#include "web/journal_feed.h"
#include "web/live_state.h"

using namespace arena;
using namespace arena::web;
namespace fs = std::filesystem;
using test_support::TempDir;
namespace bj = boost::json;

namespace {

journal::JournalHeader header(int shard) {
  journal::JournalHeader h;
  h.type = "sprt";
  h.engines = {"A", "B"};
  h.games = 8;
  h.games_per_pair = 2;
  h.sprt = stats::SprtConfig{};
  h.shard = journal::Shard{shard, 2};
  return h;
}

// The journal line of game `index` (pair index / 2), a resignation of white's after 7g7f 3c3d; `replay`: a game
// that voided its pair's attempt.
std::string game_line(int64_t index, int attempt = 0, bool replay = false) {
  PlayedGame g = testing::make_game("startpos", {{"7g7f", 10}, {"3c3d", 10}}, Outcome::BlackWin, Termination::Resign);
  const journal::GameKey key{
      .game = index, .pair = index / 2, .game_in_pair = int(index % 2), .attempt = attempt, .replay = replay};
  const std::string engines[2] = {"A", "B"};
  g.names[shogi::BLACK] = engines[key.game_in_pair];
  g.names[shogi::WHITE] = engines[1 - key.game_in_pair];
  return journal::journal_line(key, g);
}

void append(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << text;
}

int64_t journaled(const LiveState& state) {
  auto v = json::parse(state.update_json());
  REQUIRE(v.has_value());
  const bj::value& st = v->at("standings");
  if (st.is_null()) return -1;
  return st.at("games").at("journaled").to_number<int64_t>();
}

}  // namespace

TEST_CASE("JournalFeed: the shards' new games reach the page once each, a line being written waits for its end") {
  TempDir dir;
  const std::string out = dir.path.string();
  LiveState state("slurm: " + out);
  JournalFeed feed(state, out);
  CHECK(feed.poll() == 0);  // nothing yet: no segments folder
  CHECK(journaled(state) == -1);

  fs::create_directories(journal::segments_dir(out));
  const fs::path seg0 = fs::path(journal::segments_dir(out)) / "shard-0-of-2.20261125T100000Z.host.1.jsonl";
  const fs::path seg1 = fs::path(journal::segments_dir(out)) / "shard-1-of-2.20261125T100000Z.host.2.jsonl";
  append(seg0, journal::to_json(header(0)) + "\n" + game_line(0) + "\n" + game_line(1) + "\n");
  CHECK(feed.poll() == 2);
  CHECK(journaled(state) == 2);
  CHECK(state.journal_line(1) == game_line(1));
  CHECK(state.update_json().find("\"finished_total\":2") != std::string::npos);

  // A line cut in the middle of its write: nothing until its newline, then the whole line.
  const std::string line = game_line(2);
  append(seg1, journal::to_json(header(1)) + "\n" + line.substr(0, 40));
  CHECK(feed.poll() == 0);
  append(seg1, line.substr(40) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(state.journal_line(2) == line);

  // A copy (an overlapping requeued shard) counts once.
  append(seg1, game_line(0) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(journaled(state) == 3);

  // A later attempt of a complete pair is another process's play of it: read, but neither counted nor listed, as
  // the merge leaves it out.
  append(seg0, game_line(1, 1) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(feed.games() == 3);
  CHECK(journaled(state) == 3);
  CHECK(state.update_json().find("\"finished_total\":3") != std::string::npos);

  // A voided attempt is replayed: its games and the next attempt's are all listed, and the standings count the
  // replay's (a void game counts among the journaled lines, not the scored ones).
  append(seg1, game_line(6, 0, true) + "\n" + game_line(6, 1) + "\n" + game_line(7, 1) + "\n");
  CHECK(feed.poll() == 3);
  CHECK(feed.games() == 6);
  CHECK(state.update_json().find("\"finished_total\":6") != std::string::npos);

  // The same games as the merge of the same files (`stats OUT`, `merge`).
  auto merged = journal::read_segments(out, nullptr);
  REQUIRE(merged.has_value());
  CHECK(int64_t(merged->games.size()) == feed.games());

  // A garbled line is left out with a warning naming it (the merge refuses the file: the page goes on).
  append(seg1, "{garbled\n");
  CHECK(feed.poll() == 0);
  REQUIRE(feed.warnings().size() == 1);
  CHECK(feed.warnings()[0].find(seg1.string() + ":7: ") == 0);

  // A segment of another run (other engines) is left out with a warning naming it.
  const fs::path other = fs::path(journal::segments_dir(out)) / "shard-0-of-2.20261125T110000Z.host.3.jsonl";
  journal::JournalHeader h = header(0);
  h.engines = {"A", "C"};
  append(other, journal::to_json(h) + "\n" + game_line(4) + "\n");
  CHECK(feed.poll() == 0);
  REQUIRE(feed.warnings().size() == 2);
  CHECK(feed.warnings()[1].find(other.string() + ": written for another run: ") == 0);
  CHECK(feed.games() == 6);

  feed.set_note("Slurm shards: 2 RUNNING");
  CHECK(state.update_json().find("Slurm shards: 2 RUNNING") != std::string::npos);
}

TEST_CASE("JournalFeed: a one-machine run's journal.jsonl, or the file itself") {
  TempDir dir;
  const fs::path journal = dir.path / "journal.jsonl";
  journal::JournalHeader h = header(0);
  h.shard.reset();
  append(journal, journal::to_json(h) + "\n" + game_line(0) + "\n");
  LiveState by_dir("d"), by_file("f");
  JournalFeed a(by_dir, dir.path.string()), b(by_file, journal.string());
  CHECK(a.poll() == 1);
  CHECK(b.poll() == 1);
  append(journal, game_line(1) + "\n");
  CHECK(a.poll() == 1);
  CHECK(b.poll() == 1);
  CHECK(journaled(by_dir) == 2);
}

TEST_CASE("JournalFeed: the pairs an SPRT was decided on come from the decision file, as the merge takes them") {
  TempDir dir;
  const std::string out = dir.path.string();
  LiveState state("slurm");
  JournalFeed feed(state, out);
  fs::create_directories(journal::segments_dir(out));
  const fs::path seg0 = fs::path(journal::segments_dir(out)) / "shard-0-of-2.20261125T100000Z.host.1.jsonl";
  append(seg0, journal::to_json(header(0)) + "\n" + game_line(0) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(feed.games() == 1);
  // The decision file holds pair 0 as the coordinator saw it: both games (the second one not in any segment yet).
  journal::JournalHeader h = header(0);
  h.shard.reset();
  append(journal::decision_path(out), journal::to_json(h) + "\n" + game_line(0) + "\n" + game_line(1) + "\n");
  CHECK(feed.poll() == 2);
  CHECK(feed.games() == 2);
  // A late copy of game 1 in a segment changes nothing.
  append(seg0, game_line(1) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(feed.games() == 2);
  CHECK(state.update_json().find("\"finished_total\":2") != std::string::npos);
  auto merged = journal::read_segments(out, nullptr);
  REQUIRE(merged.has_value());
  CHECK(int64_t(merged->games.size()) == feed.games());
}

TEST_CASE("JournalFeed: a journal cut and written again is read again from its start") {
  TempDir dir;
  const fs::path journal = dir.path / "journal.jsonl";
  journal::JournalHeader h = header(0);
  h.shard.reset();
  append(journal, journal::to_json(h) + "\n" + game_line(0) + "\n" + game_line(1) + "\n");
  LiveState state("j");
  JournalFeed feed(state, journal.string());
  CHECK(feed.poll() == 2);
  {
    std::ofstream cut(journal, std::ios::trunc);
    cut << journal::to_json(h) << "\n";
  }
  append(journal, game_line(2) + "\n");
  CHECK(feed.poll() == 1);
  CHECK(feed.games() == 3);
  CHECK(feed.warnings().empty());
}

TEST_CASE("JournalFeed: an SPSA run's pair lines give their two games; a game the header rules out is left out") {
  TempDir dir;
  const std::string out = dir.path.string();
  fs::create_directories(journal::segments_dir(out));
  const fs::path seg0 = fs::path(journal::segments_dir(out)) / "shard-0-of-2.20261125T100000Z.host.1.jsonl";
  journal::JournalHeader h = header(0);
  h.type = "spsa";
  h.sprt.reset();
  stats::SpsaParam x;
  x.name = "X", x.start = 50, x.min = 0, x.max = 100, x.c_end = 4, x.r_end = 0.002;
  h.spsa = journal::SpsaSpec{"e", {x}, {}, 1, {true}};
  h.spsa->schedule.iterations = 4;
  journal::SpsaPair p;
  p.k = 1, p.delta = {1}, p.plus = {54}, p.minus = {46}, p.result = 0;
  append(seg0, journal::to_json(h) + "\n" + journal::spsa_pair_line(p, game_line(0), game_line(1)) + "\n");
  LiveState state("slurm");
  JournalFeed feed(state, out);
  CHECK(feed.poll() == 2);  // before, a pair line gave no game: the page of a cluster SPSA run stayed empty
  CHECK(feed.games() == 2);
  CHECK(state.journal_line(1) == game_line(1));
  CHECK(feed.warnings().empty());

  // A game line naming an engine the header does not (a spliced file): left out with a warning, as stats refuses it.
  std::string stranger = game_line(2);
  stranger.replace(stranger.find("\"B\""), 3, "\"C\"");
  append(seg0, stranger + "\n");
  CHECK(feed.poll() == 0);
  REQUIRE(feed.warnings().size() == 1);
  CHECK(feed.warnings()[0] ==
        seg0.string() + ":3: game 3: 'C' is not one of the run's engines (A, B); left out");
  CHECK(feed.games() == 2);
  // A pair with one such game is left out whole, as read_journal refuses its line.
  p.k = 2;
  std::string second = game_line(3);
  second.replace(second.find("\"B\""), 3, "\"C\"");
  append(seg0, journal::spsa_pair_line(p, game_line(2), second) + "\n");
  CHECK(feed.poll() == 0);
  REQUIRE(feed.warnings().size() == 2);
  CHECK(feed.warnings()[1] ==
        seg0.string() + ":4: game 4: 'C' is not one of the run's engines (A, B); left out");
  CHECK(feed.games() == 2);
}

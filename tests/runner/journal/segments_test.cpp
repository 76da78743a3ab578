// Journal segments of a sharded run: the header's identity and shard, merging (one history per pair, duplicates,
// void attempts, torn lines, empty segments) and the refusal of a segment of another run.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "journal/journal.h"
#include "journal/run_identity.h"
#include "journal/segments.h"
#include "support/temp_dir.h"

using namespace arena;
using namespace arena::journal;
namespace fs = std::filesystem;
using test_support::TempDir;

namespace {

// A run's output directory with its segments/ folder.
struct Dir : TempDir {
  explicit Dir(const std::string& tag) : TempDir(tag) { fs::create_directories(path / "segments"); }
};

JournalHeader header(int index, int count, const std::string& created, const std::string& binary_sha = "aa") {
  JournalHeader h;
  h.type = "gauntlet";
  h.engines = {"a", "b"};
  h.games = 8;
  h.schedule = "0123456789abcdef";
  h.created = created;
  h.host = "node1";
  h.pid = 42;
  h.shard = Shard{index, count};
  RunIdentity id;
  id.settings = R"({"rounds":4,"engines":[{"name":"a","tc":"10+0.1"},{"name":"b","tc":"10+0.1"}]})";
  id.settings_sha256 = sha256_hex(id.settings);
  id.files = {{"a", "/x/a", binary_sha}, {"b", "/x/b", "bb"}};
  h.identity = id;
  return h;
}

// A game line: pair p's game g (a black in game 0), attempt, replay, and the winner.
std::string line(int64_t pair, int g, int attempt = 0, bool replay = false, const char* result = "black") {
  const int64_t game = pair * 2 + g;
  return "{\"game\":" + std::to_string(game) + ",\"pair\":" + std::to_string(pair) +
         ",\"game_in_pair\":" + std::to_string(g) + ",\"attempt\":" + std::to_string(attempt) +
         ",\"opening\":0,\"replay\":" + (replay ? "true" : "false") + ",\"black\":\"" + (g == 0 ? "a" : "b") +
         "\",\"white\":\"" + (g == 0 ? "b" : "a") + "\",\"result\":\"" + result + "\",\"termination\":\"" +
         (replay ? "disconnect" : "resign") + "\",\"moves\":[]}";
}

void write_segment(const fs::path& path, const JournalHeader& h, const std::vector<std::string>& lines,
                   const std::string& torn_tail = "") {
  auto w = JournalWriter::create(path.string(), h, true);
  REQUIRE(w);
  for (const std::string& l : lines) REQUIRE(w->append(l));
  if (!torn_tail.empty()) {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << torn_tail;
  }
}

std::vector<std::pair<int64_t, int>> games_of(const MergedJournal& m) {
  std::vector<std::pair<int64_t, int>> out;
  for (const JournalGame& g : m.games) out.emplace_back(g.game, g.attempt);
  return out;
}

}  // namespace

TEST_CASE("a segment header keeps the shard and the run's identity") {
  Dir d("header");
  const fs::path p = d.path / "segments" / "shard-1-of-2.x.jsonl";
  write_segment(p, header(1, 2, "2026-11-25T00:00:00Z"), {line(1, 0)});
  auto c = read_journal(p.string());
  REQUIRE(c);
  REQUIRE(c->header);
  REQUIRE(c->header->shard);
  CHECK(c->header->shard->index == 1);
  CHECK(c->header->shard->count == 2);
  CHECK(c->header->host == "node1");
  CHECK(c->header->pid == 42);
  REQUIRE(c->header->identity);
  const RunIdentity& id = *c->header->identity;
  CHECK(id.files == header(1, 2, "").identity->files);
  // The settings are stored as an object and read back to the same text, so their hash still matches.
  CHECK(sha256_hex(id.settings) == id.settings_sha256);
  CHECK(identity_difference(id, *header(1, 2, "").identity).empty());
  // An existing segment is never reused: another process's file.
  CHECK_FALSE(JournalWriter::create(p.string(), header(1, 2, ""), true));
}

TEST_CASE("sha256 is libcrypto's") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Dir d("sha");
  std::ofstream(d.path / "f") << "abc";
  CHECK(sha256_file((d.path / "f").string()).value() == sha256_hex("abc"));
  auto missing = sha256_file((d.path / "none").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("none: cannot read it") != std::string::npos);
}

TEST_CASE("identity differences name the engine or the setting") {
  RunIdentity was = *header(0, 1, "").identity, now = was;
  now.files[0].sha256 = "cc";
  const std::string d = identity_difference(was, now);
  CHECK(d.starts_with("engine 'a': its binary /x/a has sha256 cc"));
  CHECK(d.find("journal's was aa") != std::string::npos);
  now = was;
  now.settings = R"({"rounds":4,"engines":[{"name":"a","tc":"10+0.1"},{"name":"b","tc":"5+0.05"}]})";
  now.settings_sha256 = sha256_hex(now.settings);
  CHECK(identity_difference(was, now) ==
        R"(the settings differ at engines[1].tc: "5+0.05" now, "10+0.1" in the journal)");
}

TEST_CASE("merging keeps one history per pair, leaves duplicates out, drops torn lines") {
  Dir d("merge");
  const fs::path s = d.path / "segments";
  // Shard 0 of 2 owns pairs 0 and 2; shard 1 owns 1 and 3.
  // Shard 0's first process: pair 0 complete, pair 2's first game, then a torn line (kill -9 mid-write).
  write_segment(s / "shard-0-of-2.a.jsonl", header(0, 2, "2026-11-25T00:00:00Z"), {line(0, 0), line(0, 1), line(2, 0)},
                "{\"game\":5,\"pa");
  // Its restart: pair 2's second game.
  write_segment(s / "shard-0-of-2.b.jsonl", header(0, 2, "2026-11-25T00:01:00Z"), {line(2, 1)});
  // Shard 1: pair 1 broken by a crash (attempt 0 void) and replayed; pair 3 complete.
  write_segment(s / "shard-1-of-2.a.jsonl", header(1, 2, "2026-11-25T00:00:00Z"),
                {line(1, 0, 0, true), line(1, 0, 1), line(1, 1, 1), line(3, 0), line(3, 1, 0, false, "draw")});
  // A requeued copy of shard 1 overlapping it: pair 1 played again without the crash, and pair 3.
  write_segment(s / "shard-1-of-2.c.jsonl", header(1, 2, "2026-11-25T00:00:30Z"), {line(1, 0), line(1, 1), line(3, 0)});
  // A process killed before its header: an empty file.
  std::ofstream(s / "shard-1-of-2.d.jsonl").close();
  // Not a segment: ignored.
  std::ofstream(s / "notes.txt") << "x";

  auto m = read_segments(d.path.string(), nullptr, true);
  REQUIRE(m);
  CHECK(m->segments.size() == 4);
  REQUIRE(m->header);
  CHECK_FALSE(m->header->shard);
  // Per pair in order, (game, attempt). Pair 1: attempt 0's void line, then attempt 1; the copy's attempt 0
  // comes after the line that voided it, so both its games are duplicates. Pair 2 joins its two segments.
  CHECK(games_of(*m) ==
        std::vector<std::pair<int64_t, int>>{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {3, 1}, {4, 0}, {5, 0}, {6, 0}, {7, 0}});
  CHECK(m->lines.size() == m->games.size());
  CHECK(m->complete_pairs == 4);
  CHECK(m->incomplete_pairs == 0);
  // The copy's pair 1 (two lines) and its second copy of pair 3's game 0.
  CHECK(m->duplicates == 3);
  bool torn_warned = false, empty_warned = false;
  for (const std::string& w : m->warnings) {
    torn_warned = torn_warned || w.find("incomplete last line") != std::string::npos;
    empty_warned = empty_warned || w.find("empty segment") != std::string::npos;
  }
  CHECK(torn_warned);
  CHECK(empty_warned);
}

TEST_CASE("an incomplete pair keeps its games; an attempt beyond the kept one is a duplicate") {
  Dir d("partial");
  const fs::path s = d.path / "segments";
  write_segment(s / "shard-0-of-1.a.jsonl", header(0, 1, "2026-11-25T00:00:00Z"), {line(0, 0), line(0, 1), line(1, 0)});
  // Another process replayed pair 0 as a new attempt (it saw a crash the first did not).
  write_segment(s / "shard-0-of-1.b.jsonl", header(0, 1, "2026-11-25T00:00:05Z"), {line(0, 0, 1), line(0, 1, 1)});
  auto m = read_segments(d.path.string(), nullptr);
  REQUIRE(m);
  CHECK(games_of(*m) == std::vector<std::pair<int64_t, int>>{{0, 0}, {1, 0}, {2, 0}});
  CHECK(m->complete_pairs == 1);
  CHECK(m->incomplete_pairs == 1);
  CHECK(m->duplicates == 2);
}

TEST_CASE("a segment of another run is refused, naming the file and the difference") {
  Dir d("mixed");
  const fs::path s = d.path / "segments";
  write_segment(s / "shard-0-of-2.a.jsonl", header(0, 2, "2026-11-25T00:00:00Z"), {line(0, 0)});
  write_segment(s / "shard-1-of-2.a.jsonl", header(1, 2, "2026-11-25T00:00:10Z", "ff"), {line(1, 0)});
  auto m = read_segments(d.path.string(), nullptr);
  REQUIRE_FALSE(m);
  CHECK(m.error().find("shard-1-of-2.a.jsonl and ") != std::string::npos);
  CHECK(m.error().find("shard-0-of-2.a.jsonl belong to different runs") != std::string::npos);
  CHECK(m.error().find("engine 'a': its binary /x/a has sha256 ff") != std::string::npos);
  CHECK(m.error().find('\n') == std::string::npos);

  // Against an expected run (a shard checking the directory before it adds to it).
  JournalHeader mine = header(0, 2, "");
  mine.schedule = "fedcba9876543210";
  auto checked = read_segments(d.path.string(), &mine);
  REQUIRE_FALSE(checked);
  CHECK(checked.error().find("than this one: another schedule") != std::string::npos);

  // No directory at all: nothing to merge, not an error.
  auto none = read_segments((d.path / "elsewhere").string(), nullptr);
  REQUIRE(none);
  CHECK_FALSE(none->header);
  CHECK(none->games.empty());
}

TEST_CASE("segment names sort by shard and are unique per process") {
  const std::string p = new_segment_path("/out", Shard{7, 40});
  CHECK(p.starts_with("/out/segments/shard-07-of-40."));
  CHECK(p.ends_with("." + std::to_string(::getpid()) + ".jsonl"));
  CHECK(new_segment_path("/out", Shard{0, 1}).starts_with("/out/segments/shard-0-of-1."));
}

TEST_CASE("the pairs an SPRT was decided on come from the decision file, whatever arrives later") {
  Dir d("decision");
  const fs::path s = d.path / "segments";
  // Process A (older) and its overlapping requeue B played pair 1. B's copy was merged when the test decided;
  // A's copy, a crash, is journaled afterwards into A's older segment and would win the first-read rule.
  write_segment(s / "shard-0-of-1.a.jsonl", header(0, 1, "2026-11-25T00:00:00Z"), {line(0, 0), line(0, 1)});
  write_segment(s / "shard-0-of-1.b.jsonl", header(0, 1, "2026-11-25T00:05:00Z"), {line(1, 0), line(1, 1)});
  {
    auto m = read_segments(d.path.string(), nullptr, true);
    REQUIRE(m);
    CHECK(m->complete_pairs == 2);
    auto w = JournalWriter::create(decision_path(d.path.string()), *m->header, true);
    REQUIRE(w);
    for (const std::string& l : m->lines) REQUIRE(w->append(l));
  }
  {
    std::ofstream late(s / "shard-0-of-1.a.jsonl", std::ios::app);
    late << line(1, 0, 0, true) << "\n";
  }
  // Without the decision, the late line voids pair 1; with it, pair 1 is B's complete pair.
  auto m = read_segments(d.path.string(), nullptr);
  REQUIRE(m);
  CHECK(m->decided_pairs == 2);
  CHECK(m->complete_pairs == 2);
  CHECK(m->incomplete_pairs == 0);
  CHECK(m->duplicates == 1);
  CHECK(games_of(*m) == std::vector<std::pair<int64_t, int>>{{0, 0}, {1, 0}, {2, 0}, {3, 0}});
  fs::remove(decision_path(d.path.string()));
  auto without = read_segments(d.path.string(), nullptr);
  REQUIRE(without);
  CHECK(without->incomplete_pairs == 1);
}

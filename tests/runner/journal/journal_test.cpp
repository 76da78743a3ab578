// The journal: header and game lines written and read back, a torn last line cut off, lines of earlier writers.
#include <doctest/doctest.h>

#include <fstream>

#include "journal/journal.h"
#include "output/result_json.h"
#include "rules/game_end.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "support/temp_dir.h"

using namespace arena;
using namespace arena::journal;
using test_support::TempDir;

namespace {

// Game k of pair k/2, as the schedule numbers them.
GameKey key(int64_t game, int attempt = 0, bool replay = false) {
  return {.game = game,
          .pair = game / 2,
          .game_in_pair = int(game % 2),
          .round = int(game / 2),
          .attempt = attempt,
          .opening = 0,
          .replay = replay};
}

}  // namespace

TEST_CASE("journal lines round-trip; a torn last line is cut off") {
  TempDir dir("journal");
  const std::string path = (dir.path / "j.jsonl").string();
  JournalHeader h;
  h.type = "gauntlet";
  h.engines = {"a", "b"};
  h.games = 4;
  h.schedule = "0123456789abcdef";
  h.sprt = stats::SprtConfig{0.05, 0.1, -1, 3, stats::EloModel::Normalized};
  auto w = JournalWriter::create(path, h);
  REQUIRE(w);
  PlayedGame g;
  g.names[shogi::BLACK] = "a";
  g.names[shogi::WHITE] = "b";
  g.start_sfen = std::string(shogi::START_SFEN);
  g.result = {Outcome::WhiteWin, Termination::TimeForfeit, "a: 1203 ms > 1100 ms"};
  REQUIRE(w->append(journal_line(key(0), g)));
  g.names[shogi::BLACK] = "b";
  g.names[shogi::WHITE] = "a";
  g.result = {Outcome::BlackWin, Termination::Disconnect, "a crashed"};
  REQUIRE(w->append(journal_line(key(1, 2, true), g)));
  *w = JournalWriter();
  { std::ofstream(path, std::ios::app) << "{\"game\":2,\"pair\":1,\"gam"; }  // kill -9 in the middle of a write

  auto c = read_journal(path);
  REQUIRE(c);
  REQUIRE(c->header);
  CHECK(c->header->engines == std::vector<std::string>{"a", "b"});
  CHECK(c->header->games == 4);
  CHECK(c->header->schedule == "0123456789abcdef");
  REQUIRE(c->header->sprt);
  CHECK(c->header->sprt->beta == doctest::Approx(0.1));
  CHECK(c->header->sprt->elo0 == -1);
  REQUIRE(c->games.size() == 2);
  CHECK(c->games[0].termination == Termination::TimeForfeit);
  CHECK(c->games[0].outcome == Outcome::WhiteWin);
  CHECK(c->games[0].detail == "a: 1203 ms > 1100 ms");
  CHECK(c->games[1].game == 1);
  CHECK(c->games[1].attempt == 2);
  CHECK(c->games[1].replay);
  CHECK(c->games[1].black == "b");
  CHECK(c->torn);
  CHECK(c->warnings.size() == 1);

  auto again = JournalWriter::append_to(path, c->valid_size);
  REQUIRE(again);
  REQUIRE(again->append(journal_line(key(2), g)));
  auto c2 = read_journal(path);
  REQUIRE(c2);
  CHECK_FALSE(c2->torn);
  CHECK(c2->games.size() == 3);

  std::ofstream(path, std::ios::app) << "not json\n{}\n";
  auto broken = read_journal(path);
  REQUIRE_FALSE(broken);
  CHECK(broken.error().find("j.jsonl:5: ") != std::string::npos);
}

TEST_CASE("a game line no run under its header could write is an error naming its line") {
  TempDir dir("journal-foreign");
  const std::string path = (dir.path / "j.jsonl").string();
  JournalHeader h;
  h.type = "gauntlet";
  h.engines = {"a", "b"};
  h.games = 4;
  PlayedGame g;
  g.start_sfen = std::string(shogi::START_SFEN);
  g.result = {Outcome::BlackWin, Termination::Resign, ""};
  // Each journal: the header, game 0 (a vs b), then the line under test. Before, stats and report counted such a
  // line without a word (a third engine's results table, a game past the schedule).
  auto journal_with = [&](int64_t game, const std::string& black, const std::string& white,
                          int64_t header_games = 4) {
    h.games = header_games;
    auto w = JournalWriter::create(path, h);
    REQUIRE(w);
    g.names[shogi::BLACK] = h.engines[0];
    g.names[shogi::WHITE] = h.engines[1];
    REQUIRE(w->append(journal_line(key(0), g)));
    g.names[shogi::BLACK] = black;
    g.names[shogi::WHITE] = white;
    REQUIRE(w->append(journal_line(key(game), g)));
  };
  journal_with(1, "b", "a");
  CHECK(read_journal(path).has_value());
  journal_with(1, "nobody", "a");
  CHECK(read_journal(path).error() == path + ":3: game 2: 'nobody' is not one of the run's engines (a, b)");
  journal_with(1, "a", "a");
  CHECK(read_journal(path).error() == path + ":3: game 2 has 'a' on both sides");
  journal_with(3, "b", "a");  // the last game of the schedule (the fourth)
  CHECK(read_journal(path).has_value());
  journal_with(4, "a", "b");
  CHECK(read_journal(path).error() == path + ":3: game 5 is beyond the run's 4 games");
  journal_with(999999, "b", "a", 0);  // a run of no fixed length
  CHECK(read_journal(path).has_value());
  {
    std::ofstream out(path);
    out << "{\"journal\":1,\"type\":\"gauntlet\",\"engines\":[\"a\",\"b\"],\"games\":-4}\n";
  }
  CHECK(read_journal(path).error() == path + ":1: header: \"games\" must be 0 or more, not -4");
}

// Written by the runner before the journal went through Boost.JSON (commit 4e41842): --resume and the stats command
// must still read such journals, and the runner writes the same bytes for the same game today.
TEST_CASE("journal lines of the earlier writer read back and are written the same") {
  const std::string header_line =
      R"({"journal":1,"type":"sprt","engines":["dev \"名前\"","mock"],"games":2,"games_per_pair":2)"
      R"(,"schedule":"9adbfb5f20deca96","sprt":{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.1)"
      R"(,"model":"normalized"},"created":"2026-11-24T23:42:54Z"})";
  const std::string game_line =
      R"({"game":0,"pair":0,"game_in_pair":0,"round":0,"attempt":0,"opening":0,"replay":false,"version":1)"
      R"(,"event":"shogi-arena","black":"dev \"名前\"","white":"mock","start_time":"2026-11-24T23:42:54.994Z")"
      R"(,"end_time":"2026-11-24T23:42:55.189Z","time_control":"1+0.05")"
      R"(,"start_sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1","moves":["7g7f")"
      R"(,"3c3d","6g6f","4c4d","6f6e","4d4e","2h6h","8b4b","6i5h","4a5b","5i4h","4e4f","4g4f","4b4f","4h3h")"
      R"(,"4f4b","P*4g","3d3e","7f7e","2b8h+","7i8h","B*4e","B*7h","4e7h+","6h7h","P*4a","7e7d","B*1b")"
      R"(,"7d7c+","6a7b"],"times_ms":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,111,0,35,0,44,0])"
      R"(,"opening_plies":24,"info":[null,null,null,null,null,null,null,null,null,null,null,null,null,null)"
      R"(,null,null,null,null,null,null,null,null,null,null,{"depth":11,"seldepth":22,"score_cp":17)"
      R"(,"score_mate":null,"nodes":124103,"pv":["6h7h","B*4e","7h7i","4b4d","B*5e","4d2d","5e1a+","2d2g+")"
      R"(,"3h4h","2g2i","1a2a","3a4b","L*4f"]},{"depth":1,"seldepth":1,"score_cp":0,"score_mate":null)"
      R"(,"nodes":1,"pv":["P*4a"]},{"depth":10,"seldepth":22,"score_cp":126,"score_mate":null,"nodes":39273)"
      R"(,"pv":["7e7d","B*3d","7h7i","7a8b","7d7c+","8b7c","B*1e"]},{"depth":1,"seldepth":1,"score_cp":0)"
      R"(,"score_mate":null,"nodes":1,"pv":["B*1b"]},{"depth":10,"seldepth":21,"score_cp":899)"
      R"(,"score_mate":null,"nodes":51065,"pv":["7d7c+","2c2d","B*5f","3e3f","3g3f","1b5f","5g5f","4b3b"]})"
      R"(,{"depth":1,"seldepth":1,"score_cp":0,"score_mate":null,"nodes":1,"pv":["6a7b"]}],"result":"draw")"
      R"(,"termination":"max-moves","detail":"ply limit 30 reached","illegal_move":""})";
  TempDir dir("old-journal");
  const std::string path = dir.file("j.jsonl", header_line + "\n" + game_line + "\n");
  auto c = read_journal(path);
  REQUIRE_MESSAGE(c, (c ? "" : c.error()));
  REQUIRE(c->header);
  const JournalHeader& h = *c->header;
  CHECK(h.type == "sprt");
  CHECK(h.engines == std::vector<std::string>{"dev \"名前\"", "mock"});
  CHECK(h.games == 2);
  CHECK(h.schedule == "9adbfb5f20deca96");
  REQUIRE(h.sprt);
  CHECK(h.sprt->elo0 == 0);
  CHECK(h.sprt->elo1 == 5);
  CHECK(h.sprt->alpha == 0.05);  // exactly: the SPRT bounds of the stats command come from here
  CHECK(h.sprt->beta == 0.1);
  CHECK(h.sprt->model == stats::EloModel::Normalized);
  CHECK(to_json(h) == header_line);

  REQUIRE(c->games.size() == 1);
  const JournalGame& g = c->games[0];
  CHECK(g.black == "dev \"名前\"");
  CHECK(g.outcome == Outcome::Draw);
  CHECK(g.termination == Termination::MaxMoves);
  CHECK(g.detail == "ply limit 30 reached");
  CHECK(g.plies == 30);

  auto played = parse_result_json(game_line);
  REQUIRE_MESSAGE(played, (played ? "" : played.error()));
  REQUIRE(played->moves.size() == 30);
  CHECK(played->moves[23].opening);
  CHECK_FALSE(played->moves[24].opening);
  CHECK(played->moves[24].time_ms == 111);
  CHECK(*played->moves[24].info.nodes == 124103);
  CHECK(played->moves[24].info.pv.size() == 13);
  // Written again, the line gains each side's time control (read from "time_control"), and nothing else changes.
  std::string with_controls = game_line;
  with_controls.insert(with_controls.find(R"(,"start_sfen")"), R"(,"time_controls":["1+0.05","1+0.05"])");
  CHECK(journal_line(key(0), *played) == with_controls);

  // A line cut in the middle of the file is an error that says where.
  std::ofstream(path, std::ios::app) << game_line.substr(0, 40) << "\n" << game_line << "\n";
  auto broken = read_journal(path);
  REQUIRE_FALSE(broken);
  CHECK(broken.error() == path + ":3: incomplete JSON at offset 40");

  // Boost.JSON reads a number too large for a double as infinity; the header refuses it.
  std::string huge = header_line;
  huge.replace(huge.find("\"elo0\":0"), 8, "\"elo0\":1e400");
  const std::string huge_path = dir.file("huge.jsonl", huge + "\n");
  auto refused = read_journal(huge_path);
  REQUIRE_FALSE(refused);
  CHECK(refused.error() == huge_path + ":1: header: sprt: \"elo0\" must be a finite number");
}

TEST_CASE("a game's line is serialized once, and its summary says what the line says") {
  shogi::Position::init();
  PlayedGame g;
  g.names[shogi::BLACK] = "dev";
  g.names[shogi::WHITE] = "base";
  g.start_sfen = std::string(shogi::START_SFEN);
  g.time_controls[shogi::BLACK] = *game::parse_time_control("10+0.1");
  g.time_controls[shogi::WHITE] = *game::parse_time_control("5+0.1");
  g.time_control = game::time_control_text(*g.time_controls[shogi::BLACK], *g.time_controls[shogi::WHITE]);
  shogi::Position pos;
  shogi::StateInfo si;
  REQUIRE(pos.set(shogi::START_SFEN, &si));
  MoveRecord first;
  first.move = *shogi::parse_usi_move(pos, "7g7f");
  g.moves.push_back(first);
  g.result = {Outcome::WhiteWin, Termination::TimeForfeit, "black (dev) used 1203.4 ms, allowed 1100.0 ms"};
  g.forfeit_used_ms = 1203;
  const JournaledGame j = journaled(key(5, 1, false), g);
  auto parsed = parse_journal_game(j.line);
  REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error()));
  for (const JournalGame* s : std::initializer_list<const JournalGame*>{&j.summary, &*parsed}) {
    CHECK(s->game == 5);
    CHECK(s->pair == 2);
    CHECK(s->game_in_pair == 1);
    CHECK(s->round == 2);
    CHECK(s->attempt == 1);
    CHECK_FALSE(s->replay);
    CHECK(s->black == "dev");
    CHECK(s->white == "base");
    CHECK(s->outcome == Outcome::WhiteWin);
    CHECK(s->termination == Termination::TimeForfeit);
    CHECK(s->detail == g.result.detail);
    CHECK(s->plies == 1);
  }
  // The fields the report reads are fields of the line, not of its prose.
  CHECK(j.line.find(R"("time_control":"black 10+0.1, white 5+0.1","time_controls":["10+0.1","5+0.1"])") !=
        std::string::npos);
  CHECK(j.line.find(R"("forfeit_used_ms":1203)") != std::string::npos);
  auto back = parse_result_json(j.line);
  REQUIRE(back);
  CHECK(back->time_controls[shogi::BLACK]->base_ms == 10000);
  CHECK(back->time_controls[shogi::WHITE]->base_ms == 5000);
  CHECK(back->forfeit_used_ms == 1203);

  // A flagged engine that never answered: the field is there, and null.
  g.result = {Outcome::WhiteWin, Termination::TimeForfeit, "black (dev) did not move within 1100.0 ms and then exited"};
  g.forfeit_used_ms.reset();
  const JournaledGame never = journaled(key(5), g);
  CHECK(never.line.find(R"("forfeit_used_ms":null)") != std::string::npos);
  CHECK_FALSE(parse_result_json(never.line)->forfeit_used_ms);
  // Not a time forfeit: no such field.
  g.result = {Outcome::BlackWin, Termination::Resign, "white (base) resigned"};
  CHECK(journaled(key(5), g).line.find("forfeit_used_ms") == std::string::npos);
}

TEST_CASE("lines without the new fields: time controls from the display text, a forfeit's time from the detail") {
  shogi::Position::init();
  auto line = [](const std::string& time_control, const std::string& termination, const std::string& detail) {
    return R"({"version":1,"black":"a","white":"b","time_control":")" + time_control +
           R"(","start_sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1","moves":[])" +
           R"(,"result":"white","termination":")" + termination + R"(","detail":")" + detail + R"("})";
  };
  auto g = parse_result_json(line("black 10+0.1, white 0+1b", "time-forfeit",
                                  "black (a used 5 ms) used 1234.5 ms, allowed 1100.0 ms + 100.0 ms margin"));
  REQUIRE_MESSAGE(g, (g ? "" : g.error()));
  REQUIRE(g->time_controls[shogi::BLACK]);
  REQUIRE(g->time_controls[shogi::WHITE]);
  CHECK(g->time_controls[shogi::BLACK]->increment_ms == 100);
  CHECK(g->time_controls[shogi::WHITE]->byoyomi_ms == 1000);
  CHECK(g->forfeit_used_ms == 1234);  // the last match: the name holds the words too

  g = parse_result_json(line("10+0.1", "time-forfeit",
                             "black (a) did not move within 1100.0 ms; it answered stop "
                             "after 2400.7 ms"));
  REQUIRE(g);
  CHECK(g->time_controls[shogi::BLACK]->base_ms == 10000);
  CHECK(g->time_controls[shogi::WHITE]->base_ms == 10000);
  CHECK(g->forfeit_used_ms == 2400);

  g = parse_result_json(line("0+1 byoyomi", "time-forfeit", "black (a) did not move within 1100.0 ms and then exited"));
  REQUIRE(g);  // a display text of another form: no time controls, and no error
  CHECK_FALSE(g->time_controls[shogi::BLACK]);
  CHECK_FALSE(g->forfeit_used_ms);

  // The new fields are checked: a bad one is refused with its name.
  std::string bad = line("10", "resign", "");
  bad.insert(bad.find(R"(,"start_sfen")"), R"(,"time_controls":["10","soon"])");
  auto refused = parse_result_json(bad);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("\"time_controls\"") != std::string::npos);
}

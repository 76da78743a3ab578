// The schedule (a pure function of the config), opening files, the journal and the resume plan, the standings.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "output/result_json.h"
#include "rules/game_end.h"
#include "rules/position.h"
#include "tournament/journal.h"
#include "tournament/openings.h"
#include "tournament/schedule.h"
#include "tournament/tally.h"

using namespace arena;
using namespace arena::tournament;
namespace fs = std::filesystem;

namespace {

Schedule::Params params(config::TournamentType type, int engines, int rounds, int openings,
                        config::OpeningOrder order = config::OpeningOrder::Sequential, uint64_t seed = 1) {
  Schedule::Params p;
  p.type = type;
  p.engines = engines;
  p.rounds = rounds;
  p.openings = openings;
  p.order = order;
  p.seed = seed;
  return p;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() / ("arena-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

JournalGame jg(int64_t game, int attempt, bool replay, const std::string& black, const std::string& white, Outcome o,
               Termination t = Termination::Resign) {
  JournalGame g;
  g.game = game;
  g.pair = game / 2;
  g.game_in_pair = int(game % 2);
  g.attempt = attempt;
  g.replay = replay;
  g.black = black;
  g.white = white;
  g.outcome = o;
  g.termination = t;
  return g;
}

}  // namespace

TEST_CASE("gauntlet and round-robin schedules") {
  SUBCASE("gauntlet: the first engine against each other, colours swapped within a pair") {
    Schedule s(params(config::TournamentType::Gauntlet, 4, 5, 3));
    CHECK(s.pairings().size() == 3);
    CHECK(s.games() == 30);
    CHECK(s.pairs() == 15);
    for (int64_t i = 0; i < s.games(); i += 2) {
      ScheduledGame a = s.game(i), b = s.game(i + 1);
      CHECK(a.pair == b.pair);
      CHECK(a.black == b.white);
      CHECK(a.white == b.black);
      CHECK(a.opening == b.opening);
      CHECK(a.game_in_pair == 0);
      CHECK(b.game_in_pair == 1);
      CHECK((a.black == 0 || a.white == 0));
      CHECK(a.black == 0);  // the pairing's first engine has black in the pair's first game
    }
    // Every pairing plays every round, each round on one opening.
    for (int r = 0; r < 5; ++r)
      for (int p = 0; p < 3; ++p) {
        ScheduledGame g = s.game((int64_t(r) * 3 + p) * 2);
        CHECK(g.round == r);
        CHECK(g.pairing == p);
        CHECK(g.opening == r % 3);
        CHECK(g.white == p + 1);
      }
  }
  SUBCASE("round robin: every pair of engines") {
    Schedule s(params(config::TournamentType::RoundRobin, 4, 2, 1));
    CHECK(s.pairings().size() == 6);
    std::set<std::pair<int, int>> seen;
    for (const Pairing& p : s.pairings()) seen.insert({p.first, p.second});
    CHECK(seen.size() == 6);
    CHECK(s.games() == 24);
  }
  SUBCASE("sprt: one pairing") {
    Schedule s(params(config::TournamentType::Sprt, 2, 100, 10));
    CHECK(s.pairings().size() == 1);
    CHECK(s.games() == 200);
  }
  SUBCASE("a single play game") {
    Schedule::Params p = params(config::TournamentType::Play, 2, 1, 1);
    p.games_per_pair = 1;
    Schedule s(p);
    CHECK(s.games() == 1);
    CHECK(s.game(0).black == 0);
  }
}

TEST_CASE("opening order is deterministic") {
  using config::OpeningOrder;
  Schedule a(params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 7));
  Schedule b(params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 7));
  Schedule c(params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 8));
  std::vector<int> oa, ob, oc;
  for (int r = 0; r < 25; ++r) {
    oa.push_back(a.opening_of_round(r));
    ob.push_back(b.opening_of_round(r));
    oc.push_back(c.opening_of_round(r));
  }
  CHECK(oa == ob);
  CHECK(oa != oc);
  // Each pass through the list is a permutation: no opening repeats before all have been played.
  for (int pass = 0; pass < 2; ++pass) {
    std::set<int> seen(oa.begin() + pass * 10, oa.begin() + pass * 10 + 10);
    CHECK(seen.size() == 10);
  }
  // Pinned values: the order must not change between versions or platforms, or --resume would break.
  INFO("first pass: ", oa[0], " ", oa[1], " ", oa[2], " ", oa[3], " ", oa[4], " ", oa[5], " ", oa[6], " ", oa[7], " ",
       oa[8], " ", oa[9]);
  CHECK(std::vector<int>(oa.begin(), oa.begin() + 10) == std::vector<int>{8, 1, 5, 9, 0, 4, 3, 2, 6, 7});

  const std::vector<std::string> names = {"x", "y"}, positions(10, "startpos");
  CHECK(schedule_id(a, names, positions) == schedule_id(b, names, positions));
  CHECK(schedule_id(a, names, positions) != schedule_id(c, names, positions));
  CHECK(schedule_id(a, names, positions) != schedule_id(a, {"x", "z"}, positions));
}

TEST_CASE("opening lines") {
  shogi::Position::init();
  auto line = [](std::string_view text, int plies = 0) { return parse_opening_line(text, plies); };
  CHECK(line("startpos")->position == "startpos");
  CHECK(line("startpos moves 7g7f 3c3d 2g2f")->position == "startpos moves 7g7f 3c3d 2g2f");
  CHECK(line("position startpos moves 7g7f 3c3d 2g2f", 2)->position == "startpos moves 7g7f 3c3d");
  CHECK(line("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d")->position ==
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d");
  CHECK(line("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")->position ==
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  auto bad = line("startpos moves 7g7f 7g7f");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("move 2") != std::string::npos);
  CHECK_FALSE(line("sfen not-a-position b - 1"));
}

TEST_CASE("opening files") {
  TempDir dir("openings");
  SUBCASE("one per line, comments and blank lines skipped, errors with the line number") {
    auto ok = load_openings(dir.file("a.sfen", "# header\n\nstartpos moves 7g7f 3c3d\r\nsfen " +
                                                   std::string(shogi::START_SFEN) + " moves 2g2f\n"),
                            0);
    REQUIRE(ok);
    REQUIRE(ok->size() == 2);
    CHECK((*ok)[1].position == "sfen " + std::string(shogi::START_SFEN) + " moves 2g2f");
    CHECK((*ok)[1].source.ends_with("a.sfen:4"));
    auto bad =
        load_openings(dir.file("b.sfen", "startpos moves 7g7f\nstartpos moves 7g7f 3c3d 7f7e 3d3e 7e7d 3e3e\n"), 0);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("b.sfen:2: ") != std::string::npos);
    CHECK(bad.error().find("move 6") != std::string::npos);
    CHECK_FALSE(load_openings(dir.file("c.sfen", "# nothing\n"), 0));
    CHECK_FALSE(load_openings((dir.path / "missing.sfen").string(), 0));
  }
  SUBCASE("CSA records, several games in one file") {
    const std::string csa =
        "V2.2\nN+sente\nN-gote\n$EVENT:test\nPI\n+\n+7776FU\nT3\n-3334FU,T1\n+8822UM\n-3122GI\n%TORYO\n/\n"
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
        "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  * +FU *  *  *  *  *  * \n"
        "P7+FU+FU * +FU+FU+FU+FU+FU * \nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
        "P+00FU\n-\n-3334FU\n";
    auto r = load_openings(dir.file("g.csa", csa), 3);
    REQUIRE(r);
    REQUIRE(r->size() == 2);
    CHECK((*r)[0].position ==
          "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 8h2b+");
    CHECK((*r)[1].position == "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPP1/1B5R1/LNSGKGSNL w P 1 moves 3c3d");
    auto bad = load_openings(dir.file("bad.csa", "PI\n+\n+7776FU\n-7776FU\n"), 0);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("bad.csa:4: ") != std::string::npos);
  }
  SUBCASE("KIF records, UTF-8 and Shift_JIS") {
    const std::string kif =
        "# ---- Kifu for Windows ----\n手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n"
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n"
        "   3 ２二角成(88)   ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:02)\n"
        "   5 ４五角打   ( 0:01/00:00:03)\n   6 ６二銀(71)   ( 0:01/00:00:03)\n"
        "   7 ６三角不成(45)   ( 0:01/00:00:04)\n   8 投了\nまで7手で先手の勝ち\n";
    auto r = load_openings(dir.file("g.kif", kif), 0);
    REQUIRE(r);
    CHECK(r->front().position == "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 7a6b 4e6c");
    auto cut = load_openings(dir.file("g2.kif", kif), 4);
    CHECK(cut->front().position == "startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    // The first two moves in Shift_JIS (CP932): "１" = 82 50, "七" = 8E B5 ... built from bytes.
    const std::string sjis =
        "\x8e\xe8\x8d\x87\x8a\x84\x81\x46\x95\xbd\x8e\xe8\n"  // 手合割：平手
        "   1 \x82\x56\x98\x5a\x95\xe0(77)\n"                 // ７六歩(77)
        "   2 \x82\x52\x8e\x6c\x95\xe0(33)\n";                // ３四歩(33)
    auto s = load_openings(dir.file("s.kif", sjis), 0);
    REQUIRE(s);
    CHECK(s->front().position == "startpos moves 7g7f 3c3d");
    auto handicap = load_openings(dir.file("h.kif", "手合割：香落ち\n   1 ３四歩(33)\n"), 0);
    REQUIRE_FALSE(handicap);
    CHECK(handicap.error().find("h.kif:1: only even games") != std::string::npos);
  }
  SUBCASE("the shared GPS suite, when present") {
    const std::string path = std::string(SHOGI_ARENA_SHARED_DIR) + "/openings/gps24.sfen";
    if (!fs::exists(path)) return;
    auto r = load_openings(path, 16);
    REQUIRE(r);
    CHECK(r->size() == 85);
    for (const Opening& o : *r) CHECK(o.position.starts_with("startpos moves "));
  }
}

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
  Schedule s(params(config::TournamentType::Gauntlet, 2, 2, 1));
  PlayedGame g;
  g.names[shogi::BLACK] = "a";
  g.names[shogi::WHITE] = "b";
  g.start_sfen = std::string(shogi::START_SFEN);
  g.result = {Outcome::WhiteWin, Termination::TimeForfeit, "a: 1203 ms > 1100 ms"};
  REQUIRE(w->append(journal_line(s.game(0), 0, false, g)));
  g.names[shogi::BLACK] = "b";
  g.names[shogi::WHITE] = "a";
  g.result = {Outcome::BlackWin, Termination::Disconnect, "a crashed"};
  REQUIRE(w->append(journal_line(s.game(1), 2, true, g)));
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
  REQUIRE(again->append(journal_line(s.game(2), 0, false, g)));
  auto c2 = read_journal(path);
  REQUIRE(c2);
  CHECK_FALSE(c2->torn);
  CHECK(c2->games.size() == 3);

  std::ofstream(path, std::ios::app) << "not json\n{}\n";
  auto broken = read_journal(path);
  REQUIRE_FALSE(broken);
  CHECK(broken.error().find("j.jsonl:5: ") != std::string::npos);
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
  ScheduledGame s;  // game 0 of pair 0, round 0, opening 0
  CHECK(journal_line(s, 0, false, *played) == game_line);

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

TEST_CASE("resume plan") {
  Schedule s(params(config::TournamentType::Gauntlet, 2, 3, 1));
  const std::vector<std::string> names = {"a", "b"};
  std::vector<JournalGame> games = {
      jg(0, 0, false, "a", "b", Outcome::BlackWin),
      jg(1, 0, false, "b", "a", Outcome::Draw),
      jg(2, 0, false, "a", "b", Outcome::BlackWin),  // pair 1: game 0 done, then game 1 broke the pair
      jg(3, 0, true, "b", "a", Outcome::WhiteWin, Termination::Disconnect),
      jg(2, 1, false, "a", "b", Outcome::Draw),  // pair 1, attempt 1: game 0 done
      jg(4, 0, false, "a", "b", Outcome::BlackWin),
      jg(4, 0, false, "a", "b", Outcome::BlackWin),  // a duplicate
  };
  auto plan = ResumePlan::make(games, s, names);
  REQUIRE(plan);
  CHECK(plan->pair(0).attempt == 0);
  CHECK(plan->pair(0).done[0]);
  CHECK(plan->pair(0).done[1]);
  CHECK(plan->pair(1).attempt == 1);
  CHECK(plan->pair(1).done[0]);
  CHECK_FALSE(plan->pair(1).done[1]);
  CHECK(plan->pair(2).done[0]);
  CHECK_FALSE(plan->pair(2).done[1]);
  CHECK(plan->games_done() == 4);
  CHECK(plan->warnings().size() == 1);

  auto wrong = ResumePlan::make({jg(1, 0, false, "a", "b", Outcome::Draw)}, s, names);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().find("schedule says b vs a") != std::string::npos);
  CHECK_FALSE(ResumePlan::make({jg(6, 0, false, "a", "b", Outcome::Draw)}, s, names));
}

TEST_CASE("standings") {
  Tally t({"a", "b"}, {Pairing{0, 1}}, 2);
  t.add(jg(0, 0, false, "a", "b", Outcome::BlackWin));                            // a wins as black
  t.add(jg(1, 0, false, "b", "a", Outcome::Draw));                                // pair 0: W + D = 1.5
  t.add(jg(2, 0, false, "a", "b", Outcome::WhiteWin, Termination::TimeForfeit));  // a loses on time as black
  CHECK(t.scored() == 3);
  CHECK(t.pairings()[0].penta == stats::PentaCounts{0, 0, 0, 1, 0});
  // Game 3 breaks pair 1: game 2 is taken back out of the scores but its time loss stays in the faults.
  t.add(jg(3, 0, true, "b", "a", Outcome::BlackWin, Termination::Disconnect));
  CHECK(t.scored() == 2);
  CHECK(t.void_games() == 2);
  CHECK(t.replays() == 1);
  CHECK(t.engines()[0].time_losses == 1);
  CHECK(t.engines()[0].crashes == 1);
  t.add(jg(2, 1, false, "a", "b", Outcome::BlackWin));
  t.add(jg(3, 1, false, "b", "a", Outcome::WhiteWin));
  CHECK(t.scored() == 4);
  const PairingRecord& r = t.pairings()[0];
  CHECK(r.wdl == stats::WdlCounts{3, 0, 1});
  CHECK(r.as_black == stats::WdlCounts{2, 0, 0});
  CHECK(r.as_white == stats::WdlCounts{1, 0, 1});
  CHECK(r.penta == stats::PentaCounts{0, 0, 0, 1, 1});
  CHECK(t.engines()[1].wdl == stats::WdlCounts{0, 3, 1});
  CHECK(t.engines()[0].points() == 3.5);
  auto sum = t.summary(0);
  REQUIRE(sum);
  CHECK(sum->n == 2);  // pentanomial: pairs

  SUBCASE("pairings found from the games (a journal without a header)") {
    Tally u({}, {}, 2);
    u.add(jg(0, 0, false, "x", "y", Outcome::Draw));
    u.add(jg(1, 0, false, "y", "x", Outcome::BlackWin));
    REQUIRE(u.pairings().size() == 1);
    CHECK(u.engines()[size_t(u.pairings()[0].pairing.first)].name == "x");
    CHECK(u.pairings()[0].wdl == stats::WdlCounts{0, 1, 1});
    CHECK(u.pairings()[0].penta == stats::PentaCounts{0, 1, 0, 0, 0});
  }
  SUBCASE("SPRT status on the pentanomial counts") {
    stats::SprtConfig c{0.05, 0.05, 0, 5, stats::EloModel::Normalized};
    SprtStatus st = sprt_status(t, c);
    CHECK(st.llr == doctest::Approx(stats::sprt_llr(r.penta, c)));
    CHECK(st.bounds.upper == doctest::Approx(std::log(19.0)));
  }
}

TEST_CASE("the SPRT decides on the longest complete prefix of pairs, at the first pair where it crosses a bound") {
  // a wins both games of three pairs in four, and splits the fourth: the LLR rises.
  auto win_pair = [](int64_t pair) {
    return std::vector<JournalGame>{
        jg(pair * 2, 0, false, "a", "b", Outcome::BlackWin),
        jg(pair * 2 + 1, 0, false, "b", "a", pair % 4 == 3 ? Outcome::BlackWin : Outcome::WhiteWin)};
  };
  const stats::SprtConfig c{0.05, 0.05, 0, 40, stats::EloModel::Logistic};
  // Where it decides when the pairs come in order.
  Tally in_order({"a", "b"}, {Pairing{0, 1}}, 2);
  in_order.decide_sprt(c);
  int64_t decided_at = -1;
  for (int64_t pair = 0; pair < 200 && decided_at < 0; ++pair) {
    for (const JournalGame& g : win_pair(pair)) in_order.add(g);
    if (in_order.sprt_decided()) decided_at = pair + 1;
  }
  REQUIRE(decided_at > 2);
  CHECK(in_order.prefix_pairs() == decided_at);
  CHECK(sprt_status(in_order, c).verdict == stats::SprtVerdict::AcceptH1);

  // The same pairs finishing out of order, with pair 0 last: nothing is decided while pair 0 is missing, however
  // many later pairs are in; then the prefix stops exactly where the in-order run decided.
  Tally shuffled({"a", "b"}, {Pairing{0, 1}}, 2);
  shuffled.decide_sprt(c);
  for (int64_t pair = decided_at + 20; pair >= 1; --pair)
    for (const JournalGame& g : win_pair(pair)) shuffled.add(g);
  CHECK(shuffled.prefix_pairs() == 0);
  CHECK_FALSE(shuffled.sprt_decided());
  CHECK(sprt_status(shuffled, c).llr == 0.0);
  shuffled.add(win_pair(0)[0]);
  CHECK_FALSE(shuffled.sprt_decided());  // half a pair is not a complete pair
  shuffled.add(win_pair(0)[1]);
  CHECK(shuffled.sprt_decided());
  CHECK(shuffled.prefix_pairs() == decided_at);
  CHECK(sprt_status(shuffled, c).llr == doctest::Approx(sprt_status(in_order, c).llr));
  CHECK(shuffled.scored() == 2 * (decided_at + 21));  // the other statistics count every game

  // A pair broken by a crash and replayed is complete only with its new attempt.
  Tally replayed({"a", "b"}, {Pairing{0, 1}}, 2);
  replayed.add(jg(0, 0, true, "a", "b", Outcome::WhiteWin, Termination::Disconnect));
  replayed.add(jg(1, 1, false, "b", "a", Outcome::WhiteWin));
  CHECK(replayed.prefix_pairs() == 0);
  replayed.add(jg(0, 1, false, "a", "b", Outcome::BlackWin));
  CHECK(replayed.prefix_pairs() == 1);
  CHECK(replayed.prefix_penta() == stats::PentaCounts{0, 0, 0, 0, 1});
}

TEST_CASE("the shipped suites load; wide-24 has 10,000 distinct positions") {
  shogi::Position::init();
  auto balanced = load_openings(std::string(SHOGI_ARENA_SOURCE_DIR) + "/openings/balanced-24.sfen", 0);
  REQUIRE(balanced);
  CHECK(balanced->size() == 100);
  auto wide = load_openings(std::string(SHOGI_ARENA_SOURCE_DIR) + "/openings/wide-24.sfen", 0);
  REQUIRE_MESSAGE(wide, (wide ? "" : wide.error()));
  CHECK(wide->size() >= 10000);
  std::set<std::string> positions;
  for (const Opening& o : *wide) {
    shogi::GameRecord record;
    REQUIRE(record.start(o.position));
    CHECK(record.moves().size() == 24);
    // The final position without its move number: transpositions count once.
    std::string sfen = record.position().sfen();
    positions.insert(sfen.substr(0, sfen.rfind(' ')));
  }
  CHECK(positions.size() == wide->size());
}

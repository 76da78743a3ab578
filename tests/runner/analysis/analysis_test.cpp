// The analysis without a referee: how a move is judged from scores, a game judged from given evaluations (the
// decisive mistake included), the analysis file read back and resumed, the game selection and the figures.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/analysis_file.h"
#include "analysis/analyze.h"
#include "analysis/annotated_records.h"
#include "analysis/game_analysis.h"
#include "analysis/judgement.h"
#include "analysis/source_games.h"
#include "analysis/summary.h"
#include "output/csa_record.h"
#include "output/kif_record.h"
#include "sample_games.h"
#include "support/temp_dir.h"

using namespace arena;
using namespace arena::analysis;

namespace {

usi::Score cp(int v) {
  usi::Score s;
  s.value = v;
  return s;
}

usi::Score mate(int plies) {
  usi::Score s;
  s.kind = usi::Score::Kind::Mate;
  s.value = plies;
  s.mate_sign = plies < 0 ? -1 : 1;
  return s;
}

Evaluation eval(usi::Score s, std::string best = "x") {
  Evaluation e;
  e.score = s;
  e.best = std::move(best);
  return e;
}

// Ten plies from the start position, the first two the opening's, each taking a second on a 10 s + 1 s clock;
// black (A) resigns.
PlayedGame ten_ply_game(Outcome outcome = Outcome::WhiteWin) {
  std::vector<testing::SampleMove> moves = {{"7g7f", 0},    {"3c3d", 0},    {"2g2f", 1000}, {"8c8d", 1000},
                                            {"2f2e", 1000}, {"8d8e", 1000}, {"6i7h", 1000}, {"4a3b", 1000},
                                            {"2e2d", 1000}, {"2c2d", 1000}};
  moves[9].info.score_cp = 250;
  PlayedGame g = testing::make_game("startpos", moves, outcome, Termination::Resign);
  g.names[shogi::BLACK] = std::string(1, 'A');  // (a literal here trips GCC 12's false -Wrestrict)
  g.names[shogi::WHITE] = std::string(1, 'B');
  g.moves[0].opening = g.moves[1].opening = true;
  auto tc = game::parse_time_control("10+1");
  g.time_controls[shogi::BLACK] = g.time_controls[shogi::WHITE] = *tc;
  return g;
}

// Evaluations of the 9 positions from ply 2 on, from the side to move's view, given from black's view.
std::vector<Evaluation> from_black(const std::vector<int>& black_cp, const std::vector<std::string>& best = {}) {
  std::vector<Evaluation> out;
  for (size_t i = 0; i < black_cp.size(); ++i) {
    const bool black_to_move = i % 2 == 0;  // after the 2 opening plies black moves first
    out.push_back(eval(cp(black_to_move ? black_cp[i] : -black_cp[i]), i < best.size() ? best[i] : "x"));
  }
  return out;
}

}  // namespace

TEST_CASE("judgement: a logistic of the score, mates as certainties") {
  CHECK(win_chance(cp(0), 600) == doctest::Approx(0.5));
  CHECK(win_chance(cp(600), 600) == doctest::Approx(1 / (1 + std::exp(-1.0))));
  CHECK(win_chance(cp(-600), 600) == doctest::Approx(1 - 1 / (1 + std::exp(-1.0))));
  CHECK(win_chance(mate(7), 600) == 1.0);
  CHECK(win_chance(mate(-2), 600) == 0.0);
  CHECK(flipped(mate(7)).value == -7);
  CHECK(is_mate_against(flipped(mate(7))));
  CHECK(flipped(cp(35)).value == -35);
  CHECK(capped_cp(mate(-3), 2000) == -2000);
  CHECK(capped_cp(cp(9000), 2000) == 2000);
}

TEST_CASE("judgement: by winning chance given up, not by centipawns") {
  JudgeOptions o;
  SUBCASE("500 centipawns from an even position is a blunder") {
    MoveJudgement j = judge_move(cp(0), cp(-500), false, o);
    CHECK(j.judgement == Judgement::Blunder);
    CHECK(j.loss_cp == 500);
  }
  SUBCASE("the same 500 in a won position changes nothing") {
    MoveJudgement j = judge_move(cp(1900), cp(1400), false, o);
    CHECK(j.judgement == Judgement::Good);
    CHECK(j.loss_cp == 500);
  }
  SUBCASE("the thresholds, in order") {
    CHECK(judge_move(cp(0), cp(-100), false, o).judgement == Judgement::Good);        // 0.5 -> 0.458
    CHECK(judge_move(cp(0), cp(-150), false, o).judgement == Judgement::Inaccuracy);  // 0.5 -> 0.438
    CHECK(judge_move(cp(0), cp(-300), false, o).judgement == Judgement::Mistake);     // 0.5 -> 0.378
    CHECK(judge_move(cp(0), cp(-380), false, o).judgement == Judgement::Blunder);     // 0.5 -> 0.347
    o.blunder = 0.09;
    o.mistake = 0.08;
    CHECK(judge_move(cp(0), cp(-250), false, o).judgement == Judgement::Blunder);  // 0.5 -> 0.397
  }
  SUBCASE("the referee's own move is best, whatever its score does next") {
    MoveJudgement j = judge_move(cp(0), cp(-900), true, o);
    CHECK(j.judgement == Judgement::Best);
    CHECK(j.loss_cp == 0);
  }
  SUBCASE("a score that rises is no loss") { CHECK(judge_move(cp(0), cp(300), false, o).loss_cp == 0); }
  SUBCASE("a missed mate, a win turned into a loss") {
    MoveJudgement j = judge_move(mate(5), cp(1500), false, o);
    CHECK(j.missed_mate);
    CHECK(j.judgement == Judgement::Inaccuracy);  // 1 -> 0.924: a won position kept
    CHECK(j.loss_cp == 500);
    MoveJudgement k = judge_move(cp(800), mate(-4), false, o);
    CHECK(k.win_to_loss);
    CHECK(k.judgement == Judgement::Blunder);
    CHECK_FALSE(judge_move(mate(5), mate(3), false, o).missed_mate);
  }
}

TEST_CASE("analyse_game: each move's scores from the mover's view, times, own scores") {
  PlayedGame g = ten_ply_game();
  g.moves[6].info.score_cp = 40;    // black's own score at ply 7
  g.moves[7].info.score_mate = -9;  // white's at its reply
  GameAnalysis a = analyse_game(g, from_black({30, 20, 40, 10, 10, -600, -700, -800, -900}), JudgeOptions{});
  CHECK(a.opening_plies == 2);
  CHECK(a.plies == 10);
  REQUIRE(a.moves.size() == 8);
  CHECK(a.moves[0].ply == 3);
  CHECK(a.moves[0].mover == shogi::BLACK);
  CHECK(a.moves[0].move == "2g2f");
  CHECK(a.moves[0].score.value == 30);
  CHECK(a.moves[0].after.value == 20);
  CHECK(a.moves[1].mover == shogi::WHITE);
  CHECK(a.moves[1].score.value == -20);  // white's view
  CHECK(a.moves[1].after.value == -40);
  CHECK(a.moves[0].given_ms == 11000);  // 10 s + 1 s before its first move
  CHECK(a.moves[2].given_ms == 10999);  // 10 + 1 - 1.0005 (a recorded time is rounded down) + 1
  CHECK(a.moves[2].used_ms == 1000);
  CHECK_FALSE(a.moves[0].own);
  REQUIRE(a.moves[7].own);
  CHECK(a.moves[7].own->value == 250);
  // Black's 7th ply (6i7h, ply 7) took it from +10 to -600: the blunder, and the decisive mistake.
  CHECK(a.moves[4].ply == 7);
  CHECK(a.moves[4].judged.judgement == Judgement::Blunder);
  REQUIRE(a.decisive);
  CHECK(a.decisive->ply == 7);
  CHECK(a.decisive->mover == shogi::BLACK);
  CHECK(a.decisive->time_left_ms[shogi::BLACK] == 10999);
  CHECK(a.decisive->time_left_ms[shogi::WHITE] == 10999);
  REQUIRE(a.decisive->own[shogi::BLACK]);
  CHECK(a.decisive->own[shogi::BLACK]->value == 40);
  REQUIRE(a.decisive->own[shogi::WHITE]);
  CHECK(a.decisive->own[shogi::WHITE]->is_mate());
  CHECK(a.decisive->own[shogi::WHITE]->value == -9);
  auto back = parse_game_analysis(to_json(a));
  REQUIRE(back);
  CHECK(to_json(*back) == to_json(a));
  CHECK(summary_table(summarise({a})).find("(referee: x, -610 cp); own scores 40 / mate -9") != std::string::npos);
}

TEST_CASE("decisive mistake: the loser's move after which it stayed lost") {
  SUBCASE("a recovery moves it later") {
    // Black falls to -600 with ply 5, is back to 0 after ply 6, falls for good with ply 9.
    GameAnalysis a = analyse_game(ten_ply_game(), from_black({0, 0, 0, -600, 0, 0, 0, -900, -900}), {});
    REQUIRE(a.decisive);
    CHECK(a.decisive->ply == 9);
  }
  SUBCASE("the winner's move into the lost position: the loser's move before it") {
    GameAnalysis a = analyse_game(ten_ply_game(), from_black({0, 0, 0, 0, -700, -700, -700, -700, -700}), {});
    REQUIRE(a.decisive);
    CHECK(a.decisive->ply == 5);
  }
  SUBCASE("lost from the first analysed position: none") {
    GameAnalysis a =
        analyse_game(ten_ply_game(), from_black({-900, -900, -900, -900, -900, -900, -900, -900, -900}), {});
    CHECK_FALSE(a.decisive);
  }
  SUBCASE("lost while holding the position (time, illegal move): none") {
    GameAnalysis a = analyse_game(ten_ply_game(), from_black({0, 0, 0, 0, 0, 0, 0, 0, 0}), {});
    CHECK_FALSE(a.decisive);
  }
  SUBCASE("a draw has none") {
    GameAnalysis a =
        analyse_game(ten_ply_game(Outcome::Draw), from_black({0, 0, -900, -900, -900, -900, -900, -900, -900}), {});
    CHECK_FALSE(a.decisive);
  }
  SUBCASE("the referee's own move into the lost position: none") {
    std::vector<std::string> best = {"x", "x", "x", "x", "6i7h"};  // position 4 is before ply 7 (6i7h)
    GameAnalysis a = analyse_game(ten_ply_game(), from_black({0, 0, 0, 0, 0, -800, -800, -800, -800}, best), {});
    CHECK(a.moves[4].judged.judgement == Judgement::Best);
    CHECK_FALSE(a.decisive);
  }
  SUBCASE("a mate at the end") {
    std::vector<Evaluation> e = from_black({0, 0, 0, 0, 0, -700, -700, -700});
    e.push_back(mated_now());  // black to move, mated
    GameAnalysis a = analyse_game(ten_ply_game(), e, {});
    CHECK(a.moves.back().after.is_mate());
    CHECK(is_mate_for(a.moves.back().after));
    REQUIRE(a.decisive);
    CHECK(a.decisive->ply == 7);
  }
}

TEST_CASE("analysis file: lines read back as written, a torn line left out, a bad line named") {
  test_support::TempDir dir("analysis");
  const std::string path = (dir.path / "analysis.jsonl").string();
  AnalysisHeader h;
  h.referee_name = "ref";
  h.referee_command = "/bin/ref";
  h.referee_options = {{"Threads", "1"}, {"USI_Hash", "64"}};
  h.nodes = 20000;
  h.created = "2026-11-29T00:00:00Z";
  GameAnalysis a = analyse_game(ten_ply_game(), from_black({30, 20, 40, 10, 10, -600, -700, -800, -900}), {});
  a.game = 7;
  auto w = AnalysisWriter::create(path, h);
  REQUIRE(w);
  REQUIRE(w->append(a));
  GameAnalysis b = a;
  b.game = 8;
  b.source = "x.csa";
  b.decisive.reset();
  REQUIRE(w->append(b));

  auto read = read_analysis(path);
  REQUIRE_MESSAGE(read, (read ? "" : read.error()));
  REQUIRE(read->header);
  CHECK(read->header->referee_options == h.referee_options);
  CHECK(read->header->nodes == 20000);
  CHECK(read->header->deterministic());
  CHECK(analysis_mismatch(*read->header, h).empty());
  REQUIRE(read->games.size() == 2);
  CHECK(to_json(read->games[0]) == to_json(a));  // every field back, the line the same
  CHECK(read->games[1].source == "x.csa");
  CHECK_FALSE(read->games[1].decisive);
  CHECK(read->games[0].moves[4].judged.judgement == Judgement::Blunder);
  CHECK_FALSE(read->torn);

  AnalysisHeader other = h;
  other.nodes = 50000;
  CHECK(analysis_mismatch(h, other) == "the referee's budget differs: nodes 20000 in the file, nodes 50000 asked");
  other = h;
  other.judge.blunder = 0.2;
  CHECK_FALSE(analysis_mismatch(h, other).empty());

  // A kill in the middle of a line: left out, and cut off when the analysis goes on.
  const uint64_t whole = std::filesystem::file_size(path);
  {
    std::ofstream out(path, std::ios::app);
    out << to_json(b).substr(0, 40);
  }
  auto torn = read_analysis(path);
  REQUIRE(torn);
  CHECK(torn->torn);
  CHECK(torn->games.size() == 2);
  CHECK(torn->valid_size == whole);
  auto again = AnalysisWriter::append_to(path, torn->valid_size);
  REQUIRE(again);
  REQUIRE(again->append(b));
  auto resumed = read_analysis(path);
  REQUIRE(resumed);
  CHECK(resumed->games.size() == 3);
  CHECK_FALSE(resumed->torn);

  {
    std::ofstream out(path, std::ios::app);
    out << "{\"game\":9,\"black\":1}\n";
  }
  auto bad = read_analysis(path);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find(path + ":5: ") == 0);
}

TEST_CASE("game selection: all, decisive, lost-by, numbers as the console shows them") {
  SourceGame won{3, {}, ten_ply_game(Outcome::WhiteWin)};
  SourceGame drawn{4, {}, ten_ply_game(Outcome::Draw)};
  auto all = parse_game_selection("all");
  REQUIRE(all);
  CHECK(all->selects(drawn));
  auto decisive = parse_game_selection("decisive");
  REQUIRE(decisive);
  CHECK(decisive->selects(won));
  CHECK_FALSE(decisive->selects(drawn));
  auto lost_by = parse_game_selection("lost-by=A");
  REQUIRE(lost_by);
  CHECK(lost_by->selects(won));
  CHECK_FALSE(parse_game_selection("lost-by=B")->selects(won));
  auto numbers = parse_game_selection("1,4-5");
  REQUIRE(numbers);
  CHECK(numbers->selects(won));  // game 3 is the console's 4
  CHECK(numbers->selects(drawn));
  CHECK_FALSE(parse_game_selection("4")->selects(drawn));
  CHECK_FALSE(parse_game_selection("lost-by="));
  CHECK_FALSE(parse_game_selection("0"));
  CHECK_FALSE(parse_game_selection("3-1"));
  CHECK(parse_game_selection("x").error().find("expected all, decisive, lost-by=NAME or game numbers") == 0);
}

TEST_CASE("summary: per engine, by phase and by time left, the lost games with their decisive mistakes") {
  GameAnalysis a = analyse_game(ten_ply_game(), from_black({30, 20, 40, 10, 10, -600, -700, -800, -900}), {});
  std::vector<EngineSummary> s = summarise({a});
  REQUIRE(s.size() == 2);
  CHECK(s[0].engine == "A");
  CHECK(s[0].all.moves == 4);
  CHECK(s[0].all.blunders == 1);
  CHECK(s[0].all.loss_cp == 750);  // 10 + 30 + 610 + 100
  CHECK(s[0].all.average_loss() == doctest::Approx(187.5));
  CHECK(s[0].all.blunders_per_100() == doctest::Approx(25));
  CHECK(s[0].by_phase[0].moves == 4);
  CHECK(s[0].by_time[0].moves == 4);  // every move with more than half its first allowance left
  CHECK(s[0].losses == 1);
  REQUIRE(s[0].lost.size() == 1);
  CHECK(s[0].lost[0].move == "6i7h");
  CHECK(s[0].lost[0].loss_cp == 610);
  CHECK(s[0].lost[0].opponent == "B");
  CHECK(s[1].wins == 1);
  CHECK(s[1].all.blunders == 0);
  const std::string table = summary_table(s);
  CHECK(table.find("lost game 1 to B: decisive mistake at ply 7, 6i7h (referee: x, -610 cp)") != std::string::npos);

  CHECK(time_bucket_of(600, 1000) == 0);
  CHECK(time_bucket_of(500, 1000) == 1);
  CHECK(time_bucket_of(199, 1000) == 2);
  CHECK(time_bucket_of(-1, 1000) == 3);
  CHECK(phase_of(40) == 0);
  CHECK(phase_of(41) == 1);
  CHECK(phase_of(81) == 2);
}

TEST_CASE("records: CSA and KIF of every ending read back with their names, moves, times and result") {
  for (const testing::NamedGame& named : testing::ending_games()) {
    CAPTURE(named.name);
    const PlayedGame& g = named.game;
    auto csa = to_csa_record(g);
    REQUIRE(csa);
    auto from_csa = parse_csa_games(*csa, named.name + ".csa");
    REQUIRE_MESSAGE(from_csa, (from_csa ? "" : from_csa.error()));
    REQUIRE(from_csa->size() == 1);
    auto kif = to_kif_record(g);
    REQUIRE(kif);
    auto from_kif = parse_kif_game(*kif, named.name + ".kif");
    REQUIRE_MESSAGE(from_kif, (from_kif ? "" : from_kif.error()));
    for (const SourceGame* read : {&from_csa->front(), &*from_kif}) {
      const PlayedGame& p = read->played;
      CHECK(p.names[shogi::BLACK] == g.names[shogi::BLACK]);
      CHECK(p.names[shogi::WHITE] == g.names[shogi::WHITE]);
      CHECK(p.start_sfen == g.start_sfen);
      REQUIRE(p.moves.size() == g.moves.size());
      for (size_t i = 0; i < g.moves.size(); ++i) {
        CHECK(p.moves[i].move == g.moves[i].move);
        CHECK(p.moves[i].time_ms / 1000 == g.moves[i].time_ms / 1000);  // whole seconds in both formats
      }
      CHECK(p.result.outcome == g.result.outcome);
    }
  }
}

TEST_CASE("records: a CSA file of several games, Floodgate comments as the movers' own scores") {
  const std::string text =
      "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU,T3\n'** 45 -3334FU\n-3334FU,T12\n'** 30000\n%TORYO\n/\n"
      "N+a\nN-b\nPI\n+\n+2726FU\nT1\n-8384FU\nT2\n%SENNICHITE\n";
  auto games = parse_csa_games(text, "two.csa");
  REQUIRE_MESSAGE(games, (games ? "" : games.error()));
  REQUIRE(games->size() == 2);
  const PlayedGame& first = (*games)[0].played;
  CHECK(first.names[shogi::BLACK] == "sente");
  CHECK(first.moves[0].time_ms == 3000);
  CHECK(first.moves[1].time_ms == 12000);
  CHECK(first.moves[0].info.score_cp == 45);                        // black's view, black moved
  CHECK(first.moves[1].info.score_mate == -UNKNOWN_MATE_DISTANCE);  // +30000 for black: white is mated
  CHECK(first.result.outcome == Outcome::WhiteWin);                 // black to move resigned
  CHECK((*games)[1].game == 1);
  CHECK((*games)[1].played.result.outcome == Outcome::Draw);
  CHECK((*games)[1].source == "two.csa");

  auto broken = parse_csa_games("PI\n+\n+7775FU\n", "bad.csa");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().find("bad.csa") != std::string::npos);
}

TEST_CASE("records: ShogiHome's KIF comments as the movers' own scores") {
  PlayedGame g = ten_ply_game();
  g.moves[2].info.score_cp = 45;    // black moved: black's view 45
  g.moves[3].info.score_cp = -80;   // white's own -80: black's view +80
  g.moves[4].info.score_mate = 3;   // black mates: +30000 in the record
  g.moves[5].info.score_mate = -2;  // white is mated: +30000 for black
  g.moves[9].info.score_cp.reset();
  auto kif = to_kif_record(g);
  REQUIRE(kif);
  REQUIRE(kif->find("*#評価値=80\n") != std::string::npos);
  auto read = parse_kif_game(*kif, "own.kif");
  REQUIRE_MESSAGE(read, (read ? "" : read.error()));
  const PlayedGame& p = read->played;
  REQUIRE(p.moves.size() == g.moves.size());
  CHECK(p.moves[2].info.score_cp == 45);
  CHECK(p.moves[3].info.score_cp == -80);
  CHECK(p.moves[4].info.score_mate == UNKNOWN_MATE_DISTANCE);
  CHECK(p.moves[5].info.score_mate == -UNKNOWN_MATE_DISTANCE);
  for (size_t i : {0, 1, 6, 7, 8, 9}) CHECK_FALSE(p.moves[i].info.score_cp);

  // A comment before the first move, another kind of comment and a garbled score are no scores.
  const std::string text =
      "手合割：平手\n*#評価値=500\n手数----指手---------消費時間--\n"
      "   1 ７六歩(77)   ( 0:01/00:00:01)\n*対局者のコメント\n*#評価値=12x\n"
      "   2 ３四歩(33)   ( 0:02/00:00:02)\n*#評価値=-7\n\n変化：2手\n"
      "   2 ８四歩(83)   ( 0:09/00:00:09)\n*#評価値=900\n";
  auto plain = parse_kif_game(text, "plain.kif");
  REQUIRE_MESSAGE(plain, (plain ? "" : plain.error()));
  REQUIRE(plain->played.moves.size() == 2);
  CHECK_FALSE(plain->played.moves[0].info.score_cp);
  CHECK(plain->played.moves[1].info.score_cp == 7);  // -7 for black: white's own +7; not the variation's
  CHECK(plain->played.moves[1].time_ms == 2000);
}

TEST_CASE(
    "annotated records: the referee's score after each move and its best reply, in Floodgate's and ShogiHome's form") {
  PlayedGame g = ten_ply_game();
  g.moves[4].info.score_cp = 999;  // the engine's own comment: replaced
  std::vector<Evaluation> e = from_black({30, 20, 40, 10, 10, -600, -700, -800, -900});
  e[1].best = "8c8d";
  GameAnalysis a = analyse_game(g, e, {});
  a.game = 4;
  PlayedGame annotated = annotated_game(g, a);
  CHECK_FALSE(annotated.moves[0].info.score_cp);  // the opening is not judged
  CHECK(annotated.moves[2].info.score_cp == 20);  // after 2g2f, black's view, as black moved
  CHECK(annotated.moves[2].info.pv == std::vector<std::string>{"2g2f", "8c8d"});
  CHECK(annotated.moves[4].info.score_cp == 10);  // the engine's 999 replaced
  CHECK(annotated.moves[6].info.score_cp == -600);
  CHECK(annotated.moves[9].info.pv == std::vector<std::string>{"2c2d"});  // no reply after the last move
  auto csa = to_csa_record(annotated);
  REQUIRE(csa);
  CHECK(csa->find("+2726FU\nT1\n'** 20 -8384FU\n") != std::string::npos);
  auto kif = to_kif_record(annotated);
  REQUIRE(kif);
  CHECK(kif->find("*#評価値=-600\n") != std::string::npos);
  CHECK(annotated_record_stem(a) == "000005-A-vs-B");
  a.source = "floodgate 1.csa";
  CHECK(annotated_record_stem(a) == "floodgate_1-5");
}

TEST_CASE("records: the CSA server's records, finished and cut by a restart") {
  const std::string header =
      "'CSA record by the shogi-arena CSA server\nV2.2\nN+p3\nN-p1\n$EVENT:local+floodgate-60-1F+p3+p1+20261129060452\n"
      "$START_TIME:2026/11/29 06:04:51\n'Max_Moves:60\n'Least_Time_Per_Move:0\n'Increment:1\n"
      "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
      "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n"
      "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n"
      "'rating:p3+2244256ff7b38b0d9a8718445fc4c0ba:p1+97d76f4c5a8fcd7d265271e5b9f6dab6\n+4746FU\nT0\n-7162GI\nT2\n";
  auto cut = parse_csa_games(header +
                                 "'the server stopped during the game; closed when it started again\n%CHUDAN\n"
                                 "'summary:abnormal:p3 draw:p1 draw\n'$END_TIME:2026/11/29 06:04:51\n",
                             "cut.csa");
  REQUIRE_MESSAGE(cut, (cut ? "" : cut.error()));
  const PlayedGame& c = cut->front().played;
  CHECK(c.names[shogi::BLACK] == "p3");
  CHECK(c.names[shogi::WHITE] == "p1");
  CHECK(c.moves.size() == 2);
  CHECK(c.moves[1].time_ms == 2000);
  CHECK(c.result.outcome == Outcome::None);
  auto resigned = parse_csa_games(header + "%TORYO\n'summary:toryo:p3 lose:p1 win\n", "toryo.csa");
  REQUIRE(resigned);
  CHECK(resigned->front().played.result.outcome == Outcome::WhiteWin);
}

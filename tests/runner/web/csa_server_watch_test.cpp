// The live page of the CSA server (serve --web): CsaServerWatch puts each game on a board as the server reports it,
// then in the finished list with a line the page can replay.
#include <doctest/doctest.h>

#include "output/record_common.h"
#include "output/result_json.h"
#include "relay/csa_game_follower.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "web/csa_server_watch.h"
#include "web/live_state.h"

using namespace arena;
using namespace arena::web;

namespace {

csa::CsaGameProgress progress(std::vector<std::string> usi) {
  shogi::Position::init();
  csa::CsaGameProgress p;
  p.game_id = "local+g-300-10F+alice+bob+20261125100000";
  p.names[shogi::BLACK] = "alice";
  p.names[shogi::WHITE] = "bob";
  p.start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  shogi::Position pos;
  std::vector<shogi::StateInfo> states(usi.size() + 1);
  REQUIRE(pos.set(p.start_sfen, &states.back()).has_value());
  for (size_t i = 0; i < usi.size(); ++i) {
    auto m = shogi::parse_usi_move(pos, usi[i]);
    REQUIRE(m.has_value());
    p.moves.push_back(*m);
    p.times_s.push_back(int64_t(i) + 1);
    pos.do_move(*m, states[i]);
  }
  p.to_move = usi.size() % 2 == 0 ? shogi::BLACK : shogi::WHITE;
  p.remaining_ms[shogi::BLACK] = p.remaining_ms[shogi::WHITE] = 300000;
  p.total_s = 300;
  p.increment_s = 10;
  return p;
}

}  // namespace

TEST_CASE("CsaServerWatch: a game on a board from its start, then finished and replayable") {
  LiveState state("CSA server");
  CsaServerWatch watch(state, "127.0.0.1:4081");
  CHECK(state.update_json().find("\"status\":\"CSA server on 127.0.0.1:4081: 0 games in progress, 0 finished\"") !=
        std::string::npos);
  watch.progress(progress({}));
  std::string u = state.update_json();
  CHECK(u.find("\"black\":\"alice\",\"white\":\"bob\",\"time_control\":\"300+10\"") != std::string::npos);
  CHECK(u.find("1 game in progress") != std::string::npos);
  watch.progress(progress({"7g7f"}));
  watch.progress(progress({"7g7f", "3c3d"}));
  u = state.update_json();
  CHECK(u.find("\"moves\":[\"7g7f\",\"3c3d\"]") != std::string::npos);

  csa::CsaFinishedGame f;
  f.game_id = "local+g-300-10F+alice+bob+20261125100000";
  f.end_type = "toryo";
  f.end_reason = "#RESIGN";
  f.winner = shogi::WHITE;
  watch.finished(f);
  u = state.update_json();
  CHECK(u.find("\"boards\":[]") != std::string::npos);
  CHECK(u.find("0 games in progress, 1 finished") != std::string::npos);
  CHECK(u.find("\"result\":\"white\",\"termination\":\"resign\"") != std::string::npos);
  auto line = state.journal_line(0);
  REQUIRE(line.has_value());
  auto played = parse_result_json(*line);
  REQUIRE(played.has_value());
  REQUIRE(played->moves.size() == 2);
  CHECK(played->moves[1].time_ms == 2000);
  CHECK(played->result.termination == Termination::Resign);
  CHECK(played->names[shogi::BLACK] == "alice");

  // A game the watch never saw start (a rejected one) is not listed.
  f.game_id = "other";
  watch.finished(f);
  CHECK(state.update_json().find("\"finished_total\":1") != std::string::npos);
}

TEST_CASE("csa_game_result: the server's endings in the runner's terms") {
  csa::CsaFinishedGame g;
  g.end_type = "time up";
  g.winner = shogi::BLACK;
  CHECK(csa_game_result(g).termination == Termination::TimeForfeit);
  CHECK(csa_game_result(g).outcome == Outcome::BlackWin);
  g.winner.reset();
  g.end_type = "sennichite";
  CHECK(csa_game_result(g).outcome == Outcome::Draw);
  g.end_type = "max_moves";
  CHECK(csa_game_result(g).termination == Termination::MaxMoves);
  g.end_type = "chudan";
  CHECK(csa_game_result(g).termination == Termination::Interrupted);
  CHECK(csa_game_result(g).outcome == Outcome::None);
  g.end_type = "oute_kaihimore";
  g.winner = shogi::WHITE;
  CHECK(csa_game_result(g).termination == Termination::IllegalMove);
}

TEST_CASE("CsaServerWatch: the players' Floodgate comments give the board each side's score, from its side") {
  CHECK(record::comment_score("'** 30 -3334FU +2726FU", shogi::BLACK) == 30);
  CHECK(record::comment_score("'** 30 -3334FU", shogi::WHITE) == -30);
  CHECK(record::comment_score("'* -120", shogi::BLACK) == -120);
  CHECK_FALSE(record::comment_score("", shogi::BLACK).has_value());
  CHECK_FALSE(record::comment_score("'** x", shogi::BLACK).has_value());
  CHECK_FALSE(record::comment_score("'a note", shogi::BLACK).has_value());

  LiveState state("CSA server");
  CsaServerWatch watch(state, "127.0.0.1:4081");
  csa::CsaGameProgress p = progress({"7g7f", "3c3d"});
  p.comments = {"'** -40 -3334FU", "'** 55 +2726FU"};  // black's view: black thinks -40, white thinks black +55
  watch.progress(p);
  const std::string u = state.update_json();
  const size_t info = u.find("\"info\":{");
  REQUIRE(info != std::string::npos);
  CHECK(u.find("\"black\":{\"depth\":null,\"seldepth\":null,\"score_cp\":-40", info) != std::string::npos);
  CHECK(u.find("\"white\":{\"depth\":null,\"seldepth\":null,\"score_cp\":-55", info) != std::string::npos);
}

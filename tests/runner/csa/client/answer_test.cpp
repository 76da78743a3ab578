// What the CSA client sends for each kind of engine answer, and Floodgate's comment, without a server.
#include <doctest/doctest.h>

#include "csa/client/answer.h"
#include "rules/movegen.h"
#include "rules/notation.h"

using namespace arena::csa;
using arena::usi::SearchResult;
using arena::usi::Status;
using shogi::BLACK;
using shogi::WHITE;

namespace {
SearchResult answer(const std::string& move, Status status = Status::Ok) {
  SearchResult r;
  r.status = status;
  r.bestmove.move = move;
  r.text = "bestmove " + move;
  return r;
}
arena::usi::SearchInfo pv(std::vector<std::string> moves) {
  arena::usi::SearchInfo i;
  i.pv = std::move(moves);
  return i;
}
std::string usi(shogi::Move m) { return shogi::to_usi(m); }
}  // namespace

TEST_CASE("answer: the engine's legal move, resign and a valid-looking move are sent as given") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  Answer a = decide_answer(game.position(), answer("7g7f"), {}, true, shogi::EnteringKingRule::Point27);
  CHECK(a.kind == Answer::Kind::Move);
  CHECK(usi(a.move) == "7g7f");
  CHECK(a.fallback_why.empty());
  a = decide_answer(game.position(), answer("resign"), {}, true, shogi::EnteringKingRule::Point27);
  CHECK(a.kind == Answer::Kind::Resign);
  CHECK(a.fallback_why.empty());
}

TEST_CASE("answer: an unusable answer becomes the PV's head or the first legal move, with the reason") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  const auto& pos = game.position();
  const auto rule = shogi::EnteringKingRule::Point27;

  Answer a = decide_answer(pos, answer("win"), pv({"2g2f", "8c8d"}), true, rule);
  CHECK(a.kind == Answer::Kind::Move);
  CHECK(usi(a.move) == "2g2f");
  CHECK(a.fallback_why.find("declared a win the rules do not allow") != std::string::npos);

  a = decide_answer(pos, answer("win"), {}, true, shogi::EnteringKingRule::Off);
  CHECK(a.fallback_why.starts_with("the engine declared a win the rules do not allow ("));

  // The illegal move is also the PV's head: never played, the first legal move instead.
  a = decide_answer(pos, answer("5a5b"), pv({"5a5b"}), true, rule);
  CHECK(a.kind == Answer::Kind::Move);
  CHECK(a.fallback_why.starts_with("illegal bestmove"));
  shogi::MoveList<shogi::LEGAL> legal(pos);
  CHECK(a.move == legal.begin()->move);

  a = decide_answer(pos, answer("7g7f", Status::ProtocolError), pv({"6i7h"}), true, rule);
  CHECK(usi(a.move) == "6i7h");
  CHECK(a.fallback_why.starts_with("malformed bestmove"));

  a = decide_answer(pos, answer("", Status::Timeout), pv({"3g3f"}), false, rule);
  CHECK(usi(a.move) == "3g3f");
  CHECK(a.fallback_why == "the engine did not answer `stop` in time");

  SearchResult gone = answer("", Status::Disconnected);
  gone.text = "exit code 1";
  a = decide_answer(pos, gone, {}, false, rule);
  CHECK(a.kind == Answer::Kind::Move);
  CHECK(a.fallback_why == "the engine is gone (exit code 1)");
}

TEST_CASE("answer: no legal move to fall back on is a resignation with the reason") {
  shogi::GameRecord game;
  REQUIRE(game.start("sfen 4k4/9/9/9/9/9/7s1/8g/8K b - 1"));  // black is mated
  Answer a = decide_answer(game.position(), answer("1i2i"), {}, true, shogi::EnteringKingRule::Point27);
  CHECK(a.kind == Answer::Kind::Resign);
  CHECK(a.fallback_why.starts_with("illegal bestmove"));
}

TEST_CASE("answer: Floodgate's comment is black's view and the PV after the move played") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos moves 7g7f"));
  const auto& pos = game.position();  // white to move
  arena::SearchInfo info;
  info.score_cp = 50;
  info.pv = {"3c3d", "2g2f", "8c8d"};
  auto played = shogi::parse_usi_move(pos, "3c3d");
  REQUIRE(played);
  CHECK(floodgate_comment(pos, *played, info, WHITE) == ",'* -50 +2726FU -8384FU");
  auto other = shogi::parse_usi_move(pos, "8c8d");
  CHECK(floodgate_comment(pos, *other, info, WHITE) == ",'* -50");
  info.score_cp.reset();
  CHECK(floodgate_comment(pos, *played, info, WHITE).empty());
}

#include "sample_games.h"

#include <deque>
#include <stdexcept>

#include "rules/notation.h"
#include "rules/position.h"

namespace arena::testing {

PlayedGame make_game(std::string_view start, const std::vector<SampleMove>& moves, Outcome outcome,
                     Termination termination, std::string detail) {
  shogi::Position::init();
  PlayedGame game;
  game.event = "Shogi Arena test";
  game.names[shogi::BLACK] = "EngineA";
  game.names[shogi::WHITE] = "EngineB";
  game.start_time = std::chrono::system_clock::time_point(std::chrono::seconds(1704103200));  // 2024-01-01 10:00 UTC
  game.end_time = game.start_time + std::chrono::seconds(31);
  game.time_control = "300+2";
  game.time_controls[shogi::BLACK] = game.time_controls[shogi::WHITE] = *game::parse_time_control("300+2");
  game.start_sfen = std::string(start == "startpos" ? shogi::START_SFEN : start);
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  if (auto r = pos.set(game.start_sfen, &states.back()); !r) throw std::runtime_error("fixture: " + r.error());
  for (const SampleMove& sm : moves) {
    auto m = shogi::parse_usi_move(pos, sm.usi);
    if (!m) throw std::runtime_error("fixture: " + m.error());
    game.moves.push_back(MoveRecord{*m, sm.time_ms, sm.info, false});
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
  game.result = GameResult{outcome, termination, std::move(detail)};
  return game;
}

PlayedGame resign_game() {
  SearchInfo reply;  // white's view: -35 is +35 for black
  reply.depth = 12;
  reply.score_cp = -35;
  reply.nodes = 123456;
  reply.pv = {"3c3d", "8h2b+", "3a2b"};
  SearchInfo mate;
  mate.score_mate = 3;
  mate.pv = {"4e3d", "2b3c", "3d2c"};
  return make_game("startpos",
                   {{"7g7f", 1000},
                    {"3c3d", 2400, reply},
                    {"8h2b+", 3999},
                    {"3a2b", 1000},
                    {"B*4e", 5000},
                    {"8c8d", 2000},
                    {"4e3d", 4000, mate},
                    {"2b3c", 6000},
                    {"3d2c", 1000}},
                   Outcome::BlackWin, Termination::Resign);
}

PlayedGame mate_from_sfen_game() {
  return make_game("4k4/9/4P4/9/9/9/9/9/4K4 b G2Pr 1", {{"G*5b", 700}}, Outcome::BlackWin, Termination::Checkmate);
}

PlayedGame promoted_pieces_game() {
  // White: king 5a, a gold in hand. Black: king 5i, horse 8h, dragon 2h, promoted silver 6c, knight 7e.
  return make_game("4k4/9/3+S5/9/2N6/9/9/1+B5+R1/4K4 w g 1",
                   {{"5a4a", 61000},
                    {"8h5e", 500},
                    {"G*5b", 1500},
                    {"6c5b", 2000},
                    {"4a5b", 100},
                    {"7e6c", 3000},
                    {"5b4a", 1000},
                    {"2h2a", 1000}},
                   Outcome::BlackWin, Termination::Resign);
}

std::vector<NamedGame> ending_games() {
  auto two = [](Outcome o, Termination t, std::string detail = {}) {
    return make_game("startpos", {{"7g7f", 1500}, {"3c3d", 2500}}, o, t, std::move(detail));
  };
  std::vector<NamedGame> games = {
      {"resign", two(Outcome::WhiteWin, Termination::Resign)},
      {"sennichite", two(Outcome::Draw, Termination::Sennichite)},
      {"perpetual_check", two(Outcome::BlackWin, Termination::PerpetualCheck)},
      {"declaration", two(Outcome::BlackWin, Termination::Declaration)},
      {"illegal_declaration",
       two(Outcome::WhiteWin, Termination::IllegalDeclaration, "win: the king is not in the enemy camp")},
      {"illegal_move", two(Outcome::WhiteWin, Termination::IllegalMove, "7g7e: no piece of the side to move on 7g")},
      {"time_forfeit", two(Outcome::WhiteWin, Termination::TimeForfeit, "used 2150 ms of 2000 ms")},
      {"stall", two(Outcome::WhiteWin, Termination::Stall)},
      {"disconnect", two(Outcome::WhiteWin, Termination::Disconnect, "EngineA exited")},
      {"disconnect_not_to_move", two(Outcome::BlackWin, Termination::Disconnect, "EngineB exited while pondering")},
      {"max_moves", two(Outcome::Draw, Termination::MaxMoves)},
      {"adjudication_win", two(Outcome::WhiteWin, Termination::Adjudication)},
      {"adjudication_draw", two(Outcome::Draw, Termination::Adjudication)},
      {"interrupted", two(Outcome::None, Termination::Interrupted)},
  };
  for (NamedGame& g : games)
    if (g.name == "illegal_move") g.game.illegal_move_text = "7g7e";
  return games;
}

}  // namespace arena::testing

#include "csa/client/game_report.h"

namespace arena::csa {

std::string_view to_string(GameStatus s) {
  switch (s) {
    case GameStatus::Finished:
      return "finished";
    case GameStatus::Rejected:
      return "rejected";
    case GameStatus::ConnectionLost:
      return "connection lost";
  }
  return "?";
}

GameResult to_game_result(const GameEnd& end, shogi::Color us) {
  GameResult r;
  Outcome we_win = us == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin;
  Outcome we_lose = us == shogi::BLACK ? Outcome::WhiteWin : Outcome::BlackWin;
  switch (end.result) {
    case EndResult::Win:
      r.outcome = we_win;
      break;
    case EndResult::Lose:
      r.outcome = we_lose;
      break;
    case EndResult::Draw:
    case EndResult::Censored:
      r.outcome = Outcome::Draw;
      break;
    case EndResult::Chudan:
    case EndResult::None:
      r.outcome = Outcome::None;
      break;
  }
  switch (end.reason) {
    case EndReason::Resign:
      r.termination = Termination::Resign;
      break;
    case EndReason::TimeUp:
      r.termination = Termination::TimeForfeit;
      break;
    case EndReason::IllegalMove:
      r.termination = end.declare_seen ? Termination::IllegalDeclaration : Termination::IllegalMove;
      break;
    case EndReason::IllegalAction:
      r.termination = Termination::IllegalMove;
      break;
    case EndReason::Sennichite:
      r.termination = Termination::Sennichite;
      break;
    case EndReason::OuteSennichite:
      r.termination = Termination::PerpetualCheck;
      break;
    case EndReason::Jishogi:
      r.termination = Termination::Declaration;
      break;
    case EndReason::MaxMoves:
      r.termination = Termination::MaxMoves;
      break;
    case EndReason::None:
      // A result without a reason line: #CHUDAN, or a server that leaves the reason out.
      if (end.result == EndResult::Chudan || end.result == EndResult::None)
        r.termination = Termination::Interrupted;
      else if (end.resign_seen)
        r.termination = Termination::Resign;
      else if (end.result == EndResult::Censored)
        r.termination = Termination::MaxMoves;
      else if (end.result == EndResult::Draw)
        r.termination = Termination::Sennichite;
      else
        r.termination = Termination::Disconnect;  // a win or loss the server did not explain
      break;
  }
  return r;
}

}  // namespace arena::csa

#include "game/game_result.h"

namespace arena {

std::string_view to_string(Termination t) {
  switch (t) {
    case Termination::None: return "none";
    case Termination::Resign: return "resign";
    case Termination::Checkmate: return "checkmate";
    case Termination::Sennichite: return "sennichite";
    case Termination::PerpetualCheck: return "perpetual-check";
    case Termination::Declaration: return "declaration";
    case Termination::IllegalDeclaration: return "illegal-declaration";
    case Termination::IllegalMove: return "illegal-move";
    case Termination::TimeForfeit: return "time-forfeit";
    case Termination::Stall: return "stall";
    case Termination::Disconnect: return "disconnect";
    case Termination::MaxMoves: return "max-moves";
    case Termination::Adjudication: return "adjudication";
    case Termination::Interrupted: return "interrupted";
  }
  return "none";
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::None: return "none";
    case Outcome::BlackWin: return "black";
    case Outcome::WhiteWin: return "white";
    case Outcome::Draw: return "draw";
  }
  return "none";
}

}  // namespace arena

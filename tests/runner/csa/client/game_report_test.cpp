// The CSA server's result in the runner's terms, one row per ending of csa-protocol.md §6.
#include <doctest/doctest.h>

#include "csa/client/game_report.h"

using namespace arena::csa;
using arena::Outcome;
using arena::Termination;
using shogi::BLACK;
using shogi::WHITE;

TEST_CASE("game report: every server ending maps onto an outcome and a termination") {
  struct Row {
    EndResult result;
    EndReason reason;
    bool resign_seen, declare_seen;
    shogi::Color us;
    Outcome outcome;
    Termination termination;
  };
  const Row rows[] = {
      {EndResult::Win, EndReason::Resign, true, false, BLACK, Outcome::BlackWin, Termination::Resign},
      {EndResult::Win, EndReason::Resign, true, false, WHITE, Outcome::WhiteWin, Termination::Resign},
      {EndResult::Lose, EndReason::TimeUp, false, false, BLACK, Outcome::WhiteWin, Termination::TimeForfeit},
      {EndResult::Lose, EndReason::IllegalMove, false, true, WHITE, Outcome::BlackWin, Termination::IllegalDeclaration},
      {EndResult::Win, EndReason::IllegalMove, false, false, WHITE, Outcome::WhiteWin, Termination::IllegalMove},
      {EndResult::Lose, EndReason::IllegalAction, false, false, BLACK, Outcome::WhiteWin, Termination::IllegalMove},
      {EndResult::Draw, EndReason::Sennichite, false, false, BLACK, Outcome::Draw, Termination::Sennichite},
      {EndResult::Lose, EndReason::OuteSennichite, false, false, BLACK, Outcome::WhiteWin, Termination::PerpetualCheck},
      {EndResult::Win, EndReason::Jishogi, false, true, BLACK, Outcome::BlackWin, Termination::Declaration},
      {EndResult::Censored, EndReason::MaxMoves, false, false, WHITE, Outcome::Draw, Termination::MaxMoves},
      // A result without a reason line.
      {EndResult::Chudan, EndReason::None, false, false, BLACK, Outcome::None, Termination::Interrupted},
      {EndResult::Lose, EndReason::None, true, false, BLACK, Outcome::WhiteWin, Termination::Resign},
      {EndResult::Censored, EndReason::None, false, false, BLACK, Outcome::Draw, Termination::MaxMoves},
      {EndResult::Draw, EndReason::None, false, false, BLACK, Outcome::Draw, Termination::Sennichite},
      {EndResult::Win, EndReason::None, false, false, WHITE, Outcome::WhiteWin, Termination::Disconnect},
  };
  for (const Row& row : rows) {
    GameEnd end;
    end.result = row.result;
    end.reason = row.reason;
    end.resign_seen = row.resign_seen;
    end.declare_seen = row.declare_seen;
    CAPTURE(to_string(row.result));
    CAPTURE(to_string(row.reason));
    arena::GameResult r = to_game_result(end, row.us);
    CHECK(r.outcome == row.outcome);
    CHECK(r.termination == row.termination);
  }
  CHECK(to_string(GameStatus::ConnectionLost) == "connection lost");
}

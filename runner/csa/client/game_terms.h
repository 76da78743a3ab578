#pragma once
// What a Game_Summary means for the client before it agrees (csa-protocol.md §3): our colour, the declaration
// rule, the start position with the moves already played, both clocks and the record's header. Pure: no
// connection, no engine.
//
// The declaration rule: Jishogi 1.1 or none given is the CSA 27-point rule; for any other rule the engine's `win`
// is never declared (client/answer.h).

#include <string>
#include <vector>

#include "csa/protocol/clock.h"
#include "csa/protocol/game_summary.h"
#include "game/game_result.h"
#include "rules/game_end.h"

namespace arena::csa {

struct GameTerms {
  shogi::Color us = shogi::BLACK;
  shogi::EnteringKingRule declaration_rule = shogi::EnteringKingRule::Point27;
  CsaClock clock;
  PlayedGame record;  // event, names, start, time control and the Position block's moves (marked as opening)
  std::vector<std::string> notes;     // for the log
  std::vector<std::string> warnings;  // playable, but worth a warning
  std::string unplayable;             // non-empty: the reason to REJECT the game
};

// Also starts `game` at the Position block (with its moves) when the game is playable.
GameTerms game_terms(const GameSummary& summary, shogi::GameRecord& game);

// "300+10" (seconds: main + increment), "0+10b" with byoyomi, "untimed".
std::string describe(const TimeRule& rule);

}  // namespace arena::csa

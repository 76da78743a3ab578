#pragma once
// What the CSA client sends for the engine's answer to a `go` (csa-protocol.md §4, §7). Pure: no connection.
//
// `resign` -> %TORYO. `win` -> %KACHI only when check_declaration() holds under the game's declaration rule; a false
// `win` is never sent, because the server scores it as a loss. Instead, as for an illegal or malformed bestmove and
// for an engine that did not answer at all, the client plays a fallback move: the head of the engine's last PV if it
// is legal (and not the move just refused), else the first legal move. A move keeps the game alive; a false
// declaration or an illegal move loses it at once. No legal move at all: %TORYO.

#include <optional>
#include <string>

#include "game/game_result.h"
#include "rules/game_end.h"
#include "rules/position.h"
#include "usi/usi_client.h"

namespace arena::csa {

struct Answer {
  enum class Kind { Move, Resign, Declare };
  Kind kind = Kind::Resign;
  shogi::Move move = shogi::MOVE_NONE;  // Kind::Move
  // Why the engine's own answer could not be sent; empty when it is sent as given. With Kind::Move the move is
  // then the client's fallback; with Kind::Resign there was no legal move to play instead.
  std::string fallback_why;
};

// `answered`: the engine sent a bestmove line (well formed or not) before the client gave up on it.
Answer decide_answer(const shogi::Position& pos, const usi::SearchResult& result, const usi::SearchInfo& info,
                     bool answered, shogi::EnteringKingRule declaration_rule);

// Floodgate's comment after a move, ",'* <score> <pv>": black's view, the PV in CSA from the expected reply on
// (csa-protocol.md §7). Empty without a score; only the score when the PV does not start with the move played.
std::string floodgate_comment(const shogi::Position& before, shogi::Move played, const SearchInfo& info,
                              shogi::Color us);

}  // namespace arena::csa

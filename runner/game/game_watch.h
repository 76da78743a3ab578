#pragma once
// A game watched as it is played: a live view (the web page) follows the board, the clocks and each engine's
// thinking. Calls come from the game's own thread between its steps, so an implementation must return at once:
// copy what it needs under a short lock and hand the rest to its own thread. The clocks never wait for a viewer.

#include <cstdint>

#include "game/game_result.h"

namespace arena::game {

// Both clocks as the runner keeps them, and which side's is running.
struct ClockView {
  int64_t remaining_ms[shogi::COLOR_NB] = {0, 0};  // main time left (USI semantics: no increment in it)
  shogi::Color running = shogi::BLACK;             // the side to move
};

class GameWatcher {
 public:
  virtual ~GameWatcher() = default;
  // The game is set up: names, start position, opening moves and time control are in `game` (no engine move yet).
  virtual void started(const PlayedGame& game, const ClockView& clocks) = 0;
  // The side to move starts thinking: its clock runs from now.
  virtual void search_started(const ClockView& clocks) = 0;
  // The side to move is thinking: at most every kThinkingIntervalMs, when it sent info lines since the last call,
  // the latest of them merged (depth, score, nodes, pv).
  virtual void thinking(const ClockView& clocks, const SearchInfo& latest) = 0;
  // A move was played (and judged legal); `clocks` are after it was charged. The game's end is the watcher's
  // destruction: its owner keeps it until play_game has returned.
  virtual void moved(const MoveRecord& move, const ClockView& clocks) = 0;
};

// How often a thinking engine's info reaches the watcher.
inline constexpr int64_t kThinkingIntervalMs = 250;

}  // namespace arena::game

#pragma once
// A journal game's summary for tests of what reads journals (the resume plan, the standings): game k of pair k/2.

#include <cstdint>
#include <string>

#include "journal/journal.h"

namespace test_support {

inline arena::journal::JournalGame journal_game(int64_t game, int attempt, bool replay, const std::string& black,
                                                const std::string& white, arena::Outcome outcome,
                                                arena::Termination termination = arena::Termination::Resign) {
  arena::journal::JournalGame g;
  g.game = game;
  g.pair = game / 2;
  g.game_in_pair = int(game % 2);
  g.attempt = attempt;
  g.replay = replay;
  g.black = black;
  g.white = white;
  g.outcome = outcome;
  g.termination = termination;
  return g;
}

}  // namespace test_support

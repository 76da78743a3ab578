#pragma once
// A game on this project's CSA server followed from the server's progress reports (csa/server/config.h
// on_game_progress) and told to a GameWatcher as a game the runner plays itself tells its own: started with the
// Position block's moves as the opening, then each move with the clocks after it, and the side to move's clock
// running. Used by the live page of `serve --web` (web/csa_server_watch) and of `--via-csa-server` tournaments.
//
// The server sees the players' moves and clocks, not their engines' thinking; what it has is the Floodgate comment
// a player may send with a move ("'** 30 -3334FU ...": the score from black's side, then the expected line), whose
// score becomes the move's search info (from the mover's side, as the watcher expects it).

#include "csa/server/config.h"
#include "game/game_result.h"
#include "game/game_watch.h"

namespace arena::relay {

class CsaGameFollower {
 public:
  explicit CsaGameFollower(game::GameWatcher& watcher) : watcher_(watcher) {}

  // A report of the game: the first starts it on the watcher; each later one plays the moves it has in addition.
  void progress(const csa::CsaGameProgress& report);
  // The game so far: names, start position, time control ("300+10", "0+10b") and moves with the T of each.
  const PlayedGame& game() const { return game_; }

 private:
  game::GameWatcher& watcher_;
  PlayedGame game_;
  bool started_ = false;
};

}  // namespace arena::relay

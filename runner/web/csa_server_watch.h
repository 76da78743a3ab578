#pragma once
// The live page of the CSA server (`shogi-arena serve --web`): every game on a board from its START to its end,
// with both clocks, then in the finished list, replayable move by move with the T each move took. The server's
// hooks (csa/server/config.h on_game_progress, on_game_finished) call it on the server's thread; it copies what the
// page needs into the LiveState and returns.
//
// The players are CSA clients, not engines the runner reads: the page has their moves and clocks, not their
// thinking (a Floodgate comment is not parsed). With Floodgate groups the page also shows each group's next round
// (counting down), its last round's pairs and the ratings; a player's name there lists that player's games.

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "csa/server/config.h"
#include "game/game_watch.h"
#include "relay/csa_game_follower.h"
#include "web/live_state.h"

namespace arena::web {

class CsaServerWatch {
 public:
  explicit CsaServerWatch(LiveState& state, std::string address);

  void progress(const csa::CsaGameProgress& game);
  void finished(const csa::CsaFinishedGame& game);
  void league(const csa::CsaLeagueView& view);

 private:
  struct Game {
    int64_t number = 0;
    std::unique_ptr<game::GameWatcher> watcher;
    std::unique_ptr<relay::CsaGameFollower> follower;  // tells `watcher`
  };
  void publish_status();

  LiveState& state_;
  const std::string address_;
  std::map<std::string, Game> games_;  // by Game_ID, while they are played
  int64_t next_number_ = 0;
  int64_t finished_ = 0;
};

// Termination and outcome of a finished server game in the terms of the runner's records.
GameResult csa_game_result(const csa::CsaFinishedGame& game);

}  // namespace arena::web

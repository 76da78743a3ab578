// play_game: one game between two started players, judged move by move with the rules library (the loop is
// GameRun's, game_run.h); unstarted_game: the record of a game an engine could not start.

#include "game/game.h"

#include "game/game_run.h"
#include "rules/game_end.h"

namespace arena::game {

PlayedGame play_game(Player& black, Player& white, const std::string& start_position, const GameOptions& options,
                     const std::atomic<bool>* interrupt, GameWatcher* watcher) {
  GameRun run(black, white, options, interrupt, watcher);
  return run.run(start_position);
}

PlayedGame unstarted_game(const GameOptions& options, const EngineConfig& black, const EngineConfig& white,
                          const std::string& start_position, shogi::Color loser, const std::string& why) {
  PlayedGame g;
  g.event = options.event;
  g.names[shogi::BLACK] = black.name;
  g.names[shogi::WHITE] = white.name;
  g.start_time = g.end_time = std::chrono::system_clock::now();
  g.time_controls[shogi::BLACK] = black.time_control;
  g.time_controls[shogi::WHITE] = white.time_control;
  g.time_control = time_control_text(black.time_control, white.time_control);
  shogi::GameRecord record;
  if (record.start(start_position)) {
    g.start_sfen = record.start_sfen();
    for (shogi::Move m : record.moves()) g.moves.push_back(MoveRecord{m, 0, {}, true});
  } else {
    g.start_sfen = std::string(shogi::START_SFEN);
  }
  g.result.outcome = loser == shogi::BLACK ? Outcome::WhiteWin : Outcome::BlackWin;
  g.result.termination = Termination::Disconnect;
  g.result.detail = (loser == shogi::BLACK ? black.name : white.name) + " could not be started: " + why;
  return g;
}

}  // namespace arena::game

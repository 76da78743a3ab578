#pragma once
// What the CSA and KIF writers share: replaying a finished game from its start position, turning engine info
// into record conventions (whole seconds, scores from black's side, the PV as legal moves) and the result in words.

#include <chrono>
#include <cstdint>
#include <deque>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "game/game_result.h"
#include "rules/position.h"

namespace arena::record {

// Walks a game move by move. The writers need the position before each move (piece names, the PV) and the side
// to move at the end (which decides how an ending is written), and a corrupted game must be an error, not a
// record that viewers reject.
class GameWalk {
 public:
  GameWalk() = default;
  GameWalk(const GameWalk&) = delete;
  GameWalk& operator=(const GameWalk&) = delete;

  // Sets up game.start_sfen ("startpos" or an SFEN); the game must outlive the walk.
  std::expected<void, std::string> start(const PlayedGame& game);
  const shogi::Position& position() const { return pos_; }
  size_t ply() const { return ply_; }  // moves played so far
  bool done() const { return ply_ == game_->moves.size(); }
  // Plays the next move of the game; the error names the ply when it is not legal.
  std::expected<void, std::string> next();

 private:
  const PlayedGame* game_ = nullptr;
  shogi::Position pos_;
  std::deque<shogi::StateInfo> states_;  // a deque keeps StateInfo addresses stable as the walk grows
  size_t ply_ = 0;
};

// True when the position is the standard start (board, hands, side to move; the move number is ignored).
bool is_standard_start(const shogi::Position& pos);

// Records count whole seconds, truncated like the CSA server charges them (shogi-server, Time_Roundup:NO).
inline int64_t whole_seconds(int64_t ms) { return ms > 0 ? ms / 1000 : 0; }

// Record scores are from black's point of view (the Floodgate/ShogiHome convention); a mate score is
// +-MATE_SCORE (ShogiHome's value), whatever its distance. Empty when the engine gave no score.
constexpr int MATE_SCORE = 30000;
std::optional<int> score_for_black(const SearchInfo& info, shogi::Color mover);
// The other way: the score of a Floodgate comment ("'** <score> [<pv>]", black's view) from the mover's view;
// nullopt if the comment carries none.
std::optional<int> comment_score(std::string_view comment, shogi::Color mover);
// The same for ShogiHome's KIF comment "*#評価値=<score>" (black's view); nullopt for any other line.
std::optional<int> kif_comment_score(std::string_view comment, shogi::Color mover);

// The longest legal prefix of a USI PV played from `before`: engines sometimes end a PV with junk.
std::vector<shogi::Move> legal_pv(const shogi::Position& before, const std::vector<std::string>& pv);

// "black wins by resignation", "draw by repetition (sennichite)", ... for summary comments.
std::string result_in_words(const GameResult& result);

// The side that lost, or nothing for a draw or no result.
std::optional<shogi::Color> loser_of(Outcome outcome);

// How a game ends as far as the record formats can say it. Both formats name endings relative to the side to move
// at the end (the CSA standard: "%TIME_UP: the side to move loses on time"), so an ending is chosen from the
// termination and from who lost, relative to that side.
enum class Ending {
  None,            // no result recorded: no ending line
  Resign,          // the side to move resigned (also a crash or an adjudicated loss: shogi-server records those so)
  Mate,            // the side to move is mated
  Repetition,      // sennichite draw
  FoulLoss,        // the side to move loses by a foul (illegal move, false declaration)
  FoulByOpponent,  // the side that just moved loses (perpetual check, or any loss not of the side to move)
  TimeUp,          // the side to move lost on time (or stalled past its time)
  Declaration,     // the side to move won by the entering-king declaration
  MaxMoves,        // the move limit: draw
  Draw,            // another draw (adjudication)
  Interrupted,     // not finished: not scored
};
Ending ending_of(const GameResult& result, shogi::Color side_to_move);

}  // namespace arena::record

#pragma once
// Game-end rules shared by the engine and the runner: repetition (sennichite) and perpetual check, no legal
// move, the entering-king declaration, the max-moves draw, and a game record that applies them move by move.

#include <expected>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"
#include "position_counts.h"
#include "types.h"

namespace shogi {

enum class EnteringKingRule {
  Off,
  Point27,  // CSA rule: 28 points for black, 27 for white
  Point24,  // 24-point rule as used by engines: a declaration wins with 31 points or more
};

// "27" / "24" / "off" (also YaneuraOu's names "CSARule27", "24Point", "NoEnteringKing").
std::expected<EnteringKingRule, std::string> parse_entering_king_rule(std::string_view text);
std::string_view to_string(EnteringKingRule rule);

// Declaration points of colour c: rook/bishop (and promoted) 5, others 1, counting the pieces in the enemy camp
// (king excluded) and in hand.
int declaration_points(const Position& pos, Color c);

// Whether the side to move may declare a win now. The reason names the first condition that fails.
struct DeclarationCheck {
  bool valid = false;
  std::string reason;  // empty when valid
};
DeclarationCheck check_declaration(const Position& pos, EnteringKingRule rule);
inline bool can_declare_win(const Position& pos, EnteringKingRule rule) { return check_declaration(pos, rule).valid; }

enum class GameEnd {
  None,
  NoLegalMoves,    // the side to move is mated (or has no move at all): it loses
  Sennichite,      // fourth occurrence of the same position: draw
  PerpetualCheck,  // fourth occurrence while one side checked on every move of the cycle: that side loses
  MaxMoves,        // the ply limit was reached: draw
};
std::string_view to_string(GameEnd end);

struct GameStatus {
  GameEnd end = GameEnd::None;
  bool draw = false;
  Color winner = BLACK;  // meaningful when end != None and !draw
};

// A game from a start position: owns the position and its history so the repetition rule can look back.
class GameRecord {
 public:
  GameRecord();
  // "startpos", "startpos moves 7g7f ...", "sfen <sfen> [moves ...]" or a bare SFEN; every move is validated.
  // Relaxed limits admit composed positions with extra pieces (perft suites, mate problems).
  std::expected<void, std::string> start(std::string_view position_text, PieceLimits limits = PieceLimits::Strict);

  const Position& position() const { return pos_; }
  const std::string& start_sfen() const { return start_sfen_; }
  const std::vector<Move>& moves() const { return moves_; }
  // Moves given with the start position (opening moves) before the game proper.
  size_t opening_plies() const { return opening_plies_; }

  // Plays a legal move (callers validate first, e.g. with parse_usi_move).
  void play(Move m);
  // Parses a USI move, checks it and plays it; the error explains an illegal move.
  std::expected<Move, std::string> play_usi(std::string_view text);

  // Judges the position after the last move. max_plies counts from the SFEN move number 1 (0 = no limit).
  GameStatus status(int max_plies) const;

  // "position sfen <start> moves ..." (or "position startpos moves ...") as sent to USI engines.
  std::string usi_position_command() const;

 private:
  Position pos_;
  // The states of the game, in chunks: their addresses stay put while the game grows (the position links them),
  // and a long game allocates once per STATE_CHUNK plies instead of once per ply (a StateInfo is ~380 bytes, so a
  // std::deque would give each its own node).
  static constexpr size_t STATE_CHUNK = 64;
  StateInfo& next_state();
  std::vector<std::unique_ptr<StateInfo[]>> state_chunks_;
  size_t states_used_ = 0;
  std::string start_sfen_;
  std::vector<Move> moves_;
  size_t opening_plies_ = 0;
  PositionCounts counts_;  // every position of the game, start included
};

}  // namespace shogi

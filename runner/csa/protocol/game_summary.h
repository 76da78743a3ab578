#pragma once
// The BEGIN Game_Summary ... END Game_Summary block (csa-protocol.md §3), parsed line by line as it arrives.
//
// Every key of §3 is understood, including the Time / Time+ / Time- blocks (per-side clocks) and the Position
// block (PI with handicap removals, P1..P9 rows, P+/P- with 00XX and 00AL, the turn line, and the moves already
// played with their ,T times). The start position is checked with shogi::Position::set and the played moves
// with shogi::parse_csa_move. Unknown keys and blocks are collected for the log and otherwise ignored; anything
// broken stops the parser with an error naming the block line (1 = "BEGIN Game_Summary") and what was expected.

#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "csa/protocol/clock.h"
#include "rules/types.h"

namespace arena::csa {

struct PlayedMove {
  std::string csa;                 // "+7776FU"
  std::string usi;                 // "7g7f"
  std::optional<int64_t> time_ms;  // its ,T (absent if the server gave none)
};

struct GameSummary {
  std::string protocol_version;
  std::string protocol_mode;
  std::string format;
  std::string declaration;
  std::string game_id;
  std::string name[shogi::COLOR_NB];      // Name+ / Name-
  shogi::Color your_turn = shogi::BLACK;  // our colour
  std::optional<shogi::Color> to_move;    // as announced (cross-checked, see warnings)
  bool rematch_on_draw = false;
  int max_moves = 0;                      // 0: no limit
  TimeRule time[shogi::COLOR_NB];         // Time+ / Time- when given, else the common Time block

  std::string start_sfen;                 // the Position block's board, hands and turn, before its moves
  std::vector<PlayedMove> moves;          // already played (resumed or buoy games)
  std::string current_sfen;               // after those moves
  shogi::Color side_to_move = shogi::BLACK;  // after those moves

  // Clocks with the Position moves' times charged the way the client mirrors the server (§5.4). shogi-server
  // does not deduct the fake ,T1 of buoy moves; the difference is at most one second per setup move and the
  // server's T of every later move keeps both sides honest.
  CsaClock clock;

  std::vector<std::string> unknown;   // "line 9: KIOU_Rating:1500" — to be logged, otherwise ignored
  std::vector<std::string> warnings;  // consistent enough to play, but worth a log line
};

class GameSummaryParser {
 public:
  GameSummaryParser();
  ~GameSummaryParser();
  GameSummaryParser(GameSummaryParser&&) noexcept;
  GameSummaryParser& operator=(GameSummaryParser&&) noexcept;

  // Feed the block one line at a time, starting with "BEGIN Game_Summary" (a trailing CR is ignored). Returns
  // true once "END Game_Summary" completed a valid summary. After an error every further call returns it again.
  std::expected<bool, std::string> feed(std::string_view line);
  bool done() const;
  // Valid once feed() returned true.
  const GameSummary& summary() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The whole block at once (lines separated by LF); an error if it is incomplete.
std::expected<GameSummary, std::string> parse_game_summary(std::string_view text);

}  // namespace arena::csa

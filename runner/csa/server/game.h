#pragma once
// One game on the CSA server (csa-protocol.md §3 to §6): the Game_Summary, START, moves judged with the rules
// library, the reference server's clock, and every ending with the exact lines shogi-server sends.
//
// No sockets and no clock reading: the caller passes the moment each line was read (shogi-server measures a move
// from the end of the previous one to the moment it read the line) and arms a timer at deadline(), so that a
// silent player's flag falls on time instead of at the next line or 60 s later as on shogi-server.
//
// Kept from shogi-server on purpose: a move sent before its turn is queued and played when the turn starts
// (charged 0 s, or Least_Time_Per_Move); a move identical to the last echoed one is ignored; a late move or
// %TORYO is a time-up; when a player disconnects off turn the game goes on until the survivor acts, who then wins
// with "%TORYO #RESIGN #WIN" (after the echo of a legal move); the checkmated side is not detected and must resign.

#include <chrono>
#include <cstdint>
#include <deque>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "csa/server/command.h"
#include "csa/protocol/clock.h"
#include "rules/game_end.h"
#include "rules/types.h"

namespace arena::csa {

using SteadyTime = std::chrono::steady_clock::time_point;
using SystemTime = std::chrono::system_clock::time_point;

struct GameSetup {
  std::string game_id;                      // <event>+<gamename>+<black>+<white>+<YYYYMMDDhhmmss>
  std::string game_name;                    // e.g. "testgame-300-10F"
  std::string names[shogi::COLOR_NB];       // login names: Name+ / Name-
  std::string list_names[shogi::COLOR_NB];  // for the results list: "<name>+<md5(trip)>" when rated
  double rates[shogi::COLOR_NB] = {0, 0};   // the players' ratings when the game was made (0: none), as recorded
  int total_s = 0;
  int byoyomi_s = 0;
  int increment_s = 0;
  int least_time_per_move_s = 0;
  int max_moves = 256;  // 0: no limit
  // The start: "startpos", "sfen <sfen>", either followed by "moves <usi>..." played before the game (sent in the
  // Position block as "<move>,T1" and not charged to the clocks, like shogi-server's buoy games).
  std::string position = "startpos";
};

enum class GameEndKind {
  None,
  Resign,    // %TORYO
  Abnormal,  // the opponent disconnected (or logged out): shogi-server's "abnormal" win
  TimeUp,
  IllegalMove,     // unparsable or illegal move, wrong sign, unknown %-command (%CHUDAN, ...)
  Uchifuzume,      // a pawn drop that mates
  SelfCheck,       // leaves or puts the own king in check ("oute_kaihimore")
  Kachi,           // a valid %KACHI
  IllegalKachi,    // a %KACHI that fails the 27-point rule
  Sennichite,      // draw
  OuteSennichite,  // perpetual check: the checking side loses
  MaxMoves,        // Max_Moves reached: censored (a draw)
  Chudan,          // the server stopped the game
};
// shogi-server's name of the ending in its results list (00LIST): "toryo", "time up", "abnormal", ...
const char* summary_type(GameEndKind kind);

struct GameOutcome {
  GameEndKind kind = GameEndKind::None;
  std::optional<shogi::Color> winner;  // none for a draw, MAX_MOVES or CHUDAN
  std::string detail;                  // e.g. "+7756FU: the pawn on 77 cannot move to 56"
};

// Text for each player (whole lines, "\n"-terminated), filled by the game's methods.
struct Outbox {
  std::string to[shogi::COLOR_NB];
  void both(std::string_view text) {
    to[0] += text;
    to[1] += text;
  }
};

struct ServerMove {
  std::string csa;       // "+7776FU"
  int64_t time_s = 0;    // the T the server echoed
  std::string comment;   // the Floodgate comment as recorded: "'** 30 -3334FU" (empty if none)
  bool initial = false;  // played before the game (Position block), not by the players
};

class ServerGame {
 public:
  // The error says what is wrong with setup.position.
  static std::expected<std::unique_ptr<ServerGame>, std::string> create(GameSetup setup, SystemTime now);
  ~ServerGame();

  const GameSetup& setup() const { return setup_; }
  // "BEGIN Game_Summary" ... "END Game_Summary\n" for one player, in shogi-server's key order.
  std::string summary(shogi::Color recipient) const;
  // The %%SHOW text: the summary with the clocks, the last move and the current board (lines without prefix).
  std::string show() const;

  // Both players agreed: START to both, and the first turn begins at `now`.
  void start(SteadyTime now, Outbox& out);
  // REJECT by a player, the agreement timeout, or a disconnect before START: "REJECT:<id> by <who>" to both.
  void reject(std::string_view who, Outbox& out);
  bool started() const { return started_; }
  bool finished() const { return outcome_.kind != GameEndKind::None || rejected_; }
  bool rejected() const { return rejected_; }

  // A line of the game from a player: Move, Special or a keep-alive (other kinds are ignored). `now` is when the
  // line was read. A keep-alive only re-checks the mover's clock; the caller answers "" with an empty line.
  void on_command(shogi::Color from, const ClientCommand& cmd, SteadyTime now, Outbox& out);
  // The timer armed at deadline() fired: ends the game if the mover's flag has fallen by `now`.
  void on_timer(SteadyTime now, Outbox& out);
  // The player's connection is gone (EOF, error, dropped, LOGOUT). The caller rejects a game not started yet.
  void on_disconnect(shogi::Color who, SteadyTime now, Outbox& out);
  // The server is stopping: "#CHUDAN" to both.
  void abort(Outbox& out);

  // When the side to move loses on time, if the game is running and timed.
  std::optional<SteadyTime> deadline() const;

  shogi::Color side_to_move() const { return turn_; }
  const GameOutcome& outcome() const { return outcome_; }
  const std::vector<ServerMove>& moves() const { return moves_; }
  const shogi::GameRecord& record() const { return record_; }
  // The start position before the Position block's moves, as an SFEN.
  const std::string& start_sfen() const { return start_sfen_; }
  int64_t remaining_ms(shogi::Color c) const { return clock_.remaining_ms(c); }
  SystemTime created_time() const { return created_; }
  SystemTime end_time() const { return end_time_; }
  // The illegal line that ended the game, if any, for the record.
  const std::string& illegal_line() const { return illegal_line_; }

 private:
  std::string to_move_and_clock_lines() const;
  ServerGame() = default;
  void play_turn(const ClientCommand& cmd, SteadyTime now, Outbox& out);
  void play_deferred(Outbox& out);
  void finish(GameEndKind kind, std::optional<shogi::Color> winner, std::string detail, Outbox& out);

  GameSetup setup_;
  shogi::GameRecord record_;
  std::string start_sfen_;
  std::string start_board_;  // the Position block's board before its moves (CSA text)
  CsaClock clock_;
  std::vector<ServerMove> moves_;
  std::deque<ClientCommand> deferred_[shogi::COLOR_NB];
  bool gone_[shogi::COLOR_NB] = {false, false};
  bool started_ = false;
  bool rejected_ = false;
  shogi::Color turn_ = shogi::BLACK;
  SteadyTime turn_start_{};
  std::string last_move_;  // the last echoed line, e.g. "+7776FU,T1" (the duplicate test uses its move part)
  GameOutcome outcome_;
  std::string illegal_line_;
  SystemTime created_{};
  SystemTime end_time_{};
};

}  // namespace arena::csa

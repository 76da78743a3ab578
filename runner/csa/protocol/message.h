#pragma once
// One line from a CSA server, classified (csa-protocol.md §1, §2, §4, §6, §9). Pure text handling: whether a move
// is legal is the caller's business (the rules library); here a move only has to be well formed.
//
// A line with a known shape but a broken body ("+77FU", "LOGIN:alice", "+7776FU,Tx", "#WHATEVER") is an error
// value naming what was expected; a line with no known shape is MessageKind::Unknown. Nothing throws.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace arena::csa {

enum class MessageKind {
  Empty,            // "" (keep-alive; a trailing CR is ignored)
  LoginOk,          // LOGIN:<name> OK                      text = name
  LoginIncorrect,   // LOGIN:incorrect
  LogoutCompleted,  // LOGOUT:completed
  Begin,            // BEGIN <block>                        text = block name (Game_Summary, Time, Position, ...)
  End,              // END <block>                          text = block name
  Start,            // START:<game id>                      text = game id
  Reject,           // REJECT:<game id> by <name>           text = game id, detail = rejector ("" if absent)
  Move,             // +7776FU[,T<sec>][,'<comment>]        text = move token
  Resign,           // %TORYO[,T<sec>]
  Declare,          // %KACHI[,T<sec>]
  OtherSpecial,     // any other %XXX (%CHUDAN, ...)        text = the token
  GameEnd,          // #<REASON> or #<RESULT>               see reason / result
  X1,               // ##[<tag>] <rest>                     text = tag, detail = rest
  Unknown,          // anything else                        text = the line
};

// Why a game ended: the reason line of §6 (it precedes the result line and may be absent).
enum class EndReason { None, Resign, TimeUp, IllegalMove, Sennichite, OuteSennichite, Jishogi, MaxMoves, IllegalAction };
// The terminal result line of §6; #CHUDAN is a result on its own.
enum class EndResult { None, Win, Lose, Draw, Censored, Chudan };

struct Message {
  MessageKind kind = MessageKind::Unknown;
  std::string text;
  std::string detail;
  std::optional<int64_t> time_ms;     // the ,T field of moves and %TORYO / %KACHI (seconds, decimals allowed)
  std::optional<std::string> comment;  // the ,' field of a move, without the ,'
  EndReason reason = EndReason::None;  // for GameEnd: exactly one of reason / result is set
  EndResult result = EndResult::None;
};

std::expected<Message, std::string> parse_server_line(std::string_view line);

// A move token with its optional time and comment: "+7776FU,T12", "-3334FU,T0.5,'* 30 +2726FU".
struct TimedMove {
  std::string move;  // "+7776FU"
  std::optional<int64_t> time_ms;
  std::optional<std::string> comment;
};
std::expected<TimedMove, std::string> parse_timed_move(std::string_view text);

// "T12", "T0.25" -> milliseconds (sub-millisecond digits are truncated). The T value is always seconds,
// whatever Time_Unit says (§5.6).
std::expected<int64_t, std::string> parse_t_field(std::string_view text);

const char* to_string(EndReason r);  // "RESIGN", "TIME_UP", ... ("" for None)
const char* to_string(EndResult r);  // "WIN", "LOSE", ...

}  // namespace arena::csa

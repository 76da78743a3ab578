#pragma once
// Lines a CSA client sends to the server (csa-protocol.md §2, §4, §8, §9), classified the way shogi-server
// classifies them, so that our server answers every line as the reference does. Pure text handling, no I/O:
// whether a move is legal is the game's business.
//
// shogi-server matches most commands by prefix ("AGREE" also matches "AGREE <id>" and "AGREEMENT"); that is kept,
// because clients rely on it. Nothing here throws, and every input maps to exactly one kind.

#include <optional>
#include <string>
#include <string_view>

namespace arena::csa {

enum class ClientCommandKind {
  KeepAlive,        // ""  : answered with an empty line
  KeepAliveSilent,  // " " : not answered
  Blank,            // any other whitespace-only line: ignored
  Move,             // "+..." / "-..." (second character not '%')      text = the first comma field; comment
  Special,          // "%XXX..." (not "%%")                             text = the line; special says which
  Agree,            // "AGREE..."                                       text = the rest, trimmed (a Game_ID or "")
  Reject,           // "REJECT..."                                      text = the rest, trimmed
  Game,             // "%%GAME <name> <+|-|*>"                          text = name, turn
  Challenge,        // "%%CHALLENGE <name> <+|-|*>"                     text = name, turn
  GameCancel,       // "%%GAME" alone: stop waiting
  MissingTurn,      // "%%GAME <name>" / "%%CHALLENGE <name>" without a valid turn
  Who,              // "%%WHO..."
  List,             // "%%LIST..."
  Show,             // "%%SHOW <game id>"                               text = game id
  Chat,             // "%%CHAT <message>"                               text = message
  Help,             // "%%HELP..."
  Version,          // "%%VERSION..."
  Rating,           // "%%RATING..."
  Floodgate,        // "%%FLOODGATE": the Floodgate groups and their next pairing (this server's own x1 command)
  Logout,           // "LOGOUT..."
  CsaChallenge,     // "CHALLENGE..." (CSA's test server): answered "CHALLENGE ACCEPTED"
  Ignored,          // "%%%X...": 81Dojo extensions, silently ignored
  Unsupported,      // %%MONITOR(2)ON/OFF, %%SETBUOY, %%DELETEBUOY, %%GETBUOYCOUNT, %%FORK: known, not offered here
  Unknown,          // anything else: "##[ERROR] unknown command: <line>"
};

// The %-commands a player may send during a game. Everything but %TORYO and %KACHI (%CHUDAN, %MATTA, ...) is
// an illegal move on shogi-server.
enum class SpecialKind { None, Toryo, Kachi, Other };

struct ClientCommand {
  ClientCommandKind kind = ClientCommandKind::Unknown;
  std::string text;
  char turn = '*';  // Game / Challenge: '+', '-' or '*'
  SpecialKind special = SpecialKind::None;
  std::optional<std::string> comment;  // Move: the text after ",'" in the second comma field (the Floodgate PV)
};

// Classifies one line. A trailing LF, CR LF or CR is removed first (Ruby's chomp).
ClientCommand parse_client_command(std::string_view line);
const char* to_string(ClientCommandKind kind);

// --- LOGIN ---------------------------------------------------------------------------------------------------

// shogi-server's default --max-identifier.
constexpr int DEFAULT_MAX_IDENTIFIER = 32;

// 1 to max_length characters of [A-Za-z0-9_@.-].
bool good_identifier(std::string_view s, int max_length = DEFAULT_MAX_IDENTIFIER);

struct LoginRequest {
  std::string name;
  std::string password;
  bool x1 = false;
};
// "LOGIN <name> <password>" or "LOGIN <name> <password> x1" (whitespace-separated tokens) with a good name;
// nullopt for anything else (the server answers LOGIN:incorrect).
std::optional<LoginRequest> parse_login(std::string_view line, int max_identifier = DEFAULT_MAX_IDENTIFIER);
// Number of whitespace-separated tokens (shogi-server adds a hint line to LOGIN:incorrect when there are >= 4).
size_t token_count(std::string_view line);
// The line with a LOGIN password hidden ("LOGIN alice ..."), for error replies and logs.
std::string mask_login(std::string_view line);

// --- Game names ----------------------------------------------------------------------------------------------

// <id>-<total>-<byoyomi> or <id>-<total>-<increment>F, id a good identifier, times in seconds.
struct GameName {
  std::string id;
  int total_s = 0;
  int byoyomi_s = 0;
  int increment_s = 0;
  bool fischer = false;     // the F suffix
  bool stop_watch = false;  // a byoyomi part with a leading zero ("x-600-060"): shogi-server's minute clock
};
std::optional<GameName> parse_game_name(std::string_view name, int max_identifier = DEFAULT_MAX_IDENTIFIER);
// The three-part shape alone, whatever the id's characters (for shogi-server's two different error messages).
bool has_game_name_shape(std::string_view name);
inline bool good_game_name(std::string_view name, int max_identifier = DEFAULT_MAX_IDENTIFIER) {
  return parse_game_name(name, max_identifier).has_value();
}
// floodgate-<total>-<byoyomi>[F]: shogi-server only pairs these on its schedule, and only with turn '*'.
bool is_floodgate_game_name(std::string_view name);

// shogi-server's handicap names (hclance_, hcbishop_, hcrook_, hcrooklance_, hc2p_, hc4p_, hc6p_, hc8p_, hc10p_):
// the start position as an SFEN, or nullopt for an even game. shogi-server removes the pieces from BLACK's side
// and black moves first; that is reproduced, not "corrected".
std::optional<std::string> handicap_sfen(std::string_view game_name);

// The password of a CSA-mode LOGIN selects the game (§9): "<gamename>", "<gamename>,<trip>",
// "<gamename>-B,<trip>" / "-W" for a colour; anything else plays the default game and is the trip itself.
constexpr std::string_view DEFAULT_GAME_NAME = "default-1500-0";
struct CsaPassword {
  std::string game_name;
  char turn = '*';
  std::string trip;  // "" when none: the player is not rated
};
CsaPassword parse_csa_password(std::string_view password, int max_identifier = DEFAULT_MAX_IDENTIFIER);

}  // namespace arena::csa

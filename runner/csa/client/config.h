#pragma once
// Settings of `shogi-arena csa`: which server, how to log in, which engine, how to play, where to write.
//
// One flat namespace of dotted keys ("server.host", "play.margin_ms", "engine.options.USI_Hash") serves both the
// YAML file (configs/csa-*.yaml) and command-line overrides, so the two can never disagree on names or checks.
// Errors are values naming the file, line and key.

#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "game/game.h"

namespace arena::csa {

enum class LoginMode {
  Csa,  // LOGIN <user> <game_name[,trip]>: one game per connection, the server closes it after the game
  X1,   // LOGIN <user> <password> x1, then %%GAME / %%CHALLENGE: the connection survives games
};

struct CsaClientConfig {
  // --- server ---
  std::string host = "127.0.0.1";
  int port = 4081;
  LoginMode mode = LoginMode::Csa;
  std::string user;
  // CSA mode: the password is game_name[-B|-W][,trip] unless `password` is given verbatim.
  // x1 mode: `password` (or the trip) is the password and game_name goes into %%GAME / %%CHALLENGE.
  std::string password;
  std::string game_name;
  std::string trip;
  char turn = '*';         // '+' black, '-' white, '*' either (CSA mode: -B / -W suffix of the game name)
  bool challenge = false;  // x1: %%CHALLENGE (pair only with a waiting player) instead of %%GAME
  std::chrono::milliseconds connect_timeout{10000};
  int keep_alive_s = 40;  // an empty line after this much silence on our side; the protocol forbids < 30
  // After a dropped connection or a failed connect/login: wait initial, doubling up to max, at most this many
  // attempts in a row (0 = forever). The count resets after every game that started.
  int reconnect_attempts = 10;
  std::chrono::milliseconds reconnect_initial{2000};
  std::chrono::milliseconds reconnect_max{60000};

  // --- engine ---
  // command empty: the built-in engine (shogi-arena-engine next to the shogi-arena binary); a bare name (no '/')
  // is looked up on PATH and in /usr/games.
  game::EngineConfig engine;

  // --- play ---
  int games = 1;                    // games to play; 0 = until stopped
  int64_t margin_ms = 1000;         // network round trip + the engine's stop latency, taken off every budget
  bool restart_engine = false;      // a fresh engine process for every game
  bool floodgate_comments = false;  // ,'* <score> <pv> after each move (Floodgate)
  bool resign_on_stop = false;      // on a stop request in a game: resign at our next turn instead of playing on

  // --- output ---
  std::string output_dir = "csa-games";  // one CSA record per game
  std::string log_file;                  // every line both ways; empty: <output_dir>/csa-client.log
  bool status_line = true;               // a live status line on stderr when it is a terminal

  // --- tests only (not reachable from YAML or the command line) ---
  std::optional<std::chrono::milliseconds> keep_alive_override;  // below the protocol's 30 s
};

// Checks every setting; the error names the key, e.g. "server.keep_alive_s: must be at least 30 (got 10)".
std::expected<void, std::string> validate(const CsaClientConfig& config);

// Sets one dotted key from text ("server.port", "8000"). Keys:
//   server.{host,port,mode,user,password,game_name,trip,turn,challenge,connect_timeout_s,keep_alive_s,
//           reconnect_attempts,reconnect_initial_s,reconnect_max_s}
//   engine.<key> for every key of config/engine_keys.h usable in the CSA client, engine.options.<name>
//   play.{games,margin_ms,restart_engine,floodgate_comments,resign_on_stop}
//   output.{dir,log,status_line}
// engine.args takes a list in YAML; from text it is split on spaces. The error names the key and what was expected.
// Relative engine paths are taken against `base_dir` (empty: the working directory).
std::expected<void, std::string> set_config_value(CsaClientConfig& config, std::string_view key, std::string_view value,
                                                  const std::string& base_dir = {});

// Reads a YAML file of the shape of configs/csa-floodgate.yaml into `config` (keys not in the file keep their
// values). Unknown keys are errors naming the file, line and key. As in the tournament configs, relative paths in
// the file (engine cmd with a '/', dir, logs, output) are relative to its directory. Not validated: command-line
// settings may follow (set_config_value), then validate() — run_csa_session() validates too.
std::expected<void, std::string> load_config_file(CsaClientConfig& config, const std::filesystem::path& path);
// A file alone: load_config_file on the defaults, then validate().
std::expected<CsaClientConfig, std::string> load_csa_client_config(const std::filesystem::path& path);

// What goes after "LOGIN <user> ": the CSA-mode password or "<password> x1".
std::string login_password(const CsaClientConfig& config);
// The part of the login that must never reach a log: the trip, or the whole password when given verbatim.
std::string login_secret(const CsaClientConfig& config);
// The command sent in x1 mode to ask for a game: "%%GAME <name> <turn>" or "%%CHALLENGE <name> <turn>".
std::string x1_game_command(const CsaClientConfig& config);

// The built-in engine next to the running binary (or in ../bin for test binaries); an error naming the places
// looked at when it is not there.
std::expected<std::string, std::string> builtin_engine_path();

}  // namespace arena::csa

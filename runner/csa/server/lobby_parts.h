#pragma once
// Inside the lobby (lobby.cpp, lobby_league.cpp): what it keeps of a player and of a game. Not an API.

#include <memory>
#include <optional>
#include <string>

#include "csa/server/lobby.h"

namespace arena::csa {

struct Lobby::Player {
  PlayerId id = 0;
  std::shared_ptr<Connection> conn;
  Status status = Status::LoggingIn;
  std::string name;
  std::string password;   // the trip (CSA mode) or the password (x1); compared on a duplicate login
  std::string player_id;  // "<name>+<md5(password)>" when rated, else empty
  bool x1 = false;
  std::string eol = "\n";     // the client's line end, used for the replies before login (as shogi-server)
  std::optional<bool> sente;  // true: black, false: white, nullopt: no preference
  std::string game_name;
  uint64_t game = 0;  // key of games_, 0 for none
  SteadyTime login_deadline{};
  SteadyTime last_command_at{};
};

struct Lobby::GameEntry {
  std::unique_ptr<ServerGame> game;
  PlayerId players[shogi::COLOR_NB] = {0, 0};
  SteadyTime expires{};                  // agreement deadline
  std::optional<size_t> reported_moves;  // moves when game_progress was last called (none: not yet)
};

}  // namespace arena::csa

#pragma once
// How the CSA client plays each game: settings taken from the client's configuration (client/config.h).

#include <cstdint>

namespace arena::csa {

struct GameSettings {
  int64_t margin_ms = 1000;
  bool floodgate_comments = false;
  bool ponder = false;
  bool resign_on_stop = false;
  int64_t untimed_move_ms = 10000;  // think time per move when the server sets no clock at all
};

}  // namespace arena::csa

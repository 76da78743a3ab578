#pragma once
// What a Floodgate group remembers of its players between rounds: whom each played last, with which colour and
// result, how often each played black and white, and when each was left out. Pairing reads it to avoid rematches,
// to balance colours and to rotate the odd player out; it is rebuilt from the group's results when the server
// restarts.

#include <map>
#include <optional>
#include <string>

namespace arena::csa::league {

struct PlayerHistory {
  int games = 0, blacks = 0, whites = 0;
  std::string last_opponent;  // the last game's opponent, whatever its result
  bool last_was_black = false;
  std::string last_decisive_opponent;  // the last game with a winner (shogi-server places unrated players by it)
  bool last_decisive_won = false;
  int byes = 0;             // rounds left out for an odd count
  int last_bye_round = -1;  // the round (0, 1, ...) of the last
};

class GroupHistory {
 public:
  // A finished game between two player ids; black_won nullopt for a draw.
  void record_game(const std::string& black, const std::string& white, std::optional<bool> black_won);
  void record_bye(const std::string& id, int round);
  // nullptr for a player the group has not seen.
  const PlayerHistory* find(const std::string& id) const;

 private:
  std::map<std::string, PlayerHistory> players_;
};

}  // namespace arena::csa::league

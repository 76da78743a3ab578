#include "csa/league/history.h"

namespace arena::csa::league {

void GroupHistory::record_game(const std::string& black, const std::string& white, std::optional<bool> black_won) {
  for (bool is_black : {true, false}) {
    PlayerHistory& h = players_[is_black ? black : white];
    const std::string& opponent = is_black ? white : black;
    ++h.games;
    ++(is_black ? h.blacks : h.whites);
    h.last_opponent = opponent;
    h.last_was_black = is_black;
    if (black_won) {
      h.last_decisive_opponent = opponent;
      h.last_decisive_won = *black_won == is_black;
    }
  }
}

void GroupHistory::record_bye(const std::string& id, int round) {
  PlayerHistory& h = players_[id];
  ++h.byes;
  h.last_bye_round = round;
}

const PlayerHistory* GroupHistory::find(const std::string& id) const {
  auto it = players_.find(id);
  return it == players_.end() ? nullptr : &it->second;
}

}  // namespace arena::csa::league

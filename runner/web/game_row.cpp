#include "web/game_row.h"

#include <boost/json.hpp>

namespace arena::web {

boost::json::object game_row(const journal::JournalGame& g) {
  boost::json::object o;
  o.emplace("game", g.game);
  o.emplace("pair", g.pair);
  o.emplace("game_in_pair", g.game_in_pair);
  o.emplace("round", g.round);
  o.emplace("attempt", g.attempt);
  o.emplace("opening", g.opening);
  o.emplace("replay", g.replay);
  o.emplace("black", g.black);
  o.emplace("white", g.white);
  o.emplace("result", to_string(g.outcome));
  o.emplace("termination", to_string(g.termination));
  o.emplace("detail", g.detail);
  o.emplace("plies", g.plies);
  return o;
}

}  // namespace arena::web

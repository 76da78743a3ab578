#include "web/league_view.h"

#include <boost/json.hpp>
#include <cmath>

namespace arena::web {

namespace {

int64_t epoch_ms(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

boost::json::value league_json(const csa::CsaLeagueView& view) {
  namespace bj = boost::json;
  bj::object out;
  out["now_ms"] = epoch_ms(std::chrono::system_clock::now());  // the page counts down from the server's clock
  bj::array groups;
  for (const auto& g : view.groups) {
    bj::object o;
    o["name"] = g.name;
    o["schedule"] = g.schedule;
    o["next_ms"] = g.next_pairing ? bj::value(epoch_ms(*g.next_pairing)) : bj::value(nullptr);
    o["waiting"] = g.waiting;
    o["rounds"] = g.rounds;
    o["last_round_ms"] = g.last_round.empty() ? bj::value(nullptr) : bj::value(epoch_ms(g.last_round_time));
    bj::array lines;
    for (const std::string& l : g.last_round) lines.push_back(bj::value(l));
    o["last_round"] = std::move(lines);
    groups.push_back(std::move(o));
  }
  out["groups"] = std::move(groups);
  bj::array ratings;
  for (const auto& p : view.ratings) {
    bj::object o;
    o["id"] = p.id;
    o["name"] = p.name;
    o["group"] = p.rating_group;
    o["rate"] = p.rate;
    o["win"] = std::round(p.win * 100) / 100;
    o["loss"] = std::round(p.loss * 100) / 100;
    o["games"] = p.games;
    if (p.listed) {
      o["elo"] = std::round(p.elo);
      o["lower"] = std::round(p.lower);
      o["upper"] = std::round(p.upper);
    }
    ratings.push_back(std::move(o));
  }
  out["ratings"] = std::move(ratings);
  return out;
}

}  // namespace arena::web

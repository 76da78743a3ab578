#pragma once
// The CSA server's Floodgate groups and ratings as the live page's JSON (csa/server/config.h CsaLeagueView):
//   {"now_ms", "groups": [{"name", "schedule", "next_ms" (epoch ms, or null), "waiting", "rounds",
//    "last_round_ms", "last_round": [lines]}], "ratings": [{"id", "name", "group", "rate", "win", "loss",
//    "games", "elo", "lower", "upper"}]}

#include <boost/json/value.hpp>

#include "csa/server/config.h"

namespace arena::web {

boost::json::value league_json(const csa::CsaLeagueView& view);

}  // namespace arena::web

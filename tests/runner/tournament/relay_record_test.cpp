// The same engine output recorded the same way whichever path the game took: a direct USI game and a game through
// the built-in CSA server (--via-csa-server) of two mock engines that report mates of unknown distance
// (`score mate +` / `score mate -`) give the same moves and the same "info" fields in their journal lines. The two
// paths used to convert the score each in its own way: a mate in one through the server, a long mate directly.

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "output/result_json.h"
#include "rules/position.h"
#include "relay/csa_server_engines.h"
#include "run/engines.h"

using namespace arena;
using namespace std::chrono_literals;
namespace bj = boost::json;

namespace {

std::vector<game::EngineConfig> engines() {
  std::vector<game::EngineConfig> list;
  for (const char* score : {"mate +", "mate -"}) {
    game::EngineConfig e;
    e.name = std::string("mock-") + (score[5] == '+' ? "plus" : "minus");
    e.command = MOCK_USI_ENGINE;
    e.args = {"--score", score};
    auto tc = game::parse_time_control("10+1b");
    REQUIRE(tc.has_value());
    e.time_control = *tc;
    e.startup_timeout = 5000ms;
    e.quit_grace = 500ms;
    list.push_back(e);
  }
  return list;
}

PlayedGame play_one(run::EngineFactory factory) {
  auto worker = factory(0);
  REQUIRE(worker->prepare(0).has_value());
  REQUIRE(worker->prepare(1).has_value());
  PlayedGame g = worker->play(0, 1, "startpos", nullptr);
  worker->release(0);
  worker->release(1);
  return g;
}

}  // namespace

TEST_CASE("a mate of unknown distance: the same journal fields directly and through the CSA server") {
  shogi::Position::init();
  game::GameOptions options;
  options.max_plies = 8;
  const PlayedGame direct = play_one(run::make_usi_engines(engines(), options, {}));
  auto relay = relay::make_csa_server_engines(engines(), options, {});
  REQUIRE_MESSAGE(relay.has_value(), (relay ? "" : relay.error()));
  const PlayedGame relayed = play_one(*relay);

  const bj::object a = bj::parse(to_result_json(direct)).as_object();
  const bj::object b = bj::parse(to_result_json(relayed)).as_object();
  const bj::array& moves_a = a.at("moves").as_array();
  const bj::array& moves_b = b.at("moves").as_array();
  REQUIRE(moves_a.size() >= 6);
  REQUIRE(moves_b.size() >= 6);
  const bj::array& info_a = a.at("info").as_array();
  const bj::array& info_b = b.at("info").as_array();
  for (size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(moves_a[i] == moves_b[i]);
    CHECK(info_a[i] == info_b[i]);
    // Black's engine says `mate +`, white's `mate -`: the distance is unknown, not a mate in one.
    REQUIRE(info_a[i].is_object());
    CHECK(info_a[i].as_object().at("score_mate").as_int64() == (i % 2 == 0 ? 999 : -999));
  }
}

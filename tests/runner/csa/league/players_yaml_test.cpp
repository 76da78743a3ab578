// players.yaml as mk_rate writes it and shogi-server reads it: the rates by player id.
#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>

#include "csa/league/players_yaml.h"

using arena::csa::league::read_player_rates;

namespace {

std::filesystem::path write(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("the rates of every group, 999 (unrated) included") {
  // The layout of shogi-server's test/players.yaml.
  const auto path = write("players", R"(---
players:
  0:
    gps500+e293220e3f8a3e59f79f6b0efffaa931:
      name: gps500
      rating_group: 0
      rate: 1051.0
      last_modified: 2024-01-31 12:00:00.000000000 +09:00
      win: 12.5
      loss: 3.25
    bonanza+0123:
      name: bonanza
      rating_group: 0
      rate: 949.0
      last_modified: 2024-01-30 11:00:00.000000000 +09:00
      win: 3.25
      loss: 12.5
  999:
    newbie+abcd:
      name: newbie
      rating_group: 999
      rate: 0
      last_modified: 2024-01-29 10:00:00.000000000 +09:00
      win: 1.0
      loss: 0
)");
  auto rates = read_player_rates(path);
  REQUIRE(rates.has_value());
  CHECK(rates->size() == 3);
  CHECK(rates->at("gps500+e293220e3f8a3e59f79f6b0efffaa931") == 1051.0);
  CHECK(rates->at("bonanza+0123") == 949.0);
  CHECK(rates->at("newbie+abcd") == 0.0);
  std::filesystem::remove(path);
}

TEST_CASE("no file or an empty league: no ratings; a broken file: an error naming it") {
  CHECK(read_player_rates("/nonexistent/players.yaml")->empty());
  const auto empty = write("empty", "players: {}\n");
  CHECK(read_player_rates(empty)->empty());
  const auto broken = write("broken", "players:\n  0:\n    a+1: {rate: [\n");
  auto r = read_player_rates(broken);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().starts_with(broken.string() + ":"));
  const auto wrong = write("wrong", "players: [1, 2]\n");
  auto w = read_player_rates(wrong);
  REQUIRE_FALSE(w.has_value());
  CHECK(w.error().find("expected 'players:'") != std::string::npos);
  for (const auto& p : {empty, broken, wrong}) std::filesystem::remove(p);
}

#include "csa/league/players_yaml.h"

#include <yaml-cpp/yaml.h>

namespace arena::csa::league {

std::expected<std::map<std::string, double>, std::string> read_player_rates(const std::filesystem::path& file) {
  std::map<std::string, double> rates;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return rates;
  try {
    const YAML::Node root = YAML::LoadFile(file.string());
    const YAML::Node players = root["players"];
    if (!players) return rates;  // shogi-server creates `players: {}`
    if (!players.IsMap()) return std::unexpected(file.string() + ": expected 'players:' to map rating groups");
    for (const auto& group : players) {
      if (group.second.IsNull()) continue;
      if (!group.second.IsMap())
        return std::unexpected(file.string() + ":" + std::to_string(group.second.Mark().line + 1) +
                               ": expected the players of rating group " + group.first.as<std::string>());
      for (const auto& player : group.second) {
        const YAML::Node rate = player.second["rate"];
        rates[player.first.as<std::string>()] = rate ? rate.as<double>() : 0.0;
      }
    }
  } catch (const YAML::Exception& e) {
    return std::unexpected(file.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return rates;
}

}  // namespace arena::csa::league

#include "csa/league/players_yaml.h"

#include <yaml-cpp/yaml.h>

#include <charconv>

#include "output/local_time.h"

namespace arena::csa::league {

std::expected<std::vector<PlayersEntry>, std::string> read_players(const std::filesystem::path& file) {
  std::vector<PlayersEntry> entries;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return entries;
  try {
    const YAML::Node root = YAML::LoadFile(file.string());
    const YAML::Node players = root["players"];
    if (!players) return entries;  // shogi-server creates `players: {}`
    if (!players.IsMap()) return std::unexpected(file.string() + ": expected 'players:' to map rating groups");
    for (const auto& group : players) {
      if (group.second.IsNull()) continue;
      if (!group.second.IsMap())
        return std::unexpected(file.string() + ":" + std::to_string(group.second.Mark().line + 1) +
                               ": expected the players of rating group " + group.first.as<std::string>());
      for (const auto& player : group.second) {
        PlayersEntry e;
        e.id = player.first.as<std::string>();
        const YAML::Node& v = player.second;
        e.name = v["name"] ? v["name"].as<std::string>() : e.id.substr(0, e.id.find('+'));
        e.rate = v["rate"] ? v["rate"].as<double>() : 0.0;
        e.last_modified = v["last_modified"] ? v["last_modified"].as<std::string>() : "";
        entries.push_back(std::move(e));
      }
    }
  } catch (const YAML::Exception& e) {
    return std::unexpected(file.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return entries;
}

std::expected<std::map<std::string, double>, std::string> read_player_rates(const std::filesystem::path& file) {
  auto entries = read_players(file);
  if (!entries) return std::unexpected(entries.error());
  std::map<std::string, double> rates;
  for (const PlayersEntry& e : *entries) rates[e.id] = e.rate;
  return rates;
}

namespace {

// A float as Ruby's YAML writes one: the shortest form that reads back, with ".0" when it is whole.
std::string ruby_float(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// "2024-01-31 12:00:00.000000000 +09:00", Ruby's YAML form of a Time.
std::string ruby_time(WallTime t) {
  const std::string zone = output::format_local_time(t, "%z");  // "+0900"
  std::string text = output::format_local_time(t, "%Y-%m-%d %H:%M:%S");
  text += ".000000000 ";
  text.append(zone, 0, 3);  // built piece by piece: GCC 12 warns falsely (-Wrestrict) about insert(3, ":")
  text += ':';
  text.append(zone, 3, std::string::npos);
  return text;
}

}  // namespace

std::string players_yaml_text(const LeagueRatings& ratings) {
  std::string out = "---\nplayers:\n";
  int group = -1;
  auto open_group = [&](int g) {
    if (g == group) return;
    group = g;
    out += "  " + std::to_string(g) + ":\n";
  };
  bool wrote_999 = false;
  for (const LeaguePlayer& p : ratings.players) {
    if (p.rating_group == 999 && p.win < 1 && p.loss < 1) continue;
    open_group(p.rating_group);
    wrote_999 |= p.rating_group == 999;
    out += "    " + p.id + ":\n";
    out += "      name: " + p.name + "\n";
    out += "      rating_group: " + std::to_string(p.rating_group) + "\n";
    out += "      rate: " + (p.rating_group == 999 ? std::string("0") : ruby_float(p.rate)) + "\n";
    out += "      last_modified: " + ruby_time(p.last_modified) + "\n";
    out += "      win: " + ruby_float(p.win) + "\n";
    out += "      loss: " + ruby_float(p.loss) + "\n";
  }
  if (!wrote_999) out += "  999: {}\n";
  return out;
}

}  // namespace arena::csa::league

#include "csa/server/cli.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>

#include "config/config.h"
#include "config/values.h"
#include "csa/league/results_list.h"
#include "csa/server/command.h"

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

}  // namespace

void CsaServerCli::add_to(CLI::App& app) {
  app.add_option("--listen", listen_, "Address and port: HOST:PORT, [IPv6]:PORT or PORT (default 127.0.0.1:4081)")
      ->type_name("ADDRESS");
  app.add_option("--event", event_, "First part of every Game_ID (like shogi-server's event name)");
  app.add_option("--max-moves", max_moves_, "Max_Moves of every game; 0 = no limit")->check(CLI::Range(0, 100000));
  app.add_option("--least-time-per-move", least_time_per_move_, "Least_Time_Per_Move in seconds (Floodgate 0)")
      ->check(CLI::Range(0, 60));
  app.add_option("--max-identifier", max_identifier_, "Longest accepted player name / game id")
      ->check(CLI::Range(8, 256));
  app.add_option("--agree-timeout", agree_timeout_s_, "Seconds both players have to AGREE a game")
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-connections", max_connections_, "Connections at once; more are refused (default 1000)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-line-length", max_line_length_, "Longest accepted line; a longer one drops the client")
      ->check(CLI::Range(256, 1 << 20));
  app.add_option("--out", out_, "Folder for CSA records (YYYY/MM/DD/<Game_ID>.csa) and 00LIST; none if not given")
      ->type_name("DIR");
  app.add_option("--results", results_, "The results list (default <out>/00LIST)")->type_name("FILE");
  app.add_option("--log", log_, "Server log: connections, logins, games, dropped clients")->type_name("FILE");
  app.add_flag("--log-traffic", log_traffic_, "Also log every line in and out (passwords masked)");
  app.add_option("--floodgate", floodgate_,
                 "Floodgate groups, e.g. floodgate-600-10F,floodgate-300-10F: players asking for one wait for its "
                 "next pairing time (:00 and :30, or <conf-dir>/<name>.conf), then all are paired by rating")
      ->type_name("NAMES");
  app.add_option("--floodgate-interval", floodgate_interval_s_,
                 "Pair the Floodgate groups every SECONDS instead (tests, short events); a .conf's set lines apply")
      ->check(CLI::Range(1, 86400))
      ->type_name("SECONDS");
  app.add_option("--floodgate-conf-dir", floodgate_conf_dir_,
                 "Folder of the groups' <name>.conf schedules (shogi-server's topdir; default --out)")
      ->type_name("DIR");
  app.add_option("--players", players_,
                 "Pair by the ratings of this players.yaml (an existing Floodgate's, read before each round) "
                 "instead of the server's own, computed from <out>/00LIST into <out>/players.yaml")
      ->type_name("FILE");
  app.add_option("--rating-half-life", rating_half_life_, "Days after which a game weighs half (mk_rate's 60)")
      ->check(CLI::Range(1.0, 100000.0))
      ->type_name("DAYS");
  app.add_option("--rating-min-games", rating_min_games_,
                 "Weighted games a player needs to be rated in players.yaml (mk_rate's 15)")
      ->check(CLI::Range(0.0, 100000.0))
      ->type_name("N");
  app.add_option("--rate-only", rate_only_,
                 "Recompute the ratings of the records in DIR (DIR/00LIST) into DIR/players.yaml and "
                 "DIR/ratings.json, print them, and exit")
      ->type_name("DIR");
  app.add_option("--web", web_,
                 "Serve a live page of the games: PORT (on 127.0.0.1) or HOST:PORT (0.0.0.0:PORT for every interface)")
      ->type_name("ADDRESS");
}

std::expected<CsaServerConfig, std::string> CsaServerCli::build() const {
  CsaServerConfig config;
  auto address = config::parse_listen_address(listen_, 4081);
  if (!address) return Error("--listen '" + listen_ + "': " + address.error());
  config.listen_address = address->host;
  config.port = address->port;
  config.event = event_;
  if (event_.empty() || event_.find_first_of(" \t+") != std::string::npos)
    return Error("--event '" + event_ + "': expected one word without '+'");
  config.max_moves = max_moves_;
  config.least_time_per_move = least_time_per_move_;
  config.max_identifier = max_identifier_;
  config.agree_timeout_s = agree_timeout_s_;
  config.max_connections = max_connections_;
  config.max_line_length = max_line_length_;
  config.output_dir = out_;
  if (!results_.empty() && out_.empty()) return Error("--results needs --out (records and results go together)");
  config.results_file = results_;
  config.log_file = log_;
  config.log_traffic = log_traffic_;
  if (log_traffic_ && log_.empty()) return Error("--log-traffic needs --log FILE");
  if (auto groups = floodgate_groups(); !groups)
    return Error(groups.error());
  else
    config.floodgate_groups = std::move(*groups);
  config.players_file = players_;
  config.rating.half_life_days = rating_half_life_;
  config.rating.games_limit = rating_min_games_;
  if (!web_.empty())
    if (auto web = config::parse_listen_address(web_, config::DEFAULT_WEB_PORT); !web)
      return Error("--web '" + web_ + "': " + web.error());
  return config;
}

std::expected<std::vector<league::FloodgateGroupConfig>, std::string> CsaServerCli::floodgate_groups() const {
  std::vector<league::FloodgateGroupConfig> groups;
  if (floodgate_.empty()) {
    if (floodgate_interval_s_ > 0 || !floodgate_conf_dir_.empty())
      return Error("--floodgate-interval and --floodgate-conf-dir need --floodgate NAMES");
    return groups;
  }
  const std::filesystem::path conf_dir = floodgate_conf_dir_.empty() ? out_ : floodgate_conf_dir_;
  for (std::string_view field : league::split_fields(floodgate_, ',')) {
    const std::string name(field);
    if (!is_floodgate_game_name(name) || !parse_game_name(name, max_identifier_))
      return Error("--floodgate '" + name + "': expected Floodgate game names like floodgate-600-10F, comma-separated");
    for (const auto& g : groups)
      if (g.name == name) return Error("--floodgate: " + name + " is given twice");
    league::FloodgateGroupConfig g;
    g.name = name;
    std::error_code ec;
    const std::filesystem::path conf = conf_dir.empty() ? std::filesystem::path() : conf_dir / (name + ".conf");
    std::optional<league::Schedule> from_file;
    if (!conf.empty() && std::filesystem::exists(conf, ec)) {
      auto loaded = league::Schedule::load(conf.string());
      if (!loaded) return Error(loaded.error());
      from_file = std::move(*loaded);
    }
    if (floodgate_interval_s_ > 0) {
      // The interval replaces the file's times; its settings still apply (read once).
      g.schedule = league::Schedule::every(std::chrono::seconds(floodgate_interval_s_),
                                           from_file ? from_file->settings() : league::GroupSettings{});
    } else if (from_file) {
      g.schedule = std::move(*from_file);
      g.conf_file = conf;
    } else {
      g.schedule = league::Schedule::every_half_hour();
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

}  // namespace arena::csa

#include "csa/server/cli.h"

#include <CLI/CLI.hpp>
#include <charconv>

#include "config/config.h"
#include "config/values.h"

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
  app.add_option("--max-connections", max_connections_, "Connections at once; more are refused")
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-line-length", max_line_length_, "Longest accepted line; a longer one drops the client")
      ->check(CLI::Range(256, 1 << 20));
  app.add_option("--out", out_, "Folder for CSA records (YYYY/MM/DD/<Game_ID>.csa) and 00LIST; none if not given")
      ->type_name("DIR");
  app.add_option("--results", results_, "The results list (default <out>/00LIST)")->type_name("FILE");
  app.add_option("--log", log_, "Server log: connections, logins, games, dropped clients")->type_name("FILE");
  app.add_flag("--log-traffic", log_traffic_, "Also log every line in and out (passwords masked)");
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
  if (!web_.empty())
    if (auto web = config::parse_listen_address(web_, config::DEFAULT_WEB_PORT); !web)
      return Error("--web '" + web_ + "': " + web.error());
  return config;
}

}  // namespace arena::csa

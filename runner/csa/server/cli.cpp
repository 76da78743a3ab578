#include "csa/server/cli.h"

#include <CLI/CLI.hpp>
#include <charconv>

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

std::expected<uint16_t, std::string> parse_port(const std::string& text, const std::string& whole) {
  unsigned v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v > 65535)
    return Error("--listen '" + whole + "': expected a port from 0 to 65535, got '" + text + "'");
  return uint16_t(v);
}

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

}  // namespace

std::expected<std::pair<std::string, uint16_t>, std::string> parse_listen_address(const std::string& text) {
  constexpr uint16_t default_port = 4081;
  if (text.empty()) return Error("--listen: expected HOST:PORT, HOST or PORT");
  if (all_digits(text)) {
    auto port = parse_port(text, text);
    if (!port) return Error(port.error());
    return std::pair{std::string("127.0.0.1"), *port};
  }
  if (text.front() == '[') {  // [::1]:4081
    size_t close = text.find(']');
    if (close == std::string::npos || close == 1)
      return Error("--listen '" + text + "': an IPv6 address is written [ADDRESS]:PORT");
    std::string host = text.substr(1, close - 1);
    if (close + 1 == text.size()) return std::pair{host, default_port};
    if (text[close + 1] != ':') return Error("--listen '" + text + "': expected ':' after ']'");
    auto port = parse_port(text.substr(close + 2), text);
    if (!port) return Error(port.error());
    return std::pair{host, *port};
  }
  size_t colon = text.rfind(':');
  if (colon == std::string::npos) return std::pair{text, default_port};
  if (text.find(':') != colon)
    return Error("--listen '" + text + "': write an IPv6 address in brackets, e.g. [::1]:4081");
  if (colon == 0) return Error("--listen '" + text + "': the host is missing before ':'");
  auto port = parse_port(text.substr(colon + 1), text);
  if (!port) return Error(port.error());
  return std::pair{text.substr(0, colon), *port};
}

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
}

std::expected<CsaServerConfig, std::string> CsaServerCli::build() const {
  CsaServerConfig config;
  auto address = parse_listen_address(listen_);
  if (!address) return Error(address.error());
  config.listen_address = address->first;
  config.port = address->second;
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
  return config;
}

}  // namespace arena::csa

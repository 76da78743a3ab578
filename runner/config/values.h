#pragma once
// Parsing of the scalar values shared by the YAML reader and the command line, so both accept the same spellings.
// Each error is the "expected ..." part of a message; the caller adds where the value was found.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace arena::config {

// true/false, yes/no, on/off, 1/0 (any case).
std::expected<bool, std::string> parse_bool(std::string_view text);
// A decimal integer within [min, max].
std::expected<int64_t, std::string> parse_int(std::string_view text, int64_t min, int64_t max);
// A finite decimal number.
std::expected<double, std::string> parse_double(std::string_view text);
// The shortest text that parse_double reads back as `v`: "20", "0.35", "1e-05" (what the user wrote, usually).
std::string number_text(double v);
std::expected<TournamentType, std::string> parse_tournament_type(std::string_view text);
std::expected<OpeningOrder, std::string> parse_opening_order(std::string_view text);
std::expected<RestartPolicy, std::string> parse_restart_policy(std::string_view text);
std::expected<stats::EloModel, std::string> parse_elo_model(std::string_view text);
// "csa", "kif", "csa,kif", "none".
struct KifuFormats {
  bool csa = false;
  bool kif = false;
};
std::expected<KifuFormats, std::string> parse_kifu_formats(std::string_view text);

// A listening address: "HOST:PORT", "[IPv6]:PORT", "HOST" (with `default_port`) or "PORT" alone, which listens on
// 127.0.0.1: a server is reachable from other machines only when an address says so. Port 0 lets the system pick.
struct ListenAddress {
  std::string host;
  uint16_t port = 0;
};
std::expected<ListenAddress, std::string> parse_listen_address(std::string_view text, uint16_t default_port);

// "key=value" into its two halves; a token without '=' is a key with an empty value (flags such as `ponder`).
std::pair<std::string, std::string> split_key_value(std::string_view token);

// Splits on runs of whitespace.
std::vector<std::string> split_words(std::string_view text);

}  // namespace arena::config

#include "config/values.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace arena::config {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string quoted(std::string_view s) {
  std::string out;  // appended piecewise: GCC 12 warns (-Wrestrict) about '"' + s + '"' falsely
  out += '"';
  out += s;
  out += '"';
  return out;
}

}  // namespace

std::expected<bool, std::string> parse_bool(std::string_view text) {
  std::string t = lower(text);
  if (t == "true" || t == "yes" || t == "on" || t == "1") return true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return false;
  return std::unexpected("expected true or false, got " + quoted(text));
}

std::expected<int64_t, std::string> parse_int(std::string_view text, int64_t min, int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  auto range = [&] {
    if (max == INT64_MAX) return "an integer >= " + std::to_string(min);
    return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  };
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return std::unexpected("expected " + range() + ", got " + quoted(text));
  if (v < min || v > max) return std::unexpected("expected " + range() + ", got " + std::string(text));
  return v;
}

std::expected<double, std::string> parse_double(std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::unexpected("expected a number, got " + quoted(text));
  return v;
}

std::string number_text(double v) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;  // the shortest form that reads back the same
  return std::string(buf, end);
}

std::expected<TournamentType, std::string> parse_tournament_type(std::string_view text) {
  std::string t = lower(text);
  if (t == "gauntlet") return TournamentType::Gauntlet;
  if (t == "roundrobin" || t == "round-robin" || t == "round_robin") return TournamentType::RoundRobin;
  if (t == "sprt") return TournamentType::Sprt;
  if (t == "play") return TournamentType::Play;
  if (t == "spsa") return TournamentType::Spsa;
  return std::unexpected("expected gauntlet, roundrobin, sprt, spsa or play, got " + quoted(text));
}

std::expected<OpeningOrder, std::string> parse_opening_order(std::string_view text) {
  std::string t = lower(text);
  if (t == "sequential") return OpeningOrder::Sequential;
  if (t == "random") return OpeningOrder::Random;
  return std::unexpected("expected sequential or random, got " + quoted(text));
}

std::expected<RestartPolicy, std::string> parse_restart_policy(std::string_view text) {
  std::string t = lower(text);
  if (t == "on-crash" || t == "on_crash" || t == "oncrash") return RestartPolicy::OnCrash;
  if (t == "always") return RestartPolicy::Always;
  return std::unexpected("expected on-crash or always, got " + quoted(text));
}

std::expected<stats::EloModel, std::string> parse_elo_model(std::string_view text) {
  std::string t = lower(text);
  if (t == "normalized") return stats::EloModel::Normalized;
  if (t == "logistic") return stats::EloModel::Logistic;
  return std::unexpected("expected normalized or logistic, got " + quoted(text));
}

std::expected<KifuFormats, std::string> parse_kifu_formats(std::string_view text) {
  KifuFormats f;
  std::string t = lower(text);
  if (t == "none") return f;
  size_t start = 0;
  while (start <= t.size()) {
    size_t comma = t.find(',', start);
    std::string item = t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item == "csa")
      f.csa = true;
    else if (item == "kif")
      f.kif = true;
    else
      return std::unexpected("expected csa, kif, csa,kif or none, got " + quoted(text));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return f;
}

std::pair<std::string, std::string> split_key_value(std::string_view token) {
  size_t eq = token.find('=');
  if (eq == std::string_view::npos) return {std::string(token), std::string()};
  return {std::string(token.substr(0, eq)), std::string(token.substr(eq + 1))};
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

namespace {

std::expected<uint16_t, std::string> parse_port(std::string_view text) {
  unsigned v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v > 65535)
    return std::unexpected("expected a port from 0 to 65535, got '" + std::string(text) + "'");
  return uint16_t(v);
}

}  // namespace

std::expected<ListenAddress, std::string> parse_listen_address(std::string_view text, uint16_t default_port) {
  using Error = std::unexpected<std::string>;
  if (text.empty()) return Error("expected HOST:PORT, HOST or PORT");
  if (text.find_first_not_of("0123456789") == std::string_view::npos) {
    auto port = parse_port(text);
    if (!port) return Error(port.error());
    return ListenAddress{"127.0.0.1", *port};
  }
  if (text.front() == '[') {  // [::1]:4081
    size_t close = text.find(']');
    if (close == std::string_view::npos || close == 1) return Error("an IPv6 address is written [ADDRESS]:PORT");
    std::string host(text.substr(1, close - 1));
    if (close + 1 == text.size()) return ListenAddress{host, default_port};
    if (text[close + 1] != ':') return Error("expected ':' after ']'");
    auto port = parse_port(text.substr(close + 2));
    if (!port) return Error(port.error());
    return ListenAddress{host, *port};
  }
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return ListenAddress{std::string(text), default_port};
  if (text.find(':') != colon) return Error("write an IPv6 address in brackets, e.g. [::1]:8080");
  if (colon == 0) return Error("the host is missing before ':'");
  auto port = parse_port(text.substr(colon + 1));
  if (!port) return Error(port.error());
  return ListenAddress{std::string(text.substr(0, colon)), *port};
}

}  // namespace arena::config

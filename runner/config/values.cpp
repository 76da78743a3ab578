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

std::expected<TournamentType, std::string> parse_tournament_type(std::string_view text) {
  std::string t = lower(text);
  if (t == "gauntlet") return TournamentType::Gauntlet;
  if (t == "roundrobin" || t == "round-robin" || t == "round_robin") return TournamentType::RoundRobin;
  if (t == "sprt") return TournamentType::Sprt;
  if (t == "play") return TournamentType::Play;
  return std::unexpected("expected gauntlet, roundrobin, sprt or play, got " + quoted(text));
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

}  // namespace arena::config

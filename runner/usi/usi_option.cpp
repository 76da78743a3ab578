#include "usi_option.h"

#include <charconv>

#include "usi_info.h"

namespace arena::usi {

std::string_view to_string(OptionType type) {
  switch (type) {
    case OptionType::Check: return "check";
    case OptionType::Spin: return "spin";
    case OptionType::Combo: return "combo";
    case OptionType::Button: return "button";
    case OptionType::String: return "string";
    case OptionType::Filename: return "filename";
  }
  return "?";
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

namespace {

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// The words between two keywords joined by single spaces (names and values may contain spaces).
std::string join(const std::vector<std::string_view>& words, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += ' ';
    out += words[i];
  }
  return out;
}

}  // namespace

std::expected<OptionSpec, std::string> parse_option_line(std::string_view line) {
  auto fail = [&](std::string why) { return std::unexpected("bad option line '" + std::string(line) + "': " + why); };
  auto words = split_words(line);
  if (words.size() < 2 || words[0] != "option" || words[1] != "name") return fail("expected 'option name'");
  std::size_t type_at = 2;
  while (type_at < words.size() && words[type_at] != "type") ++type_at;
  if (type_at == 2) return fail("empty name");
  if (type_at + 1 >= words.size()) return fail("no type");
  OptionSpec spec;
  spec.name = join(words, 2, type_at);
  std::string_view type = words[type_at + 1];
  if (type == "check") spec.type = OptionType::Check;
  else if (type == "spin") spec.type = OptionType::Spin;
  else if (type == "combo") spec.type = OptionType::Combo;
  else if (type == "button") spec.type = OptionType::Button;
  else if (type == "string") spec.type = OptionType::String;
  else if (type == "filename") spec.type = OptionType::Filename;
  else return fail("unknown type '" + std::string(type) + "'");

  // The rest is keyword/value groups; a value runs until the next keyword.
  auto is_keyword = [](std::string_view w) { return w == "default" || w == "min" || w == "max" || w == "var"; };
  std::size_t i = type_at + 2;
  while (i < words.size()) {
    std::string_view key = words[i];
    if (!is_keyword(key)) return fail("unexpected '" + std::string(key) + "'");
    std::size_t end = i + 1;
    while (end < words.size() && !is_keyword(words[end])) ++end;
    std::string value = join(words, i + 1, end);
    if (key == "default") {
      spec.default_value = value;
    } else if (key == "var") {
      spec.vars.push_back(value);
    } else {
      auto n = to_int(value);
      if (!n) return fail(std::string(key) + " '" + value + "' is not an integer");
      (key == "min" ? spec.min : spec.max) = *n;
    }
    i = end;
  }
  if (spec.type == OptionType::Spin && (!spec.min || !spec.max)) return fail("spin without min and max");
  if (spec.type == OptionType::Spin && *spec.min > *spec.max) return fail("min is greater than max");
  if (spec.type == OptionType::Combo && spec.vars.empty()) return fail("combo without var");
  return spec;
}

std::optional<OptionSpec> find_option(const std::vector<OptionSpec>& options, std::string_view name) {
  for (const auto& o : options)
    if (iequals(o.name, name)) return o;
  return implicit_usi_option(name);
}

std::optional<OptionSpec> implicit_usi_option(std::string_view name) {
  if (iequals(name, "USI_Hash")) return OptionSpec{"USI_Hash", OptionType::Spin, "256", 1, INT32_MAX, {}};
  if (iequals(name, "USI_Ponder")) return OptionSpec{"USI_Ponder", OptionType::Check, "false", {}, {}, {}};
  return std::nullopt;
}

std::expected<void, std::string> check_option_value(const OptionSpec& option, std::string_view value) {
  auto fail = [&](std::string allowed) {
    return std::unexpected("option '" + option.name + "' must be " + allowed + ", not '" + std::string(value) + "'");
  };
  switch (option.type) {
    case OptionType::Check:
      if (value != "true" && value != "false") return fail("true or false");
      return {};
    case OptionType::Spin: {
      std::string range = "an integer from " + std::to_string(*option.min) + " to " + std::to_string(*option.max);
      auto n = to_int(value);
      if (!n || *n < *option.min || *n > *option.max) return fail(range);
      return {};
    }
    case OptionType::Combo: {
      for (const auto& v : option.vars)
        if (iequals(v, value)) return {};
      std::string choices;
      for (const auto& v : option.vars) choices += (choices.empty() ? "" : ", ") + v;
      return fail("one of " + choices);
    }
    case OptionType::Button:
      if (!value.empty()) return fail("empty (it is a button)");
      return {};
    case OptionType::String:
    case OptionType::Filename:
      if (value.find_first_of("\r\n") != std::string_view::npos) return fail("a single line");
      return {};
  }
  return {};
}

std::string setoption_command(const OptionSpec& option, std::string_view value) {
  std::string line = "setoption name " + option.name;
  if (option.type == OptionType::Button) return line;
  line += " value ";
  if (option.type == OptionType::Combo) {
    // Sent as the engine spells it.
    for (const auto& v : option.vars)
      if (iequals(v, value)) return line + v;
  }
  if (value.empty() && (option.type == OptionType::String || option.type == OptionType::Filename))
    return line + "<empty>";
  return line.append(value);
}

}  // namespace arena::usi

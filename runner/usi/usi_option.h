#pragma once
// Engine options as a USI engine advertises them (`option name ... type ...`) and the check of a configured
// value against that advertisement, so a bad option is a clear error before any game starts.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::usi {

enum class OptionType { Check, Spin, Combo, Button, String, Filename };
std::string_view to_string(OptionType type);

struct OptionSpec {
  std::string name;  // may contain spaces ("Move Overhead")
  OptionType type = OptionType::String;
  std::string default_value;  // "<empty>" is kept as written
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  std::vector<std::string> vars;  // combo choices
};

// "option name <name...> type <type> [default <v...>] [min <n>] [max <n>] [var <v...>]*"
std::expected<OptionSpec, std::string> parse_option_line(std::string_view line);

// Options every USI engine accepts without advertising them (the GUI always sends them).
std::optional<OptionSpec> implicit_usi_option(std::string_view name);
// The option `name` among an engine's declared `options` (names compare without case), else an implicit one.
std::optional<OptionSpec> find_option(const std::vector<OptionSpec>& options, std::string_view name);

// Checks `value` against the option's type and range. The error says what is allowed, e.g.
// "option 'Hash' must be an integer from 1 to 131072, not '0'".
std::expected<void, std::string> check_option_value(const OptionSpec& option, std::string_view value);

// The setoption line for a checked value (buttons take no value, an empty string is sent as "<empty>").
std::string setoption_command(const OptionSpec& option, std::string_view value);

// ASCII case-insensitive equality: option names are matched like that, and sent as the engine spells them.
bool iequals(std::string_view a, std::string_view b);

}  // namespace arena::usi

#pragma once
// The keys of one engine, in one table: a tournament's YAML entries (`engines:` and `each:`), its `--engine` and
// `--each` tokens, the CSA client's `engine:` section, its `--engine` tokens and `--set engine.KEY=...`. Each key
// has one parser, one help text and one place in the "expected one of" error, whichever path it comes by.
//
// Two keys have a YAML shape of their own: `args` is a list (or one string split on spaces) and `options` a map of
// USI option names to values. As tokens they are `args="A B"` / `arg=A` (repeatable) and `option.NAME=VALUE`.

#include <expected>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace arena::config {

// Where a key may be used.
enum EngineKeyPlace : unsigned {
  InTournament = 1u << 0,  // gauntlet, round-robin, sprt, play
  InCsaClient = 1u << 1,   // `shogi-arena csa`: the server sets the clock, logs are per engine
};

struct EngineKey {
  std::string_view key;    // as a token and in YAML; "option." is a prefix: the rest is the option's name
  std::string_view usage;  // for the help: "cmd=PATH", "[ponder]"; empty: shown with another key's (build, bin)
  unsigned places = InTournament | InCsaClient;
  // Parses `value` into `e`. `suffix` is the option's name for "option."; relative paths are taken against
  // `base_dir` (empty: the working directory). The error is the "expected ..." part; callers say where.
  std::expected<void, std::string> (*set)(EngineSettings& e, std::string_view suffix, std::string_view value,
                                          const std::string& base_dir);
  bool bare = false;   // the token may be written without "=VALUE" (`ponder`)
  bool yaml = true;    // a YAML key of its own (false for `arg`, and "option." is written `options:`)
  bool named = false;  // names one engine: not in `each`
};

std::span<const EngineKey> engine_keys();

// The key `key` ("send_inc", "option.USI_Hash") usable in `place`, or nullptr.
const EngineKey* find_engine_key(std::string_view key, EngineKeyPlace place);

// Sets one key; an unknown key's error lists the keys of `place`.
std::expected<void, std::string> set_engine_key(EngineSettings& e, std::string_view key, std::string_view value,
                                                EngineKeyPlace place, const std::string& base_dir);

// `cmd=./dev name=dev option.USI_Hash=256 ponder ...` into settings; an error names the token.
std::expected<EngineSettings, std::string> parse_engine_tokens(const std::vector<std::string>& tokens,
                                                               EngineKeyPlace place, const std::string& base_dir);

// "cmd=PATH [name=NAME] [args="A B"] ..." for a command line's help.
std::string engine_tokens_usage(EngineKeyPlace place);
// "cmd=, name=, args=, ..., ponder, send_inc=" for errors.
std::string engine_tokens_expected(EngineKeyPlace place);
// The YAML keys of an engine entry (`named`) or of `each`.
std::vector<std::string> engine_yaml_keys(EngineKeyPlace place, bool named);

// Copies what `s` sets onto `e` (options merged by name, case-insensitively); what it does not set keeps `e`'s value.
void apply_engine_settings(const EngineSettings& s, game::EngineConfig& e);

}  // namespace arena::config

#pragma once
// Building a Config from its sources: settings are applied in precedence order onto a draft (the config file,
// then the command line), and finalize() merges the engine settings, resolves paths and validates the whole.
// Every error is a ConfigError whose message names where the bad setting came from.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace arena::config {

struct ConfigDraft {
  Config config;  // everything except the engines, with the settings applied so far
  std::optional<TournamentType> file_type;
  std::string file_type_where;
  bool rounds_set = false;
  bool concurrency_set = false;
  std::string replay_where;  // where a replay setting (replay_broken_pairs, max_replays) was given; empty: none
  EngineSettings file_each, cli_each;
  std::vector<EngineSettings> file_engines, cli_engines;
};

// Applies a YAML config file (see configs/ for the keys). Relative paths in it are resolved against its directory.
void apply_yaml_file(const std::string& path, ConfigDraft& draft);
// The same for YAML text; `name` is used in messages and `base_dir` for relative paths.
void apply_yaml_text(std::string_view text, const std::string& name, const std::string& base_dir, ConfigDraft& draft);

// Parses `--engine` / `--each` tokens ("cmd=./dev", "name=dev", "option.USI_Hash=256", "tc=10+0.1", "ponder",
// "args=-a -b", "arg=-a", "dir=...", "startup_timeout_ms=60000"). `where` names the option in errors.
EngineSettings parse_engine_tokens(const std::vector<std::string>& tokens, const std::string& where,
                                   const std::string& base_dir);

// Merges the engines, resolves commands and paths, applies defaults and checks the whole. `command` is the type
// named by the subcommand (nullopt: the file must say `tournament:`).
Config finalize(ConfigDraft draft, std::optional<TournamentType> command);

// Resolves an engine command: a relative path is taken relative to `base_dir`, a bare name is looked up by
// process::find_executable (PATH, then /usr/games). Empty when not found or not executable.
std::string resolve_command(const std::string& cmd, const std::string& base_dir);

// `path` made absolute against `base_dir` when relative (base_dir empty: the working directory).
std::string resolve_path(const std::string& path, const std::string& base_dir);

}  // namespace arena::config

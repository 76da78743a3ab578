#pragma once
// An engine's settings written back as a user writes them: the tokens of an `--engine` line and an entry of a YAML
// config's `engines:` (the inverse of config/engine_keys.h, for the settings a command recommends: `check`'s, the
// values an SPSA run tuned).

#include <string>
#include <vector>

#include "game/game.h"

namespace arena::config {

// `cmd=... [name=...] [arg=...] [dir=...] [option.X=Y] [ponder] [send_inc=false] ...`: the keys that differ from the
// defaults, in the table's order.
std::vector<std::string> engine_tokens(const game::EngineConfig& engine);
// A token quoted for a POSIX shell where it needs to be.
std::string shell_quote(const std::string& token);
// An entry of `engines:` ("- name: ...\n  cmd: ...\n  options:\n    Threads: 1\n"), two-space indents.
std::string engine_yaml_entry(const game::EngineConfig& engine);

}  // namespace arena::config

#include "config/engine_keys.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "config/load.h"
#include "config/spsa_params.h"
#include "config/values.h"

namespace arena::config {

namespace {

using Result = std::expected<void, std::string>;
using Error = std::unexpected<std::string>;

Result non_empty(std::optional<std::string>& field, std::string_view value, std::string_view what) {
  if (value.empty()) return Error("expected " + std::string(what));
  field = std::string(value);
  return {};
}
Result flag(std::optional<bool>& field, std::string_view value) {
  auto b = parse_bool(value);
  if (!b) return Error(b.error());
  field = *b;
  return {};
}
Result integer(std::optional<int64_t>& field, std::string_view value, int64_t min, int64_t max) {
  auto v = parse_int(value, min, max);
  if (!v) return Error(v.error());
  field = *v;
  return {};
}
// A path; relative to base_dir. A command without '/' stays bare: it is looked up on PATH.
Result path(std::optional<std::string>& field, std::string_view value, const std::string& base_dir,
            std::string_view what) {
  if (value.empty()) return Error("expected " + std::string(what));
  field = resolve_path(std::string(value), base_dir);
  return {};
}

// A git repository: a URL ("https://...", "ssh://...", "git@host:path") as it is, a local path made absolute.
bool looks_like_url(std::string_view repo) {
  if (repo.find("://") != std::string_view::npos) return true;
  const size_t colon = repo.find(':');
  return colon != std::string_view::npos && repo.substr(0, colon).find('/') == std::string_view::npos;
}

// "PATH_OR_URL@REF", split at the last '@' (a URL's user part has one too).
Result git_source(std::optional<std::string>& field, std::string_view value, const std::string& base) {
  const size_t at = value.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == value.size())
    return Error("expected git=PATH_OR_URL@REF (a branch, tag, commit or WORKTREE), got '" + std::string(value) + "'");
  std::string repo(value.substr(0, at));
  if (!looks_like_url(repo)) repo = resolve_path(repo, base);
  field = repo + "@" + std::string(value.substr(at + 1));
  return {};
}

// The options a params file sets: each line's START, an int parameter's whole (the file's check wants it so), a
// float's in its shortest decimal form.
Result params_file(EngineSettings& e, std::string_view value, const std::string& base) {
  std::optional<std::string> file;
  if (auto ok = path(file, value, base, "params=FILE (a params file: an SPSA run's tuned.params)"); !ok) return ok;
  auto params = load_spsa_params(*file);
  if (!params) return Error(params.error());
  for (const stats::SpsaParam& p : *params) {
    if (p.integer) {
      e.options.emplace_back(p.name, std::to_string(std::llround(p.start)));  // whole already: no "221.000000"
      continue;
    }
    char text[32];
    const auto end = std::to_chars(text, text + sizeof(text), p.start).ptr;
    e.options.emplace_back(p.name, std::string(text, end));
  }
  return {};
}

constexpr EngineKey KEYS[] = {
    {"cmd", "cmd=PATH", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) -> Result {
       if (v.find('/') == std::string_view::npos) return non_empty(e.cmd, v, "cmd=EXECUTABLE");
       return path(e.cmd, v, base, "cmd=EXECUTABLE");
     }},
    {"name", "[name=NAME]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return non_empty(e.name, v, "name=NAME");
     },
     false, true, true},
    {"option.", "[option.NAME=VALUE ...]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view name, std::string_view v, const std::string&) -> Result {
       if (name.empty()) return Error("expected option.NAME=VALUE");
       e.options.emplace_back(std::string(name), std::string(v));
       return {};
     },
     false, false},
    // Options from a params file, in the order of the keys: an option.NAME after it overrides its line.
    {"params", "[params=FILE]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) {
       return params_file(e, v, base);
     }},
    {"tc", "[tc=10+0.1]", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) -> Result {
       auto tc = game::parse_time_control(v);
       if (!tc) return Error(tc.error());
       e.tc = *tc;
       return {};
     }},
    {"ponder", "[ponder]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return v.empty() ? (e.ponder = true, Result{}) : flag(e.ponder, v);
     },
     true},
    {"args", "[args=\"A B\"]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       e.args = split_words(v);
       return Result{};
     }},
    {"arg", "[arg=A ...]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       if (!e.args) e.args.emplace();
       e.args->emplace_back(v);
       return Result{};
     },
     false, false},
    {"dir", "[dir=DIR]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) {
       return path(e.dir, v, base, "dir=DIRECTORY");
     }},
    {"send_inc", "[send_inc=false]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) { return flag(e.send_inc, v); }},
    {"swap_btime_wtime", "[swap_btime_wtime=true]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return flag(e.swap_btime_wtime, v);
     }},
    {"startup_timeout_ms", "[startup_timeout_ms=MS]", InTournament | InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return integer(e.startup_timeout_ms, v, 1, 3600000);
     }},
    // This engine's time tolerance; the game's margin_ms stays every other engine's, so one engine that thinks
    // past its time does not loosen the clock of all. (A CSA client has its own play.margin_ms.)
    {"margin_ms", "[margin_ms=MS]", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return integer(e.margin_ms, v, 0, 600000);
     }},
    // A tournament keeps every engine's logs in its output folder (--engine-logs, --io-logs).
    {"quit_grace_ms", "[quit_grace_ms=MS]", InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return integer(e.quit_grace_ms, v, 0, 60000);
     }},
    {"stderr_log", "[stderr_log=FILE]", InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) {
       return path(e.stderr_log, v, base, "stderr_log=FILE");
     }},
    {"io_log", "[io_log=FILE]", InCsaClient,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) {
       return path(e.io_log, v, base, "io_log=FILE");
     }},
    // An engine built from a git ref and checked by its bench signature (runner/provision).
    {"git", "[git=REPO@REF build=\"COMMAND\" bin=PATH]", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string& base) {
       return git_source(e.git, v, base);
     }},
    {"build", "", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return non_empty(e.build, v, "build=\"COMMAND\" (run by /bin/sh in the checkout)");
     }},
    {"bin", "", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) -> Result {
       if (v.empty() || v.starts_with('/')) return Error("expected bin=PATH relative to the checkout");
       e.bin = std::string(v);
       return {};
     }},
    {"bench", "[bench=NODES]", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return integer(e.bench, v, 1, std::numeric_limits<int64_t>::max());
     }},
    {"bench_cmd", "[bench_cmd=\"ARGS\"|\"usi:LINE\"]", InTournament,
     [](EngineSettings& e, std::string_view, std::string_view v, const std::string&) {
       return non_empty(e.bench_cmd, v, "bench_cmd=\"ARGS\" or bench_cmd=\"usi:LINE\"");
     }},
};

bool usable(const EngineKey& k, EngineKeyPlace place) { return (k.places & place) != 0; }

}  // namespace

std::span<const EngineKey> engine_keys() { return KEYS; }

const EngineKey* find_engine_key(std::string_view key, EngineKeyPlace place) {
  for (const EngineKey& k : KEYS) {
    if (!usable(k, place)) continue;
    if (k.key.ends_with('.') ? key.starts_with(k.key) : key == k.key) return &k;
  }
  return nullptr;
}

std::expected<void, std::string> set_engine_key(EngineSettings& e, std::string_view key, std::string_view value,
                                                EngineKeyPlace place, const std::string& base_dir) {
  const EngineKey* k = find_engine_key(key, place);
  if (!k) {
    std::string why = "unknown key '" + std::string(key) + "'; expected " + engine_tokens_expected(place);
    if (place == InCsaClient && find_engine_key(key, InTournament))
      why += key == "margin_ms" ? " (a CSA client's margin is play.margin_ms)" : " (the server sets the time control)";
    return Error(why);
  }
  std::string_view suffix = k->key.ends_with('.') ? key.substr(k->key.size()) : std::string_view();
  return k->set(e, suffix, value, base_dir);
}

std::expected<EngineSettings, std::string> parse_engine_tokens(const std::vector<std::string>& tokens,
                                                               EngineKeyPlace place, const std::string& base_dir) {
  EngineSettings e;
  for (const std::string& token : tokens) {
    auto [key, value] = split_key_value(token);
    const EngineKey* k = find_engine_key(key, place);
    if (k && !k->bare && token.find('=') == std::string::npos)
      return Error("'" + token + "': expected " + key + "=VALUE");
    if (auto ok = set_engine_key(e, key, value, place, base_dir); !ok) return Error("'" + token + "': " + ok.error());
  }
  return e;
}

std::string engine_tokens_usage(EngineKeyPlace place) {
  std::string out;
  for (const EngineKey& k : KEYS)
    if (usable(k, place) && !k.usage.empty()) out.append(out.empty() ? "" : " ").append(k.usage);
  return out;
}

std::string engine_tokens_expected(EngineKeyPlace place) {
  std::string out;
  for (const EngineKey& k : KEYS) {
    if (!usable(k, place)) continue;
    out.append(out.empty() ? "" : ", ").append(k.key);
    if (k.key.ends_with('.'))
      out.append("NAME=");
    else if (!k.bare)
      out.append("=");
  }
  return out;
}

std::vector<std::string> engine_yaml_keys(EngineKeyPlace place, bool named) {
  std::vector<std::string> out;
  for (const EngineKey& k : KEYS) {
    if (!usable(k, place) || (k.named && !named)) continue;
    if (k.yaml)
      out.emplace_back(k.key);
    else if (k.key == "option.")
      out.emplace_back("options");
  }
  return out;
}

void apply_engine_settings(const EngineSettings& s, game::EngineConfig& e) {
  if (s.name) e.name = *s.name;
  if (s.cmd) e.command = *s.cmd;
  if (s.args) e.args = *s.args;
  if (s.dir) e.working_dir = *s.dir;
  merge_options(e.options, s.options);
  if (s.tc) e.time_control = *s.tc;
  if (s.ponder) e.ponder = *s.ponder;
  if (s.send_inc) e.send_increments = *s.send_inc;
  if (s.swap_btime_wtime) e.swap_btime_wtime = *s.swap_btime_wtime;
  if (s.startup_timeout_ms) e.startup_timeout = std::chrono::milliseconds(*s.startup_timeout_ms);
  if (s.margin_ms) e.margin_ms = *s.margin_ms;
  if (s.quit_grace_ms) e.quit_grace = std::chrono::milliseconds(*s.quit_grace_ms);
  if (s.stderr_log) e.stderr_log = *s.stderr_log;
  if (s.io_log) e.io_log = *s.io_log;
}

}  // namespace arena::config

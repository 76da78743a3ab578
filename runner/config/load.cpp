#include "config/load.h"

#include <strings.h>

#include <filesystem>
#include <set>

#include "config/engine_keys.h"
#include "config/spsa_params.h"
#include "config/values.h"
#include "process/find_executable.h"

namespace arena::config {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw ConfigError(where + ": " + what); }

void check_spsa(SpsaSettings& s) {
  if (s.params.empty())
    throw ConfigError("spsa: no parameters to tune (give --params FILE or --param NAME=START,MIN,MAX,C_END[,R_END], "
                      "or spsa.params in the config file)");
  if (auto ok = check_spsa_params(s.params); !ok) throw ConfigError("spsa: " + s.params_where + ": " + ok.error());
  if (s.schedule.iterations < 1)
    throw ConfigError("spsa: how many game pairs? (--pairs N, or spsa.pairs in the config file)");
  if (!(s.schedule.alpha > 0 && s.schedule.alpha <= 1)) throw ConfigError("spsa: alpha must be in (0, 1]");
  if (!(s.schedule.gamma > 0 && s.schedule.gamma <= 1)) throw ConfigError("spsa: gamma must be in (0, 1]");
  if (!(s.schedule.a_ratio >= 0)) throw ConfigError("spsa: a-ratio must not be negative");
  if (s.then_sprt)
    if (auto ok = stats::validate(*s.then_sprt); !ok) throw ConfigError("spsa: then-sprt: " + ok.error());
}

// The engine's source settings; a git engine must say how to build it.
EngineSource engine_source(const EngineSettings& e) {
  EngineSource s;
  s.where = e.where;
  if (e.bench) s.bench = *e.bench;
  if (e.bench_cmd) s.bench_cmd = *e.bench_cmd;
  if (!e.git) return s;
  const size_t at = e.git->rfind('@');  // checked by the key's parser
  s.git_repo = e.git->substr(0, at);
  s.git_ref = e.git->substr(at + 1);
  if (!e.build || !e.bin)
    fail(e.where, "git=" + *e.git + " needs build=\"COMMAND\" (run in the checkout) and bin=PATH (the binary it makes)");
  s.build = *e.build;
  s.bin = *e.bin;
  return s;
}

}  // namespace

std::string resolve_path(const std::string& path, const std::string& base_dir) {
  if (path.empty()) return path;
  fs::path p(path);
  if (p.is_absolute()) return p.lexically_normal().string();
  fs::path base = base_dir.empty() ? fs::current_path() : fs::path(base_dir);
  return (base / p).lexically_normal().string();
}

std::string resolve_command(const std::string& cmd, const std::string& base_dir) {
  const std::string path = cmd.find('/') != std::string::npos ? resolve_path(cmd, base_dir) : cmd;
  auto found = process::find_executable(path);
  return found ? found->string() : std::string();
}

EngineSettings parse_engine_tokens(const std::vector<std::string>& tokens, const std::string& where,
                                   const std::string& base_dir) {
  auto e = config::parse_engine_tokens(tokens, InTournament, base_dir);
  if (!e) fail(where, e.error());
  e->where = where;
  if (e->cmd) e->cmd_where = where;
  return std::move(*e);
}

Config finalize(ConfigDraft draft, std::optional<TournamentType> command) {
  Config c = std::move(draft.config);

  if (command && draft.file_type && *command != *draft.file_type)
    fail(draft.file_type_where, "the file is a " + std::string(to_string(*draft.file_type)) +
                                    " config but the command is '" + std::string(to_string(*command)) + "'");
  if (command)
    c.type = *command;
  else if (draft.file_type)
    c.type = *draft.file_type;
  else
    throw ConfigError(
        "no tournament type: use a subcommand (gauntlet, roundrobin, sprt) or 'tournament:' in the "
        "config file");

  // Engines, merged by precedence: file each < file engine < --each < --engine.
  std::vector<EngineSettings> merged;
  if (!draft.cli_engines.empty()) {
    EngineSettings each = merge(draft.file_each, draft.cli_each);
    for (const EngineSettings& e : draft.cli_engines) {
      EngineSettings m = merge(each, e);
      m.where = e.where;
      merged.push_back(std::move(m));
    }
  } else {
    for (const EngineSettings& e : draft.file_engines) {
      EngineSettings m = merge(merge(draft.file_each, e), draft.cli_each);
      m.where = e.where;
      merged.push_back(std::move(m));
    }
  }
  const size_t n = merged.size();
  const bool two = c.type == TournamentType::Play || c.type == TournamentType::Sprt;
  if (c.type == TournamentType::Spsa && n != 1)
    throw ConfigError("spsa tunes exactly 1 engine, got " + std::to_string(n) +
                      " (give it with --engine or 'engines:' in the config file; it plays against itself)");
  if (two && n != 2)
    throw ConfigError(std::string(to_string(c.type)) + " needs exactly 2 engines, got " + std::to_string(n) +
                      " (give them with --engine or 'engines:' in the config file)");
  if (!two && c.type != TournamentType::Spsa && n < 2)
    throw ConfigError(std::string(to_string(c.type)) + " needs at least 2 engines, got " + std::to_string(n) +
                      " (give them with --engine or 'engines:' in the config file)");

  std::set<std::string> names;
  for (const EngineSettings& e : merged) {
    game::EngineConfig ec;
    apply_engine_settings(e, ec);  // every key as written; the command, name and dir are checked below
    EngineSource source = engine_source(e);
    if (source.from_git()) {
      if (e.cmd) fail(e.where, "give either cmd= or git=, not both (git= builds the command)");
      ec.command.clear();  // provisioning builds it
      if (!e.name) ec.name = fs::path(source.git_repo).filename().replace_extension().string() + "@" + source.git_ref;
    } else {
      if (e.build || e.bin) fail(e.where, "build= and bin= go with git=REPO@REF");
      if (!e.cmd) fail(e.where, "the engine has no cmd (the executable to run) and no git=REPO@REF to build");
      ec.command = resolve_command(*e.cmd, "");
      if (ec.command.empty())
        fail(e.cmd_where.empty() ? e.where : e.cmd_where, "engine command " + process::not_found_text(*e.cmd));
      if (!e.name) ec.name = fs::path(*e.cmd).filename().string();
    }
    if (!names.insert(ec.name).second)
      fail(e.where, "two engines are named '" + ec.name + "'; give each a unique name (name=...)");
    if (!e.tc) fail(e.where, "engine '" + ec.name + "' has no time control (tc=10+0.1, tc=0+1b, tc=movetime=1, ...)");
    std::error_code ec_dir;
    if (e.dir && !fs::is_directory(*e.dir, ec_dir))
      fail(e.where, "engine '" + ec.name + "': dir '" + *e.dir + "' is not a directory");
    c.engines.push_back(std::move(ec));
    c.sources.push_back(std::move(source));
  }
  if (c.scale_tc && !c.scale_tc->engine.empty() && !names.contains(c.scale_tc->engine))
    throw ConfigError("scale_tc: engine '" + c.scale_tc->engine + "' is not an engine of the run");

  if (c.type == TournamentType::Sprt) {
    if (!draft.rounds_set) c.rounds = 50000;
    if (auto ok = stats::validate(c.sprt); !ok) throw ConfigError("sprt: " + ok.error());
  }
  if (c.type == TournamentType::Play) {
    c.rounds = 1;
    if (!draft.concurrency_set) c.concurrency = 1;
    if (!c.resume) c.overwrite = true;  // a one-off: its records replace the previous play's
  } else if (!draft.concurrency_set) {
    c.concurrency = default_concurrency();
  }
  if (c.type == TournamentType::Spsa) {
    check_spsa(c.spsa);
    if (!draft.replay_where.empty())
      fail(draft.replay_where, "not for spsa: a pair broken by a crash is scored as played, as the parameters "
                               "that crash an engine should lose");
  }
  if (!c.rating_anchor.empty() && !names.contains(c.rating_anchor)) {
    std::string list;
    for (const game::EngineConfig& e : c.engines) list += (list.empty() ? "" : ", ") + e.name;
    throw ConfigError("rating anchor '" + c.rating_anchor + "' is not an engine of the run (engines: " + list + ")");
  }
  if (!c.openings.file.empty() && !c.openings.position.empty())
    throw ConfigError("openings: give either a file or a position, not both");
  // Settings of a file of openings with no file: every game would start from the one position, which is not what
  // they ask for.
  if (c.openings.file.empty() && c.openings.order == OpeningOrder::Random)
    throw ConfigError("openings: order=random needs a file of openings (file=PATH)");
  if (c.openings.file.empty() && (c.openings.eval_window || c.openings.balance))
    throw ConfigError("openings: eval_window and balance are for a YaneuraOu book (file=PATH)");
  if (c.resume && c.overwrite) throw ConfigError("--resume and --overwrite contradict each other");
  c.output.dir = resolve_path(c.output.dir, "");
  if (c.output.journal.empty()) c.output.journal = (fs::path(c.output.dir) / "journal.jsonl").string();
  return c;
}

}  // namespace arena::config

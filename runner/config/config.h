#pragma once
// The runner's configuration as plain structs: what the command line and YAML files produce, and what the
// tournament layer reads. Only runner/config knows YAML and CLI11; everything below it sees these structs.
//
// Precedence, lowest first: the file's `each`, the file's engine entry, `--each`, `--engine`. Any `--engine` on the
// command line replaces the file's engine list. Every other command-line setting overrides the file's.
//
// Paths: a relative path in a config file is relative to the directory holding that file; a relative path on the
// command line is relative to the working directory. An engine `cmd` without a '/' is looked up on PATH (and in
// /usr/games, where Debian installs engines) at load time, because engines are started without a shell.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game/game.h"
#include "stats/spsa.h"
#include "stats/sprt.h"

namespace arena::config {

// A configuration or start-up error; the message is one line naming the file:line:key (or the command-line
// option) and what was expected. main prints it and exits with code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class TournamentType {
  Play,        // one game (or one pair) between two engines
  Gauntlet,    // the first engine against each of the others
  RoundRobin,  // every engine against every other
  Sprt,        // two engines until the SPRT decides (or `rounds` pairs are played)
  Spsa,        // one engine tuned by self-play: its parameters perturbed both ways, a pair at a time (SpsaSettings)
};
std::string_view to_string(TournamentType t);

enum class OpeningOrder { Sequential, Random };
std::string_view to_string(OpeningOrder o);

enum class RestartPolicy {
  OnCrash,  // an engine process is reused across games and restarted only when it died
  Always,   // a fresh process for every game
};
std::string_view to_string(RestartPolicy p);

// One engine as written in one place (a file entry, `each`, `--engine`): every field optional so that the places
// can be merged by precedence. The keys that set it are in config/engine_keys.h.
struct EngineSettings {
  std::optional<std::string> name;
  std::optional<std::string> cmd;
  std::optional<std::vector<std::string>> args;
  std::optional<std::string> dir;
  std::vector<std::pair<std::string, std::string>> options;  // merged by name, later places win
  std::optional<game::TimeControl> tc;
  std::optional<bool> ponder;
  std::optional<bool> send_inc;          // game::EngineConfig::send_increments
  std::optional<bool> swap_btime_wtime;  // game::EngineConfig::swap_btime_wtime
  std::optional<int64_t> startup_timeout_ms;
  std::optional<int64_t> margin_ms;       // game::EngineConfig::margin_ms (tournaments)
  std::optional<int64_t> quit_grace_ms;   // CSA client only (a tournament sets it)
  std::optional<std::string> stderr_log;  // CSA client only (a tournament keeps logs in its output folder)
  std::optional<std::string> io_log;      // CSA client only
  // An engine built from source instead of `cmd` (provision/git_build.h): "PATH_OR_URL@REF", the build command
  // (run by /bin/sh in the checkout) and the binary it makes (relative to the checkout).
  std::optional<std::string> git;
  std::optional<std::string> build;
  std::optional<std::string> bin;
  std::optional<int64_t> bench;          // the node count its bench must give (the build's signature)
  std::optional<std::string> bench_cmd;  // how to run its bench (provision/bench.h): arguments, or "usi:LINE"
  // Where each came from ("configs/x.yaml:12:5: engines[1]" or "--engine #2"), for errors found after merging.
  // A cmd or dir containing a '/' is already absolute; a bare cmd is looked up on PATH when the config is finalized.
  std::string where;
  std::string cmd_where;
};

// `over`'s fields replace `base`'s; options with the same name (case-insensitive) are replaced, others appended.
EngineSettings merge(const EngineSettings& base, const EngineSettings& over);
// USI options: one with the same name (case-insensitive) is replaced, others appended.
void merge_options(std::vector<std::pair<std::string, std::string>>& into,
                   const std::vector<std::pair<std::string, std::string>>& over);

struct OpeningSettings {
  std::string file;      // one opening per line (sfen / startpos moves / bare SFEN), or a .csa / .kif record
  std::string position;  // a single start position instead of a file ("startpos", "sfen ...", "startpos moves ...")
  OpeningOrder order = OpeningOrder::Sequential;
  uint64_t seed = 1;  // for the random order
  int plies = 0;      // keep at most this many moves of each opening; 0 = all of them (a book: walk depth, 8)
  // A YaneuraOu book (openings/book_openings.h): take moves within this many centipawns of a position's best, and
  // keep the positions whose last book eval is within `balance` either side.
  std::optional<int> eval_window;
  std::optional<int> balance;
};

struct OutputSettings {
  std::string dir = "shogi-arena-out";  // journal, kifu (games/), engine logs (logs/)
  std::string journal;                  // empty: <dir>/journal.jsonl
  bool csa = true;                      // a CSA record per game
  bool kif = false;                     // a KIF record per game
  bool engine_logs = true;              // each engine's stderr in logs/<engine>.stderr
  bool io_logs = false;                 // every USI line in and out in logs/<engine>.io
};

// An SPSA tuning run (stats/spsa.h has the algorithm; runner/spsa plays it).
struct SpsaSettings {
  std::vector<stats::SpsaParam> params;  // checked by config/spsa_params.h
  std::string params_where;              // where they came from ("params.txt", "--param"), for messages
  stats::SpsaSchedule schedule;          // iterations: the game pairs to play (`pairs`)
  uint64_t seed = 1;                     // the perturbations' signs and the integer roundings
  // After the run, an SPRT of the tuned values against the start values (same engine, same games settings), so
  // that a tune that only fitted noise is never shipped.
  std::optional<stats::SprtConfig> then_sprt;
  // On a cluster: a shard waiting for theta gives up (an error) when the coordinator has not published it for this
  // long (it republishes every 30 s while it runs): its job is gone. The pairs played are journaled.
  int coordinator_timeout_s = 600;
};

// Where an engine comes from and how it is checked before the first game (runner/provision): one per engine of
// Config::engines, in the same order. What provisioning finds is not kept here (provision/findings.h).
struct EngineSource {
  std::string git_repo;  // an absolute path or a URL; empty: the engine is its `cmd` as given
  std::string git_ref;   // as written (a branch, tag, commit, HEAD~1, ...); "WORKTREE": the uncommitted state
  std::string build;     // the build command
  std::string bin;       // the binary, relative to the checkout
  std::optional<int64_t> bench;  // the expected bench node count
  std::string bench_cmd;         // empty: `ENGINE bench`, then the USI command `bench`
  std::string where;             // the engine's place in the config, for messages
  bool from_git() const { return !git_repo.empty(); }
};

// Every time control scaled to this machine's speed (fishtest's idea): the reference engine's bench measures the
// nodes per second here, and each clock is multiplied by nps / measured, so that mixed hardware plays the same
// searches. Node and depth limits are not scaled. The measured speed is a finding (provision/findings.h).
struct ScaleTc {
  double nps = 0;      // the speed the time controls are written for
  std::string engine;  // the engine whose bench measures the machine; empty: the first
};

// The live page's port when `web` names a host alone.
inline constexpr uint16_t DEFAULT_WEB_PORT = 8080;

struct Config {
  TournamentType type = TournamentType::Gauntlet;
  std::vector<game::EngineConfig> engines;  // resolved: absolute commands, unique names
  // Rounds: in each round every pairing plays one opening twice with colours swapped (one pair). For an SPRT
  // this is the maximum number of pairs. `play` plays one game, or one pair with `pair`.
  int rounds = 1;
  bool pair = false;    // `play` only: one game (false) or a pair with colours swapped
  int concurrency = 1;  // games at once; the default is the number of cores
  OpeningSettings openings;
  game::GameOptions game;
  OutputSettings output;
  bool resume = false;     // continue the journal in output.journal
  bool overwrite = false;  // start afresh even if the journal exists (it is replaced); `play` always
  RestartPolicy restart = RestartPolicy::OnCrash;
  bool replay_broken_pairs = true;  // replay a pair broken by a crash or a runner error instead of scoring it
  int max_replays = 3;              // per pair; a pair still broken after that is scored as played
  bool quiet = false;               // no live status, only the final summary
  bool json = false;                // the final summary as JSON on stdout; status goes to stderr
  int status_interval_s = 10;       // how often a status line is printed when stdout is not a terminal
  // The live page's address ("HOST:PORT", "PORT" on loopback; values.h parse_listen_address, with DEFAULT_WEB_PORT
  // for a host alone); empty: no page.
  std::string web;
  stats::SprtConfig sprt;
  // The rating list of more than two engines (standings/ratings.h) puts this engine at rating_anchor_elo; empty:
  // the ratings' mean is 0.
  std::string rating_anchor;
  double rating_anchor_elo = 0;
  SpsaSettings spsa;  // type Spsa
  // Play every game through this project's CSA server on 127.0.0.1, each engine driven by the CSA client, instead
  // of directly over USI: the client and the server are then exercised by real games. Needs one clock of whole
  // seconds shared by both engines (a CSA game name carries it), and no pondering.
  bool via_csa_server = false;
  // One shard of a run spread over a cluster: "I/N", "auto" (a Slurm job array) or "auto/N" (a Kubernetes Indexed
  // Job); empty for the whole run here. Resolved by journal/shard.h, which reads the scheduler's variables.
  std::string shard;
  // Engines from git refs and bench checks (runner/provision).
  std::vector<EngineSource> sources;  // one per engine
  std::string build_cache;            // empty: $XDG_CACHE_HOME/shogi-arena/builds (or ~/.cache/...)
  std::optional<ScaleTc> scale_tc;
  // A file of prebuilt binaries (provision/provision.h) that `slurm` writes after building the git engines once:
  // its shards play those instead of resolving and building the refs again.
  std::string prebuilt;
};

// The CPUs this process may use (at least 1): the default concurrency. It is the affinity mask's count (what
// taskset, a cgroup cpuset or a Slurm task gives), capped by a cgroup v2 CPU quota (a container's CPU limit) and
// by SLURM_CPUS_PER_TASK where they are set, so that a runner inside a job does not oversubscribe its CPUs.
int default_concurrency();
// The whole CPUs of a cgroup v2 `cpu.max` ("<quota> <period>", rounded up); nullopt for "max <period>" (no limit).
std::optional<int> cpus_of_cpu_max(std::string_view text);

// A warning when more games run at once than the machine has hardware threads (one engine thinks at a time in a
// game): engines then think on a fraction of a core, and every stall of an overloaded machine is charged to some
// engine's clock, so time losses stop measuring the engines. Empty when the concurrency fits.
std::string oversubscription_warning(int64_t concurrency, int hardware_threads);

}  // namespace arena::config

#pragma once
// The command-line form of the configuration (CLI11). Option names follow fastchess/cutechess where they exist:
//   --engine cmd=./dev name=dev option.USI_Hash=256 tc=10+0.1 ponder   (repeatable)
//   --each tc=... option.X=...
//   --config file.yaml   (every setting also has a YAML form; the command line overrides the file)
// All values are taken as text and checked by the same parsers as the YAML reader.

#include <optional>
#include <string>
#include <vector>

#include "config/config.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace arena::config {

struct ConfigDraft;  // load.h

class CliOptions {
 public:
  // Registers the options on a subcommand. `type` is the subcommand's tournament type (nullopt for `run`, whose
  // type comes from the file); `play` gets --pair and --position instead of rounds.
  void add_to(CLI::App& app, std::optional<TournamentType> type);
  // After parsing: reads --config (if given), applies the command line over it and finalizes.
  Config build() const;
  // --web as given, for a command that follows a run without building its configuration (slurm --attach).
  const std::string& web_option() const { return web_; }

 private:
  void apply_schedule_options(ConfigDraft& draft) const;
  void apply_opening_options(OpeningSettings& openings) const;
  void apply_game_options(game::GameOptions& game) const;
  void apply_output_options(ConfigDraft& draft) const;
  void apply_spsa_options(SpsaSettings& settings) const;

  std::optional<TournamentType> type_;
  std::string config_file_;
  std::vector<std::vector<std::string>> engines_;
  std::vector<std::string> each_, openings_, resign_, draw_, sprt_;
  std::string rounds_, games_, concurrency_, position_, max_plies_, margin_ms_, stall_ms_, entering_king_, out_,
      journal_, shard_, kifu_, engine_logs_, io_logs_, restart_, replay_, max_replays_, status_interval_, event_, web_,
      rating_anchor_, rating_anchor_elo_, build_cache_, prebuilt_;
  std::vector<std::string> scale_tc_;
  bool pair_ = false, resume_ = false, overwrite_ = false;
  // spsa (and run): the parameters and the schedule.
  std::string params_file_, pairs_, alpha_, gamma_, a_ratio_, seed_, coordinator_timeout_;
  std::vector<std::string> params_, then_sprt_;
  // Switches a YAML file may also set: each has a --no- form, and only a switch given on the command line (either
  // form, or --switch=false) overrides the file, so the option is kept to ask whether it was given.
  bool via_csa_server_ = false, quiet_ = false, json_ = false;
  CLI::Option *via_csa_server_option_ = nullptr, *quiet_option_ = nullptr, *json_option_ = nullptr;
};

}  // namespace arena::config

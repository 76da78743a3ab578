#pragma once
// What the user sees of an SPSA run: the live status line, fault events, and at the end the tuned values in the
// forms they are used in (an --engine line, a YAML entry, a params file to continue or narrow the run).
//
//   SPSA 120/300 pairs | X 52.3 Y 47.1 | last 100: +0.07 | crash 0 stall 0 time 0 illegal 0

#include <string>

#include "spsa/run.h"
#include "standings/status_display.h"

namespace arena::spsa {

std::string status_line(const Progress& progress, const std::vector<stats::SpsaParam>& params);

class Console final : public Observer {
 public:
  Console(std::vector<stats::SpsaParam> params, standings::StatusDisplay::Options options);
  void pair_finished(const journal::SpsaPair& pair, const journal::JournaledGame& first,
                     const journal::JournaledGame& second, const Progress& progress) override;
  void tick(const Progress& progress) override;
  void warning(const std::string& text) override;
  void note(const std::string& text) override;
  void finish(const Progress& progress);

 private:
  std::vector<stats::SpsaParam> params_;
  standings::StatusDisplay display_;
};

// Each parameter from its start to theta ("  X   start 20  ->  58.31  (sent as 58; range 0..100)").
std::string theta_text(const Tuner& tuner);
// The engine with the tuned values as an --engine line and a YAML entry.
std::string tuned_engine_text(const game::EngineConfig& engine, const Tuner& tuner);
// The same of a journal's pairs (a sharded run's, applied by its coordinator): theta after the last one.
std::string applied_text(const journal::JournalContents& contents, const game::EngineConfig& engine);

// The params file of the tuned values: each parameter's line with START replaced by its tuned value as it is sent
// (Tuner::final_values: whole for an int parameter or a spin option's), so that params=FILE sets what was tuned.
std::string tuned_params_file(const Tuner& tuner);

struct Summary {
  RunEnd end = RunEnd::Completed;
  std::string error;
  int exit_code = 0;
  double elapsed_s = 0;
  int64_t pairs_played = 0;   // by this run
  int64_t resumed_pairs = 0;  // journaled before it
  std::string journal;
  std::string params_file;  // where the tuned params file was written (empty: not written)
  double runner_cpu_s = -1;  // the runner's own CPU time (engines excluded); < 0: unknown
};
// The end of the run as text: each parameter from its start to theta, the mean result, the tuned engine as an
// --engine line and a YAML entry, the params file.
std::string summary_text(const Run& run, const Summary& summary);
std::string summary_json(const Run& run, const Summary& summary);

}  // namespace arena::spsa

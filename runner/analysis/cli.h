#pragma once
// The command line of `shogi-arena analyze`:
//
//   shogi-arena analyze RUN_DIR|JOURNAL|RECORDS... --engine cmd=REFEREE [name=N] [option.X=Y ...]
//       [--nodes N | --movetime MS] [--games all|decisive|lost-by=NAME|3,7,10-12] [--concurrency N] [--out DIR]
//       [--resume] [--records DIR] [--clear-hash game|position] [--scale CP] [--inaccuracy P] [--mistake P] [--blunder
//       P]
//       [--decisive-margin P]
//
// The referee is written as the tournament commands write engines (config/engine_keys.h). CLI11 stays in cli.cpp.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/judgement.h"

namespace CLI {
class App;
}

namespace arena::analysis {

class AnalyzeCli {
 public:
  void add_to(CLI::App& app);
  // The exit code: 0 analysed (or interrupted, resumable), 1 the analysis failed, 2 bad arguments.
  int run(const std::atomic<bool>* interrupt) const;

 private:
  std::vector<std::string> inputs_;
  std::vector<std::string> engine_;
  std::int64_t nodes_ = 0;
  std::int64_t movetime_ms_ = 0;
  std::string games_ = "all";
  int concurrency_ = 1;
  std::string out_;
  bool resume_ = false;
  std::string records_;
  std::string clear_hash_ = "game";
  JudgeOptions judge_;
};

}  // namespace arena::analysis

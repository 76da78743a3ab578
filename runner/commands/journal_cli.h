#pragma once
// The commands that read a run's files, during the run or after it, wherever it ran:
//   shogi-arena stats J [--sprt ...] [--json]     every statistic again, from a journal or a sharded run's directory
//   shogi-arena merge OUT [--sprt ...] [--json]   a sharded run's segments into OUT/journal.jsonl, then its stats
//   shogi-arena report OUT [--html FILE] [--max-replays N]   one self-contained HTML report of the run
//
// stats and merge exit as a run would (an SPRT's verdict: 0 H1, 1 H0, 2 undecided); errors throw
// config::ConfigError (one line naming the file).

#include <optional>
#include <string>
#include <vector>

#include "standings/journal_stats.h"
#include "web/report.h"

namespace CLI {
class App;
}

namespace arena::commands {

// What stats and merge print: the summary as text or JSON, with the journal's SPRT or another one.
struct StatsOutput {
  std::vector<std::string> sprt;  // elo0=E elo1=E [alpha=A] [beta=B] [model=...]
  bool json = false;
  std::string rating_anchor;
  std::optional<double> rating_anchor_elo;
  void add_to(CLI::App& app);
  standings::StatsRequest request() const { return {sprt, json, rating_anchor, rating_anchor_elo}; }
};

class StatsCli {
 public:
  void add_to(CLI::App& app);
  int run() const;

 private:
  std::string journal_;
  StatsOutput output_;
};

class MergeCli {
 public:
  void add_to(CLI::App& app);
  int run() const;

 private:
  std::string out_;
  StatsOutput output_;
};

class ReportCli {
 public:
  void add_to(CLI::App& app);
  int run() const;

 private:
  std::string out_, html_;
  web::ReportOptions options_;
};

}  // namespace arena::commands

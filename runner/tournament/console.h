#pragma once
// What the user sees on the console while a run plays: the live status (one line redrawn on a terminal, plain lines
// every few seconds otherwise), warnings and fault events, and a line per finished game for `play`.

#include <chrono>
#include <cstdio>
#include <string>

#include "tournament/summary.h"
#include "tournament/tournament.h"

namespace arena::tournament {

class ConsoleReporter final : public Observer {
 public:
  struct Options {
    bool quiet = false;
    bool terminal = false;    // redraw one line in place
    int interval_s = 10;      // between plain status lines when not a terminal
    bool game_lines = false;  // a line per finished game (the play command)
    std::FILE* out = stdout;
  };
  ConsoleReporter(RunInfo info, Options options);

  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const Tally& tally) override;
  void tick(const Tally& tally) override;
  void warning(const std::string& text) override;
  // Ends the live line (call before printing the summary).
  void finish(const Tally& tally);

 private:
  void print_line(const std::string& text);

  RunInfo info_;
  Options options_;
  std::string last_status_;
  bool status_shown_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
  bool changed_ = true;
};

}  // namespace arena::tournament

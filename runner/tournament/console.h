#pragma once
// What the user sees on the console while a tournament plays: the live status (one line redrawn on a terminal, plain lines
// every few seconds otherwise), warnings and fault events, and a line per finished game for `play`.

#include <cstdio>
#include <string>

#include "standings/status_display.h"
#include "standings/summary.h"
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
  ConsoleReporter(standings::RunInfo info, Options options);

  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const standings::Tally& tally) override;
  void tick(const standings::Tally& tally) override;
  void warning(const std::string& text) override;
  void note(const std::string& text) override;
  // Ends the live line (call before printing the summary).
  void finish(const standings::Tally& tally);

 private:
  standings::RunInfo info_;
  bool game_lines_;
  standings::StatusDisplay display_;
};

}  // namespace arena::tournament

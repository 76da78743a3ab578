#pragma once
// What the user sees on the console while a run plays: the live status (one line redrawn on a terminal, plain lines
// every few seconds otherwise), warnings and fault events, and a line per finished game for `play`.

#include <cstdio>
#include <string>

#include "tournament/status_display.h"
#include "tournament/summary.h"
#include "tournament/tournament.h"

namespace arena::tournament {

// Whether a game ended by an engine's fault (a crash, a stall, a time loss, an illegal move or declaration) or the
// runner's: worth a line on the console in any run.
bool is_fault(Termination termination);
// "Game 12: a (black) vs b (white): white won by resignation after 93 plies (detail)".
std::string game_event_text(const journal::JournalGame& game);

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
  void note(const std::string& text) override;
  // Ends the live line (call before printing the summary).
  void finish(const Tally& tally);

 private:
  RunInfo info_;
  bool game_lines_;
  StatusDisplay display_;
};

}  // namespace arena::tournament

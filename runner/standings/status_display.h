#pragma once
// The console's live status of a run: one line redrawn in place on a terminal (at most every 250 ms, when it
// changed), or plain lines every few seconds otherwise; other lines (warnings, game events) printed above it. Used
// by the tournament's console and the SPSA run's, which only say what the status line reads.

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "journal/journal.h"

namespace arena::standings {

class StatusDisplay {
 public:
  struct Options {
    bool quiet = false;     // nothing live: warnings go to stderr, the rest is left out
    bool terminal = false;  // redraw one line in place
    int interval_s = 10;    // between plain status lines when not a terminal
    std::FILE* out = stdout;
  };
  explicit StatusDisplay(Options options) : options_(options) {}

  const Options& options() const { return options_; }
  // Something the status reflects has changed: the next show() draws.
  void changed() { changed_ = true; }
  // Draws the status when it is due; `status` is called only then.
  void show(const std::function<std::string()>& status);
  // A line of its own above the status (the status is drawn again after it).
  void print(const std::string& line);
  void warning(const std::string& text);
  // A line for the user that is not a warning (what an engine was told); on stderr when quiet.
  void note(const std::string& text);
  // Ends the live line with the final status (call before printing a summary).
  void finish(const std::string& status);

 private:
  Options options_;
  bool status_shown_ = false;
  bool changed_ = true;
  std::chrono::steady_clock::time_point last_draw_{};
};

// Whether a game ended by an engine's fault (a crash, a stall, a time loss, an illegal move or declaration) or the
// runner's: worth a line on the console in any run.
bool is_fault(Termination termination);
// "Game 12: a (black) vs b (white): white won by resignation after 93 plies (detail)".
std::string game_event_text(const journal::JournalGame& game);

}  // namespace arena::standings

#include "tournament/console.h"

namespace arena::tournament {

ConsoleReporter::ConsoleReporter(standings::RunInfo info, Options options)
    : info_(std::move(info)),
      game_lines_(options.game_lines),
      display_({.quiet = options.quiet,
                .terminal = options.terminal,
                .interval_s = options.interval_s,
                .out = options.out}) {}

void ConsoleReporter::game_finished(const journal::JournaledGame& journaled, const std::vector<std::string>& records,
                                    const standings::Tally&) {
  display_.changed();
  if (display_.options().quiet) return;
  const journal::JournalGame& g = journaled.summary;
  if (!game_lines_ && !standings::is_fault(g.termination) && !g.replay) return;
  std::string line = standings::game_event_text(g);
  if (g.replay) line += "; the pair will be replayed";
  if (game_lines_)
    for (const std::string& r : records) line += "\n  record: " + r;
  display_.print(line);
}

void ConsoleReporter::tick(const standings::Tally& tally) {
  display_.show([&] { return standings::status_line(tally, info_); });
}

void ConsoleReporter::warning(const std::string& text) { display_.warning(text); }
void ConsoleReporter::note(const std::string& text) { display_.note(text); }

void ConsoleReporter::finish(const standings::Tally& tally) { display_.finish(standings::status_line(tally, info_)); }

}  // namespace arena::tournament

#include "tournament/console.h"

#include "output/record_common.h"

namespace arena::tournament {

ConsoleReporter::ConsoleReporter(RunInfo info, Options options)
    : info_(std::move(info)),
      game_lines_(options.game_lines),
      display_({.quiet = options.quiet,
                .terminal = options.terminal,
                .interval_s = options.interval_s,
                .out = options.out}) {}

bool is_fault(Termination t) {
  return t == Termination::Disconnect || t == Termination::Stall || t == Termination::TimeForfeit ||
         t == Termination::IllegalMove || t == Termination::IllegalDeclaration || t == Termination::Interrupted;
}

std::string game_event_text(const journal::JournalGame& g) {
  std::string line = "Game " + std::to_string(g.game + 1) +
                     (g.attempt > 0 ? " (attempt " + std::to_string(g.attempt + 1) + ")" : "") + ": " + g.black +
                     " (black) vs " + g.white +
                     " (white): " + record::result_in_words(GameResult{g.outcome, g.termination, g.detail}) +
                     " after " + std::to_string(g.plies) + " plies";
  if (!g.detail.empty()) line += " (" + g.detail + ")";
  return line;
}

void ConsoleReporter::game_finished(const journal::JournaledGame& journaled, const std::vector<std::string>& records,
                                    const Tally&) {
  display_.changed();
  if (display_.options().quiet) return;
  const journal::JournalGame& g = journaled.summary;
  if (!game_lines_ && !is_fault(g.termination) && !g.replay) return;
  std::string line = game_event_text(g);
  if (g.replay) line += "; the pair will be replayed";
  if (game_lines_)
    for (const std::string& r : records) line += "\n  record: " + r;
  display_.print(line);
}

void ConsoleReporter::tick(const Tally& tally) {
  display_.show([&] { return status_line(tally, info_); });
}

void ConsoleReporter::warning(const std::string& text) { display_.warning(text); }
void ConsoleReporter::note(const std::string& text) { display_.note(text); }

void ConsoleReporter::finish(const Tally& tally) { display_.finish(status_line(tally, info_)); }

}  // namespace arena::tournament

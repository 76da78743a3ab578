#include "tournament/console.h"

#include "output/record_common.h"

namespace arena::tournament {

ConsoleReporter::ConsoleReporter(RunInfo info, Options options) : info_(std::move(info)), options_(options) {}

void ConsoleReporter::print_line(const std::string& text) {
  if (options_.terminal && status_shown_) std::fputs("\r\x1b[K", options_.out);
  std::fputs(text.c_str(), options_.out);
  std::fputc('\n', options_.out);
  std::fflush(options_.out);
  status_shown_ = false;
  changed_ = true;
}

void ConsoleReporter::game_finished(const journal::JournaledGame& journaled, const std::vector<std::string>& records,
                                    const Tally&) {
  changed_ = true;
  if (options_.quiet) return;
  const journal::JournalGame& g = journaled.summary;
  const Termination t = g.termination;
  const bool fault = t == Termination::Disconnect || t == Termination::Stall || t == Termination::TimeForfeit ||
                     t == Termination::IllegalMove || t == Termination::IllegalDeclaration ||
                     t == Termination::Interrupted;
  if (!options_.game_lines && !fault && !g.replay) return;
  std::string line = "Game " + std::to_string(g.game + 1) +
                     (g.attempt > 0 ? " (attempt " + std::to_string(g.attempt + 1) + ")" : "") + ": " + g.black +
                     " (black) vs " + g.white +
                     " (white): " + record::result_in_words(GameResult{g.outcome, g.termination, g.detail}) +
                     " after " + std::to_string(g.plies) + " plies";
  if (!g.detail.empty()) line += " (" + g.detail + ")";
  if (g.replay) line += "; the pair will be replayed";
  if (options_.game_lines)
    for (const std::string& r : records) line += "\n  record: " + r;
  print_line(line);
}

void ConsoleReporter::tick(const Tally& tally) {
  if (options_.quiet) return;
  const auto now = std::chrono::steady_clock::now();
  if (options_.terminal) {
    if (!changed_ && status_shown_) return;
    if (now - last_draw_ < std::chrono::milliseconds(250) && status_shown_) return;
    last_status_ = status_line(tally, info_);
    std::fputs("\r\x1b[K", options_.out);
    std::fputs(last_status_.c_str(), options_.out);
    std::fflush(options_.out);
    status_shown_ = true;
  } else {
    if (last_draw_ != std::chrono::steady_clock::time_point{} &&
        now - last_draw_ < std::chrono::seconds(options_.interval_s))
      return;
    if (!changed_) return;
    last_status_ = status_line(tally, info_);
    std::fputs((last_status_ + "\n").c_str(), options_.out);
    std::fflush(options_.out);
  }
  last_draw_ = now;
  changed_ = false;
}

void ConsoleReporter::warning(const std::string& text) {
  if (options_.quiet) {
    std::fprintf(stderr, "warning: %s\n", text.c_str());
    return;
  }
  print_line("warning: " + text);
}

void ConsoleReporter::finish(const Tally& tally) {
  if (options_.quiet) return;
  if (options_.terminal) {
    if (status_shown_) std::fputs("\r\x1b[K", options_.out);
    std::fputs((status_line(tally, info_) + "\n").c_str(), options_.out);
  } else if (changed_) {
    std::fputs((status_line(tally, info_) + "\n").c_str(), options_.out);
  }
  std::fflush(options_.out);
  status_shown_ = false;
}

}  // namespace arena::tournament

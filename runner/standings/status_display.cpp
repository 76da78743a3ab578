#include "standings/status_display.h"

#include "output/record_common.h"
#include "output/utf8.h"

namespace arena::standings {

void StatusDisplay::print(const std::string& line) {
  if (options_.terminal && status_shown_) std::fputs("\r\x1b[K", options_.out);
  std::fputs(line.c_str(), options_.out);
  std::fputc('\n', options_.out);
  std::fflush(options_.out);
  status_shown_ = false;
  changed_ = true;
}

void StatusDisplay::show(const std::function<std::string()>& status) {
  if (options_.quiet) return;
  const auto now = std::chrono::steady_clock::now();
  if (options_.terminal) {
    if (!changed_ && status_shown_) return;
    if (now - last_draw_ < std::chrono::milliseconds(250) && status_shown_) return;
    std::fputs("\r\x1b[K", options_.out);
    std::fputs(status().c_str(), options_.out);
    std::fflush(options_.out);
    status_shown_ = true;
  } else {
    if (last_draw_ != std::chrono::steady_clock::time_point{} &&
        now - last_draw_ < std::chrono::seconds(options_.interval_s))
      return;
    if (!changed_) return;
    std::fputs((status() + "\n").c_str(), options_.out);
    std::fflush(options_.out);
  }
  last_draw_ = now;
  changed_ = false;
}

// Warnings and notes may quote an engine's output: escaped (utf8::printable), so that it cannot set colours or move
// the cursor of the terminal.
void StatusDisplay::warning(const std::string& text) {
  if (options_.quiet) {
    std::fprintf(stderr, "warning: %s\n", utf8::printable(text).c_str());
    return;
  }
  print("warning: " + utf8::printable(text));
}

void StatusDisplay::note(const std::string& text) {
  if (options_.quiet) {
    std::fprintf(stderr, "%s\n", utf8::printable(text).c_str());
    return;
  }
  print(utf8::printable(text));
}

void StatusDisplay::finish(const std::string& status) {
  if (options_.quiet) return;
  if (options_.terminal) {
    if (status_shown_) std::fputs("\r\x1b[K", options_.out);
    std::fputs((status + "\n").c_str(), options_.out);
  } else if (changed_) {
    std::fputs((status + "\n").c_str(), options_.out);
  }
  std::fflush(options_.out);
  status_shown_ = false;
}

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

}  // namespace arena::standings

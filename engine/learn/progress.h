#pragma once
// The progress lines of the long learning commands (gensfen, rescore): a duration as H:MM:SS, and the speed and
// time left that a line reports.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace shogi::learn {

inline std::string format_duration(double seconds) {
  const long s = long(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

// The speed a progress line reports, and the time left at that speed, measured since the previous line rather than
// since the start: a job stopped for hours (scripts/datagen.sh pause sends SIGSTOP) then reports its own speed again
// from the second line after it resumes, where an average since the start stayed dragged down by the pause for the
// rest of the run (after a three-hour pause, "0 positions/s, ETA 70:35:55" for a part half an hour from its end).
class ProgressRate {
 public:
  // `done` items at `seconds` on a steady clock: where the first line's interval begins.
  ProgressRate(uint64_t done, double seconds) : done_(done), seconds_(seconds) {}

  // "R <unit>/s, ETA H:MM:SS" for `done` of `total` at `seconds`, then the next interval begins there.
  std::string line(uint64_t done, uint64_t total, double seconds, std::string_view unit) {
    const double interval = seconds - seconds_;
    const double rate = interval > 0 && done >= done_ ? double(done - done_) / interval : 0;
    done_ = done;
    seconds_ = seconds;
    std::string text = std::to_string(uint64_t(rate)) + " " + std::string(unit) + "/s, ETA ";
    text += rate > 0 ? format_duration(double(total > done ? total - done : 0) / rate) : std::string("?");
    return text;
  }

 private:
  uint64_t done_;
  double seconds_;
};

}  // namespace shogi::learn

#pragma once
// The progress lines of the long learning commands (gensfen, rescore): a duration as H:MM:SS.

#include <cstdio>
#include <string>

namespace shogi::learn {

inline std::string format_duration(double seconds) {
  const long s = long(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

}  // namespace shogi::learn

#include "output/local_time.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace arena::output {

std::string format_local_time(std::chrono::system_clock::time_point t, const char* format, bool millis) {
  const auto second = std::chrono::floor<std::chrono::seconds>(t);  // not to_time_t's rounding towards zero
  const std::time_t tt = std::chrono::system_clock::to_time_t(second);
  std::tm tm{};
  localtime_r(&tt, &tm);
  char buf[96];
  size_t n = std::strftime(buf, sizeof buf, format, &tm);
  if (millis) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - second).count();
    n += size_t(std::snprintf(buf + n, sizeof buf - n, ".%03d", int(ms)));
  }
  return std::string(buf, std::min(n, sizeof buf - 1));
}

std::string record_time_text(std::chrono::system_clock::time_point t) {
  if (t == std::chrono::system_clock::time_point{}) return {};
  return format_local_time(t, "%Y/%m/%d %H:%M:%S");
}

}  // namespace arena::output

// The one local-time formatter (the test runs with TZ=UTC, see CMakeLists.txt).
#include "output/local_time.h"

#include <doctest/doctest.h>

#include <chrono>
#include <ctime>

using arena::output::format_local_time;
using namespace std::chrono;

TEST_CASE("local_time: strftime's format in the local zone, with milliseconds when asked") {
  const system_clock::time_point t = system_clock::from_time_t(std::time_t(1764326096)) + milliseconds(7);
  CHECK(format_local_time(t, "%Y-%m-%d %H:%M:%S") == "2025-11-28 10:34:56");
  CHECK(format_local_time(t, "%Y-%m-%d %H:%M:%S", true) == "2025-11-28 10:34:56.007");
  CHECK(format_local_time(t, "%Y%m%d%H%M%S") == "20251128103456");
  CHECK(format_local_time(t, "%Y/%m/%d/") == "2025/11/28/");
  CHECK(format_local_time(system_clock::from_time_t(0) - milliseconds(250), "%H:%M:%S", true) == "23:59:59.750");
}

// The verdicts and the report of `shogi-arena check`; the probes are the battery's (battery.h).

#include "check/checks.h"

#include <algorithm>

#include "check/battery.h"

namespace arena::check {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Warn:
      return "warn";
    case Verdict::Fail:
      return "FAIL";
    case Verdict::Skip:
      return "skip";
  }
  return "?";
}

int CheckReport::failures() const {
  return int(std::count_if(items.begin(), items.end(), [](const CheckItem& i) { return i.verdict == Verdict::Fail; }));
}

int CheckReport::warnings() const {
  return int(std::count_if(items.begin(), items.end(), [](const CheckItem& i) { return i.verdict == Verdict::Warn; }));
}

CheckReport run_checks(const CheckOptions& options, const std::atomic<bool>* interrupt) {
  Battery battery(options, interrupt);
  return battery.run();
}

}  // namespace arena::check

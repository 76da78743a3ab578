// The stop and ponder probes: the latency from stop to bestmove, and ponderhit.

#include "check/battery.h"

#include <algorithm>
#include <chrono>

namespace arena::check {

// go infinite, `after` of thinking, stop: the latency from stop to bestmove, or nullopt (with `why`).
std::optional<std::int64_t> Battery::stop_after(Millis after, bool* answered_early, std::string* why) {
  auto& client = engine_.client();
  GoParams infinite;
  infinite.infinite = true;
  if (!engine_.go(timing_position(), infinite)) {
    *why = "died on go infinite (" + engine_.exit_text() + ")";
    return std::nullopt;
  }
  auto early = client.wait_bestmove(SteadyClock::now() + after);
  if (early.status == usi::Status::Ok) {
    *answered_early = true;
    collect_strays();
    return std::nullopt;
  }
  if (early.status == usi::Status::Disconnected) {
    *why = "died during go infinite (" + engine_.exit_text() + ")";
    return std::nullopt;
  }
  if (early.status != usi::Status::Timeout) {
    *why = "a malformed bestmove '" + early.text + "' during go infinite";
    return std::nullopt;
  }
  const auto stop_sent = SteadyClock::now();
  client.stop();
  auto r = client.wait_bestmove(stop_sent + Millis(2000));
  if (r.status == usi::Status::Timeout) {
    *why = "no bestmove within 2000 ms of stop";
    engine_.abandon();  // wedged: its late bestmove must not answer a later go
    return std::nullopt;
  }
  if (r.status != usi::Status::Ok) {
    *why = r.status == usi::Status::Disconnected ? "died after stop (" + engine_.exit_text() + ")"
                                                 : "a malformed bestmove '" + r.text + "' after stop";
    return std::nullopt;
  }
  ++searches_;
  collect_strays();
  return std::chrono::duration_cast<Millis>(r.bestmove_time - stop_sent).count();
}

void Battery::infinite_and_stop() {
  bool early = false;
  std::string why;
  auto first = stop_after(Millis(o_.quick ? 300 : 500), &early, &why);
  if (early) {
    add("stop.infinite", "go infinite, then stop", Verdict::Warn, "answered before stop",
        "`go infinite` must search until stop");
  } else if (!first) {
    add("stop.infinite", "go infinite, then stop", Verdict::Warn, why,
        "a tournament stops engines with `stop` (a lost ponder, a flag)");
    ensure_running();
    return;
  } else {
    add("stop.infinite", "go infinite, then stop", Verdict::Pass, "bestmove " + ms(*first) + " after stop");
  }
  const int samples = o_.quick ? 5 : 20;
  std::vector<std::int64_t> latency;
  for (int i = 0; i < samples && !interrupted(); ++i) {
    bool e = false;
    std::string w;
    auto l = stop_after(Millis(30 + 10 * (i % 6)), &e, &w);
    if (l) latency.push_back(*l);
    if (!engine_.running() && !ensure_running()) return;
  }
  if (latency.empty()) {
    add("stop.latency", "stop latency", Verdict::Skip, "", "no search was stopped");
    return;
  }
  const std::int64_t p99 = quantile(latency, 0.99), worst = *std::max_element(latency.begin(), latency.end());
  const std::string figure = "median " + ms(median(latency)) + ", p99 " + ms(p99) + ", max " + ms(worst) + " (" +
                             std::to_string(latency.size()) + " stops)";
  add("stop.latency", "stop latency", worst > 500 ? Verdict::Warn : Verdict::Pass, figure,
      worst > 500 ? "slow to stop: a ponder miss costs it this much of its own time" : "");
}

// go ponder, then ponderhit (the time used counts from the ponderhit); go ponder again, then stop.
void Battery::ponder() {
  const std::int64_t b = 1000;
  GoParams go = byoyomi_go(b);
  go.ponder = true;
  auto died = [&](const std::string& when) {
    report_.keys.avoid.push_back("ponder");
    add("ponder.ponderhit", "go ponder, ponderhit, stop", Verdict::Warn,
        "died " + when + " (" + engine_.exit_text() + ")", "do not enable ponder for it");
    ensure_running();
  };
  auto malformed = [](const usi::SearchResult& r, const char* when) {
    return r.status == usi::Status::Timeout ? std::string("no bestmove ") + when
                                            : "a malformed bestmove '" + r.text + "' " + when;
  };
  std::vector<std::string> problems;
  std::string figure;
  {
    auto& client = engine_.client();
    if (!engine_.go(timing_position(), go)) return died("on go ponder");
    auto early = client.wait_bestmove(SteadyClock::now() + Millis(300));
    if (early.status == usi::Status::Disconnected) return died("on go ponder");
    if (early.status == usi::Status::Ok) {
      problems.push_back("answered go ponder before ponderhit");
      collect_strays();
    } else if (early.status != usi::Status::Timeout) {
      problems.push_back(malformed(early, "while pondering"));
    } else {
      const auto hit = SteadyClock::now();
      client.ponder_hit();
      auto r = client.wait_bestmove(hit + Millis(b + 1500));
      if (r.status == usi::Status::Disconnected) return died("after ponderhit");
      if (r.status != usi::Status::Ok) {
        problems.push_back(malformed(r, ("within " + ms(b + 1500) + " of ponderhit").c_str()));
        engine_.settle(Millis(2000));  // a search still pending: stopped, or the engine killed
      } else {
        ++searches_;
        const auto used = std::chrono::duration_cast<Millis>(r.bestmove_time - hit).count();
        note_overrun(used - b, "ponderhit");
        figure = "after ponderhit: used " + ms(used) + " of " + ms(b);
        collect_strays();
      }
    }
  }
  if (!ensure_running()) return;
  auto& client = engine_.client();  // the process may be a new one
  if (!engine_.go(timing_position(), go)) return died("on go ponder");
  auto r = client.wait_bestmove(SteadyClock::now() + Millis(100));
  if (r.status == usi::Status::Ok) {
    problems.push_back("answered go ponder before stop");
    collect_strays();
  } else if (r.status == usi::Status::Timeout) {
    const auto stop_sent = SteadyClock::now();
    client.stop();
    r = client.wait_bestmove(stop_sent + Millis(2000));
    if (r.status == usi::Status::Disconnected) return died("on stop while pondering");
    if (r.status == usi::Status::Ok) {
      ++searches_;
      figure += std::string(figure.empty() ? "" : "; ") + "stop while pondering: bestmove in " +
                ms(std::chrono::duration_cast<Millis>(r.bestmove_time - stop_sent).count());
      collect_strays();
    } else {
      problems.push_back(malformed(r, "within 2000 ms of stop while pondering"));
      if (r.status == usi::Status::Timeout) engine_.abandon();  // wedged: restarted by the next check
    }
  } else if (r.status == usi::Status::Disconnected) {
    return died("on go ponder");
  } else {
    problems.push_back(malformed(r, "while pondering"));
  }
  if (!problems.empty()) report_.keys.avoid.push_back("ponder");
  add("ponder.ponderhit", "go ponder, ponderhit, stop", problems.empty() ? Verdict::Pass : Verdict::Warn, figure,
      problems.empty() ? "" : join(problems, "; ") + ": do not enable ponder for it");
}

}  // namespace arena::check

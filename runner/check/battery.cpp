// The battery's order and bookkeeping: the probes in the order that lets later ones use what earlier ones found
// (the handshake, then the clock quirks, whose fixes every later go applies, so that the overruns measured
// afterwards are the ones a tournament with the recommended keys would see; then stop and ponder, legality,
// robustness), the engine restarted after a probe that killed it, and the summaries of what all probes measured.

#include "check/battery.h"

#include <chrono>
#include "check/check_positions.h"

namespace arena::check {

Battery::Battery(const CheckOptions& options, const std::atomic<bool>* interrupt)
    : o_(options), engine_(options.engine), interrupt_(interrupt) {
  drain_ = Millis(o_.quick ? 60 : 150);
  report_.engine_name = o_.engine.name;
}

CheckReport Battery::run() {
  const auto started = SteadyClock::now();
  const std::set<std::string> files_before = working_dir_files();
  if (handshake()) {
    using Step = void (Battery::*)();
    for (Step step : {&Battery::options, &Battery::setoption_each, &Battery::isready_busy, &Battery::sudden_death,
                      &Battery::swapped_clocks, &Battery::fischer, &Battery::double_increment,
                      &Battery::byoyomi_overrun, &Battery::movetime, &Battery::nodes_and_depth,
                      &Battery::infinite_and_stop, &Battery::ponder, &Battery::legality, &Battery::robustness}) {
      if (interrupted()) break;
      if (!ensure_running()) break;
      (this->*step)();
    }
    // Over a game per kind of clock: measured, then the margin decided with their byoyomi moves, then judged with
    // it, as a tournament with the recommended keys would judge them.
    if (!fatal_ && !interrupted() && ensure_running()) measure_time_profiles();
    if (!fatal_ && !interrupted()) {
      margin();
      judge_time_profiles();
    }
    if (!fatal_ && !interrupted()) {
      bestmove_once();
      memory_and_quit();
      files_left(files_before);
    }
  }
  if (interrupted()) {
    add("interrupted", "interrupted", Verdict::Skip, "", "the remaining checks were not run");
    report_.interrupted = true;
  }
  report_.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  return std::move(report_);
}

void Battery::add(std::string id, std::string title, Verdict verdict, std::string figure, std::string detail) {
  report_.items.push_back({std::move(id), std::move(title), verdict, std::move(figure), std::move(detail)});
  if (o_.on_item) o_.on_item(report_.items.back());
}

// After a probe that killed the engine: a new process with the same settings. A restart that fails ends the
// battery (the failure is the finding).
bool Battery::ensure_running() {
  if (fatal_) return false;
  if (engine_.running()) return true;
  return bool(start_engine("engine.restart", "restart after a death", "cannot restart the engine: "));
}

// Starts the engine. A failed start ends the battery, recorded as item `id`, unless Ctrl-C cut it short: then
// nothing was learnt of the engine and there is no finding.
std::expected<ProbeEngine::Startup, std::string> Battery::start_engine(std::string id, std::string title,
                                                                       const std::string& failure_prefix) {
  auto started = engine_.start(startup_wait());
  if (!started) {
    if (!interrupted()) add(std::move(id), std::move(title), Verdict::Fail, "", failure_prefix + started.error());
    fatal_ = true;
  }
  return started;
}

std::string_view Battery::timing_position() {
  auto list = timing_positions();
  return list[size_t(next_position_++) % list.size()].position;
}

// A search whose time used is measured against `allowed`; counted in the overrun summary as `probe` (nullptr:
// not counted).
ProbeEngine::Search Battery::timed(std::string_view position, const GoParams& go, std::int64_t allowed,
                                   const char* probe) {
  auto s = engine_.search(position, go, Millis(allowed + 1500));
  searched(s);
  if (s.answered() && probe) note_overrun(s.used_ms() - allowed, probe);
  return s;
}

// Every answered search is counted, and followed by a read for a second bestmove.
void Battery::searched(const ProbeEngine::Search& s) {
  if (!s.answered()) return;
  ++searches_;
  collect_strays();
}

void Battery::note_overrun(std::int64_t overrun, const char* probe) {
  if (!max_overrun_ || overrun > *max_overrun_) {
    max_overrun_ = overrun;
    max_overrun_probe_ = probe;
  }
}

void Battery::collect_strays() {
  int n = engine_.drain(drain_);
  if (n > 0) stray_bestmoves_ += n;
}

void Battery::bestmove_once() {
  const std::string figure =
      std::to_string(searches_) + " searches, " + std::to_string(stray_bestmoves_) + " extra bestmove lines";
  if (stray_bestmoves_ > 0)
    add("protocol.bestmove_once", "one bestmove per go", Verdict::Fail, figure,
        "a second bestmove would be read as the answer to the next go");
  else
    add("protocol.bestmove_once", "one bestmove per go", Verdict::Pass, figure);
}

// The worst overrun of the timed probes with a fixed budget (the fixes found applied; short clocks are
// short_clock's), or the byoyomi projection if larger: within half the margin nothing is needed; beyond, the
// engine gets a margin_ms of its own (50 ms above it); an overrun beyond a second no margin makes fair.
// The tolerance a tournament with the recommended keys grants the engine: the engine's own or the game's, or the
// margin_ms margin() recommends from the overruns seen so far.
std::int64_t Battery::granted_margin() const {
  const std::int64_t allowed = o_.engine.margin_ms.value_or(o_.game_margin_ms);
  if (!max_overrun_ || *max_overrun_ > 1000) return allowed;
  const std::int64_t needed = std::max(*max_overrun_, projected_overrun_.value_or(INT64_MIN));
  return needed > allowed / 2 && round_up(needed + 50, 50) > allowed ? round_up(needed + 50, 50) : allowed;
}

void Battery::margin() {
  if (!max_overrun_) {
    add("time.margin", "time tolerance needed", Verdict::Skip, "", "no timed search answered");
    return;
  }
  const std::int64_t worst = *max_overrun_;
  const std::int64_t allowed = o_.engine.margin_ms.value_or(o_.game_margin_ms);
  std::string figure = "worst " + signed_ms(worst) + " (" + max_overrun_probe_ + ")";
  std::int64_t needed = worst;
  if (projected_overrun_ && *projected_overrun_ > worst) {
    needed = *projected_overrun_;
    figure += ", projected from the byoyomi moves " + signed_ms(needed);
  }
  if (worst > 1000) {
    add("time.margin", "time tolerance needed", Verdict::Fail, figure,
        "it thinks more than a second past its time: it cannot play a timed game fairly");
  } else if (const std::int64_t granted = granted_margin(); granted != allowed) {
    report_.keys.margin_ms = granted;
    add("time.margin", "time tolerance needed", Verdict::Warn, figure,
        "use margin_ms=" + std::to_string(*report_.keys.margin_ms) + " for it (the margin now is " + ms(allowed) + ")");
  } else {
    add("time.margin", "time tolerance needed", Verdict::Pass, figure + ", within the margin of " + ms(allowed));
  }
}

}  // namespace arena::check

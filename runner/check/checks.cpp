// The battery of `shogi-arena check`, in the order that lets later probes use what earlier ones found: the
// handshake, then the clock quirks (a fix found for increments or swapped clocks is applied to every later go, so
// that the overruns measured afterwards are the ones a tournament with the recommended keys would see), then stop
// and ponder, legality, robustness, and the summary of the overruns.

#include "check/checks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <thread>

#include "check/check_positions.h"
#include "check/probe_engine.h"
#include "rules/game_end.h"
#include "rules/notation.h"

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

namespace {

using process::SteadyClock;
using usi::GoParams;

std::string ms(std::int64_t v) { return std::to_string(v) + " ms"; }

std::string signed_ms(std::int64_t v) {
  std::string text = v >= 0 ? "+" : "";
  text += std::to_string(v);
  return text + " ms";
}

std::int64_t median(std::vector<std::int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The value at fraction q (0..1) of the sorted samples, nearest rank.
std::int64_t quantile(std::vector<std::int64_t> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = size_t(std::ceil(q * double(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

std::int64_t round_up(std::int64_t v, std::int64_t step) { return (v + step - 1) / step * step; }

GoParams clock(std::int64_t own, std::int64_t opponent, std::int64_t inc = 0) {
  // The timing positions have sente (black) to move: btime is the mover's.
  GoParams g;
  g.btime = own;
  g.wtime = opponent;
  if (inc > 0) g.binc = g.winc = inc;
  return g;
}

GoParams byoyomi(std::int64_t ms) {
  GoParams g;
  g.btime = 0;
  g.wtime = 0;
  g.byoyomi = ms;
  return g;
}

class Battery {
 public:
  Battery(const CheckOptions& options, const std::atomic<bool>* interrupt)
      : o_(options), engine_(options.engine), interrupt_(interrupt) {
    drain_ = Millis(o_.quick ? 60 : 150);
    report_.engine_name = o_.engine.name;
  }

  CheckReport run() {
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
      if (!fatal_ && !interrupted()) {
        bestmove_once();
        margin();
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

 private:
  // ---- bookkeeping ----------------------------------------------------------------------------------------------

  void add(std::string id, std::string title, Verdict verdict, std::string figure, std::string detail = "") {
    report_.items.push_back({std::move(id), std::move(title), verdict, std::move(figure), std::move(detail)});
    if (o_.on_item) o_.on_item(report_.items.back());
  }

  bool interrupted() const { return interrupt_ && interrupt_->load(); }

  Millis startup_wait() const { return Millis(o_.startup_wait_ms); }

  // After a probe that killed the engine: a new process with the same settings. A restart that fails ends the
  // battery (the failure is the finding).
  bool ensure_running() {
    if (fatal_) return false;
    if (engine_.running()) return true;
    return bool(start_engine("engine.restart", "restart after a death", "cannot restart the engine: "));
  }

  // Starts the engine. A failed start ends the battery, recorded as item `id`, unless Ctrl-C cut it short: then
  // nothing was learnt of the engine and there is no finding.
  std::expected<ProbeEngine::Startup, std::string> start_engine(std::string id, std::string title,
                                                                const std::string& failure_prefix) {
    auto started = engine_.start(startup_wait());
    if (!started) {
      if (!interrupted()) add(std::move(id), std::move(title), Verdict::Fail, "", failure_prefix + started.error());
      fatal_ = true;
    }
    return started;
  }

  std::string_view timing_position() {
    auto list = timing_positions();
    return list[size_t(next_position_++) % list.size()].position;
  }

  // A search whose time used is measured against `allowed`; counted in the overrun summary as `probe` (nullptr:
  // not counted).
  ProbeEngine::Search timed(std::string_view position, const GoParams& go, std::int64_t allowed,
                            const char* probe = nullptr) {
    auto s = engine_.search(position, go, Millis(allowed + 1500));
    searched(s);
    if (s.answered() && probe) note_overrun(s.used_ms() - allowed, probe);
    return s;
  }

  // Every answered search is counted, and followed by a read for a second bestmove.
  void searched(const ProbeEngine::Search& s) {
    if (!s.answered()) return;
    ++searches_;
    collect_strays();
  }

  void note_overrun(std::int64_t overrun, const char* probe) {
    if (!max_overrun_ || overrun > *max_overrun_) {
      max_overrun_ = overrun;
      max_overrun_probe_ = probe;
    }
  }

  void collect_strays() {
    int n = engine_.drain(drain_);
    if (n > 0) stray_bestmoves_ += n;
  }

  bool dies_on_go_ = false;  // a plain go (no increment, nothing exotic) killed it

  // ---- handshake ------------------------------------------------------------------------------------------------

  bool handshake() {
    auto started = start_engine("handshake.start", "start, usiok, readyok", "");
    if (!started) return false;
    auto& client = engine_.client();
    report_.identity = client.identity();
    if (report_.engine_name.empty()) report_.engine_name = client.identity().name;
    const std::int64_t usiok = started->usiok.count(), readyok = started->readyok.count();
    const std::int64_t timeout = std::chrono::duration_cast<Millis>(o_.engine.startup_timeout).count();
    const std::int64_t slowest = std::max(usiok, readyok);
    if (slowest * 2 > timeout) {
      report_.keys.startup_timeout_ms = round_up(std::max<std::int64_t>(slowest * 3, 10000), 1000);
      add("handshake.start", "start, usiok, readyok", Verdict::Warn, "usiok " + ms(usiok) + ", readyok " + ms(readyok),
          "close to the startup timeout of " + ms(timeout) +
              ": use startup_timeout_ms=" + std::to_string(*report_.keys.startup_timeout_ms));
    } else {
      add("handshake.start", "start, usiok, readyok", Verdict::Pass, "usiok " + ms(usiok) + ", readyok " + ms(readyok));
    }
    const auto& id = client.identity();
    if (id.name.empty() || id.author.empty())
      add("handshake.id", "id name and author", Verdict::Warn, id.name.empty() ? "no name" : "'" + id.name + "'",
          std::string("no `id ") + (id.name.empty() ? "name" : "author") + "` line before usiok");
    else
      add("handshake.id", "id name and author", Verdict::Pass, "'" + id.name + "' by '" + id.author + "'");
    return true;
  }

  void options() {
    auto& client = engine_.client();
    std::vector<std::string> problems;
    for (const std::string& w : client.warnings()) problems.push_back(w);
    for (const usi::OptionSpec& option : client.options()) {
      if (option.type == usi::OptionType::Button) continue;
      if (auto ok = usi::check_option_value(option, option.default_value); !ok)
        problems.push_back("default of '" + option.name + "': " + ok.error());
    }
    const std::string figure = std::to_string(client.options().size()) + " options";
    if (problems.empty())
      add("handshake.options", "option lines", Verdict::Pass, figure);
    else
      add("handshake.options", "option lines", Verdict::Warn, figure + ", " + std::to_string(problems.size()) + " bad",
          join(problems, "; "));
    rule_options();
    threads_and_hash();
  }

  // The options through which a tournament tells the engine its rules (game/rule_options.h).
  void rule_options() {
    std::vector<std::string> found;
    for (const usi::OptionSpec& option : engine_.client().options())
      if (usi::iequals(option.name, "EnteringKingRule") || usi::iequals(option.name, "MaxMovesToDraw"))
        found.push_back(option.name + " (default " + option.default_value + ")");
    add("rules.options", "rule options", Verdict::Pass,
        found.empty() ? "none: the engine is not told the declaration rule or the move limit"
                      : join(found, ", ") + ": a tournament sets them from its rules");
  }

  static std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
    return out;
  }

  bool configured(std::string_view option) const {
    for (const auto& o : o_.engine.options)
      if (usi::iequals(o.first, option)) return true;
    return false;
  }

  static bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
      if (usi::iequals(name, n)) return true;
    return false;
  }

  // Whole names: YaneuraOu also has a ThreadIdOffset, which is no thread count.
  static bool thread_option(std::string_view name) {
    return one_of(name, {"Threads", "Thread", "USI_Threads", "NumberOfThreads"});
  }
  static bool hash_option(std::string_view name) {
    return one_of(name, {"USI_Hash", "Hash", "HashSize", "Hash Size", "USI_HashSize"});
  }

  // Engines default to more than one thread (YaneuraOu: 4) or a large hash: a gauntlet at concurrency N then
  // oversubscribes the machine or its memory. The recommendation pins threads to 1 and caps a hash above 256 MB,
  // in the engine's own option names.
  void threads_and_hash() {
    std::vector<std::string> found, advice;
    bool warn = false;
    for (const usi::OptionSpec& option : engine_.client().options()) {
      if (option.type != usi::OptionType::Spin) continue;
      const bool threads = thread_option(option.name);
      const bool hash = hash_option(option.name);
      if (!threads && !hash) continue;
      found.push_back(option.name + " default " + option.default_value);
      if (configured(option.name)) continue;
      std::int64_t def = 0;
      try {
        def = std::stoll(option.default_value);
      } catch (...) {
        continue;
      }
      if (threads && (!option.min || *option.min <= 1)) {
        // Pinned even where 1 is the default: a default can change with the engine's next version.
        report_.keys.options.push_back({option.name, "1"});
        if (def != 1) {
          advice.push_back(option.name + "=1");
          warn = true;
        }
      } else if (hash && def > 256 && (!option.min || *option.min <= 256)) {
        report_.keys.options.push_back({option.name, "256"});
        advice.push_back(option.name + "=256");
        warn = true;
      }
    }
    std::string figure = found.empty() ? "none advertised (USI_Hash is implicit)" : join(found, ", ");
    add("engine.threads_hash", "thread and hash options", warn ? Verdict::Warn : Verdict::Pass, figure,
        warn ? "a tournament runs games side by side: set " + join(advice, ", ") : "");
  }

  // Every advertised option set to its default (buttons left alone: pressing one may do anything; empty texts too),
  // each followed by isready. The configured options are sent again afterwards.
  void setoption_each() {
    int sent = 0;
    std::vector<std::string> problems;
    const std::vector<usi::OptionSpec> options = engine_.client().options();
    for (const usi::OptionSpec& option : options) {
      if (option.type == usi::OptionType::Button) continue;
      if (!usi::check_option_value(option, option.default_value)) continue;  // reported by the options check
      // An empty text goes out as "<empty>", which some engines take literally: Fairy-Stockfish's "Debug Log
      // File" then creates a file of that name in the working directory.
      const bool text = option.type == usi::OptionType::String || option.type == usi::OptionType::Filename;
      if (text && (option.default_value.empty() || option.default_value == "<empty>")) continue;
      engine_.client().set_option(option.name, option.default_value);
      ++sent;
      if (!engine_.sync(startup_wait())) {
        const bool alive = engine_.running();
        problems.push_back((alive ? "no readyok after setoption " : "died on setoption ") + option.name +
                           (alive ? "" : " (" + engine_.exit_text() + ")"));
        engine_.abandon();  // a late readyok must not answer the next isready: a fresh process
        if (!ensure_running()) return;
        if (problems.size() >= 3) {
          problems.push_back("the other options not tried");
          break;
        }
      }
    }
    for (const auto& [name, value] : o_.engine.options) engine_.client().set_option(name, value);
    engine_.sync(startup_wait());
    add("handshake.setoption", "setoption of every option", problems.empty() ? Verdict::Pass : Verdict::Warn,
        std::to_string(sent) + " accepted", join(problems, "; "));
  }

  void isready_busy() {
    auto& client = engine_.client();
    GoParams infinite;
    infinite.infinite = true;
    client.new_game();
    if (!engine_.go(timing_position(), infinite)) {
      add("usi.isready_busy", "isready during a search", Verdict::Warn, "",
          "died on go infinite (" + engine_.exit_text() + ")");
      return;
    }
    std::this_thread::sleep_for(Millis(50));
    const auto sent = SteadyClock::now();
    engine_.send_raw("isready");
    std::optional<std::int64_t> answered;
    bool early_bestmove = false;
    const auto deadline = sent + Millis(1000);
    while (true) {
      auto r = client.process().read_line(deadline);
      if (r.status != process::IoStatus::Ok) break;
      if (r.line == "readyok") {
        answered = std::chrono::duration_cast<Millis>(r.time - sent).count();
        break;
      }
      if (r.line.starts_with("bestmove")) early_bestmove = true;
    }
    if (early_bestmove) {
      // Read past the client, which still waits for it: a fresh process for the next checks (the early answer
      // itself is stop.infinite's finding).
      engine_.abandon();
    } else if (engine_.settle(Millis(2000))) {
      engine_.drain(Millis(200));  // a late readyok, which must not answer a later isready
    }
    if (!engine_.running() && !early_bestmove) {
      add("usi.isready_busy", "isready during a search", Verdict::Warn, "",
          "died or hung during go infinite and isready (" + engine_.exit_text() + ")");
      return;
    }
    if (answered)
      add("usi.isready_busy", "isready during a search", Verdict::Pass, "readyok in " + ms(*answered));
    else
      add("usi.isready_busy", "isready during a search", Verdict::Warn, "no readyok within 1000 ms",
          "it does not read its input while it searches: a GUI's keep-alive isready would wait for the bestmove");
  }

  // ---- time semantics -------------------------------------------------------------------------------------------

  std::int64_t sudden_ms() const { return o_.quick ? 3000 : 10000; }

  std::string died_text(const ProbeEngine::Search& s) { return "died (" + s.exit + ")"; }

  void sudden_death() {
    const std::int64_t t = sudden_ms();
    engine_.client().new_game();
    auto s = timed(timing_position(), clock(t, t), t, "sudden death");
    if (s.died) {
      dies_on_go_ = true;
      add("time.sudden_death", "sudden death " + ms(t) + " each", Verdict::Fail, died_text(s),
          "it dies on a plain `go btime wtime`: it cannot play a timed game");
      return;
    }
    if (!s.answered()) {
      add("time.sudden_death", "sudden death " + ms(t) + " each", Verdict::Fail, "no bestmove, even after stop",
          "it never answers `go btime wtime`");
      return;
    }
    const Verdict v = s.used_ms() > t ? Verdict::Fail : Verdict::Pass;
    add("time.sudden_death", "sudden death " + ms(t) + " each", v, "used " + ms(s.used_ms()) + " of " + ms(t),
        v == Verdict::Fail ? "it lost on time with all its main time left" : "");
  }

  // With the mover's clock long and the opponent's short, and the other way round: an engine that budgets from
  // its own clock thinks longer in the first case. One that reads btime as gote's does the opposite.
  void swapped_clocks() {
    const std::int64_t big = o_.quick ? 6000 : 20000, small = o_.quick ? 600 : 1000;
    const int rounds = o_.quick ? 1 : 2;
    std::int64_t with_big = 0, with_small = 0, worst_big = INT64_MIN, worst_small = INT64_MIN;
    for (int i = 0; i < rounds; ++i) {
      auto pos = timing_position();
      auto a = timed(pos, clock(big, small), big);
      auto b = timed(pos, clock(small, big), small);
      if (!a.answered() || !b.answered()) {
        add("time.swapped_clocks", "which clock it budgets from", Verdict::Skip, "",
            a.died || b.died ? "died during the probe" : "no bestmove");
        return;
      }
      with_big += a.used_ms();
      with_small += b.used_ms();
      worst_big = std::max(worst_big, a.used_ms() - big);
      worst_small = std::max(worst_small, b.used_ms() - small);
    }
    with_big /= rounds;
    with_small /= rounds;
    const std::string figure =
        "own " + ms(big) + ": used " + ms(with_big) + "; own " + ms(small) + ": used " + ms(with_small);
    if (with_small >= 2 * with_big && with_small >= 30) {
      // It reads the opponent's clock as its own: exchange them (or stop exchanging, if the user's key did).
      usi::GoQuirks q = engine_.go_quirks();
      q.swap_sides = !q.swap_sides;
      engine_.set_go_quirks(q);
      report_.keys.swap_btime_wtime = q.swap_sides;
      auto pos = timing_position();
      auto a = timed(pos, clock(big, small), big);
      auto b = timed(pos, clock(small, big), small);
      if (b.answered()) short_clock(b.used_ms(), small);
      std::string verified = a.answered() && b.answered()
                                 ? "; with swap_btime_wtime=" + std::string(q.swap_sides ? "true" : "false") +
                                       ": used " + ms(a.used_ms()) + " and " + ms(b.used_ms())
                                 : "";
      add("time.swapped_clocks", "which clock it budgets from", Verdict::Warn, figure + verified,
          "it budgets from its opponent's clock (reads btime as gote's time) and loses on time whenever it is behind: "
          "use swap_btime_wtime=" +
              std::string(q.swap_sides ? "true" : "false"));
    } else if (with_big >= 2 * with_small) {
      // Not swapped: these were ordinary moves.
      note_overrun(worst_big, "sudden death");
      add("time.swapped_clocks", "which clock it budgets from", Verdict::Pass, figure + ": its own");
      short_clock(worst_small + small, small);
    } else {
      note_overrun(worst_big, "sudden death");
      add("time.swapped_clocks", "which clock it budgets from", Verdict::Pass,
          figure + ": inconclusive, about as long either way");
      short_clock(worst_small + small, small);
    }
  }

  // A move with little time left and nothing to come: an engine with a minimum think time flags here. No margin
  // fixes that (it would overrun every move); sudden death without increment is the time control to avoid.
  void short_clock(std::int64_t used, std::int64_t left) {
    const std::string title = "sudden death, " + ms(left) + " left";
    const std::string figure = "used " + ms(used) + " of " + ms(left);
    if (used > left + o_.game_margin_ms / 2) {
      report_.keys.avoid.push_back("sudden death without increment or byoyomi (tc=N+0)");
      add("time.short_clock", title, Verdict::Warn, figure,
          "it loses on time when its clock runs short: give it an increment or byoyomi");
    } else {
      add("time.short_clock", title, Verdict::Pass, figure);
    }
  }

  void fischer() {
    const std::int64_t t = o_.quick ? 3000 : 5000, inc = 1000;
    const std::string title = "Fischer " + ms(t) + " + " + ms(inc);
    auto s = engine_.search(timing_position(), clock(t, t, inc), Millis(t + inc + 1500));
    searched(s);
    if (s.answered() && !s.stopped) {
      note_overrun(s.used_ms() - (t + inc), "Fischer");
      add("time.fischer", title, Verdict::Pass,
          "used " + ms(s.used_ms()) + " of " + ms(t + inc) +
              (engine_.go_quirks().fold_increments ? " (increments folded: send_inc=false)" : ""));
      return;
    }
    if (engine_.go_quirks().fold_increments || dies_on_go_) {
      add("time.fischer", title, Verdict::Fail, s.died ? died_text(s) : "no bestmove",
          "it cannot play with increments");
      return;
    }
    // An engine that aborts or hangs on binc/winc (gpsusi): fold the increments into the times instead.
    const std::string what = s.died         ? died_text(s)
                             : s.answered() ? "answered only after stop, " + ms(s.used_ms()) + " after go"
                                            : "no bestmove, even after stop";
    usi::GoQuirks q = engine_.go_quirks();
    q.fold_increments = true;
    engine_.set_go_quirks(q);
    report_.keys.send_inc = false;
    if (!ensure_running()) return;
    auto again = timed(timing_position(), clock(t, t, inc), t + inc, "Fischer, increments folded");
    const std::string verified =
        again.answered() ? "; with send_inc=false: used " + ms(again.used_ms()) + " of " + ms(t + inc) : "";
    add("time.fischer", title, again.answered() ? Verdict::Warn : Verdict::Fail, "with binc/winc: " + what + verified,
        again.answered() ? "it cannot take binc/winc in go: use send_inc=false (the increment is added to btime/wtime)"
                         : "it fails on increments even when they are folded into the times");
  }

  // A move that uses more than the time left plus one increment, while the same total without an increment is
  // kept: the increment is counted twice (or the engine adds it to btime itself).
  void double_increment() {
    const std::string title = "increment counted once";
    if (engine_.go_quirks().fold_increments) {
      add("time.double_increment", title, Verdict::Skip, "", "increments are folded into the times (send_inc=false)");
      return;
    }
    const std::int64_t left = 300, inc = 1500, total = left + inc;
    auto pos = timing_position();
    // Both probes are short clocks (see short_clock): their overruns are not a tolerance to grant.
    auto plain = timed(pos, clock(total, total), total);
    auto with_inc = timed(pos, clock(left, left, inc), total);
    if (!plain.answered() || !with_inc.answered()) {
      add("time.double_increment", title, Verdict::Skip, "", "no bestmove in one of the probes");
      return;
    }
    const std::string figure = ms(left) + " + " + ms(inc) + ": used " + ms(with_inc.used_ms()) + "; " + ms(total) +
                               " without increment: used " + ms(plain.used_ms());
    const std::int64_t slack = o_.game_margin_ms / 2;
    if (with_inc.used_ms() > total + slack && plain.used_ms() <= total) {
      usi::GoQuirks q = engine_.go_quirks();
      q.fold_increments = true;
      engine_.set_go_quirks(q);
      report_.keys.send_inc = false;
      auto again = timed(pos, clock(left, left, inc), total, "increment, folded");
      add("time.double_increment", title, Verdict::Warn,
          figure + (again.answered() ? "; with send_inc=false: used " + ms(again.used_ms()) : ""),
          "it spends more than the time left plus one increment: it counts the increment twice. Use send_inc=false");
      return;
    }
    add("time.double_increment", title, Verdict::Pass, figure);
  }

  void byoyomi_overrun() {
    const std::int64_t b = 1000;
    const int samples = o_.quick ? 3 : 8;
    std::vector<std::int64_t> used;
    for (int i = 0; i < samples && !interrupted(); ++i) {
      auto s = timed(timing_position(), byoyomi(b), b, "byoyomi");
      if (!s.answered()) {
        add("time.byoyomi", "byoyomi 1 s", dies_on_go_ ? Verdict::Skip : Verdict::Fail,
            s.died ? died_text(s) : "no bestmove", "it cannot play byoyomi");
        if (!ensure_running()) return;
        return;
      }
      used.push_back(s.used_ms());
    }
    if (used.empty()) return;
    // A few samples understate the worst of a tournament's thousands of moves: project the tail from the spread of
    // the moves that ran to the budget (a move stopped early says nothing about overruns, and an engine that always
    // stops at the same time projects no further than it went).
    std::vector<std::int64_t> full;
    for (std::int64_t u : used)
      if (u * 10 >= b * 9) full.push_back(u);
    if (full.size() >= 3) {
      const std::int64_t worst_used = *std::max_element(full.begin(), full.end());
      projected_overrun_ = worst_used + 2 * (worst_used - median(full)) - b;
    }
    const std::int64_t worst = *std::max_element(used.begin(), used.end());
    const std::string figure = "used " + ms(*std::min_element(used.begin(), used.end())) + " .. " + ms(worst) +
                               " (median " + ms(median(used)) + ") of " + ms(b) + ", " + std::to_string(used.size()) +
                               " moves";
    if (worst > b)
      add("time.byoyomi", "byoyomi 1 s", Verdict::Warn, figure,
          "it overruns its byoyomi by up to " + ms(worst - b) + " (see time.margin)");
    else
      add("time.byoyomi", "byoyomi 1 s", Verdict::Pass, figure);
    byoyomi_share(median(used), b);
  }

  // An engine that keeps most of its byoyomi back plays far below its strength at a short byoyomi: the YaneuraOu
  // family keeps NetworkDelay2 (1,120 ms by default) back, so it thinks about 100 ms of a 1 s byoyomi.
  void byoyomi_share(std::int64_t typical, std::int64_t b) {
    const std::string figure = "median " + ms(typical) + " of " + ms(b) + " (" +
                               std::to_string(typical * 100 / std::max<std::int64_t>(1, b)) + " %)";
    if (typical * 2 >= b) {
      add("time.byoyomi_share", "share of the byoyomi used", Verdict::Pass, figure);
      return;
    }
    auto value_of = [&](const usi::OptionSpec& option) {
      for (const auto& [name, value] : o_.engine.options)
        if (usi::iequals(name, option.name)) return value;
      return option.default_value;
    };
    std::string detail = "it uses less than half of its byoyomi";
    if (auto d2 = engine_.client().find_option("NetworkDelay2"))
      detail += ": it keeps NetworkDelay2 = " + value_of(*d2) + " ms back; lower it (option." + d2->name +
                "=..., with a margin_ms for what it then overruns) to think longer at a short byoyomi";
    else if (auto d = engine_.client().find_option("NetworkDelay"))
      detail += ": it keeps NetworkDelay = " + value_of(*d) + " ms back; lower it (option." + d->name + "=...)";
    else
      detail += ": look for its time-margin option, or expect it to play below its strength at a short byoyomi";
    add("time.byoyomi_share", "share of the byoyomi used", Verdict::Warn, figure, detail);
  }

  // Limits a tournament uses only when its time control says so (tc=movetime=..., nodes=..., depth=...).
  void limit_probe(const std::string& id, const std::string& title, const GoParams& go, std::int64_t allowed,
                   Millis wait, const std::string& tc) {
    auto s = engine_.search(timing_position(), go, wait);
    searched(s);
    if (s.answered() && go.movetime && !s.stopped) note_overrun(s.used_ms() - allowed, "movetime");
    if (s.died) {
      report_.keys.avoid.push_back(tc);
      add(id, title, Verdict::Warn, died_text(s), "do not use " + tc + " with it");
      ensure_running();
      return;
    }
    if (s.stopped) {
      add(id, title, Verdict::Warn, s.answered() ? "answered only after stop" : "no bestmove, even after stop",
          "it ignores this limit: do not use " + tc + " with it");
      report_.keys.avoid.push_back(tc);
      return;
    }
    if (go.movetime && s.used_ms() > allowed + o_.game_margin_ms / 2)
      add(id, title, Verdict::Warn, "used " + ms(s.used_ms()) + " of " + ms(allowed), "it overruns its movetime");
    else
      add(id, title, Verdict::Pass, "used " + ms(s.used_ms()) + (go.movetime ? " of " + ms(allowed) : ""));
  }

  void movetime() {
    const std::int64_t t = o_.quick ? 300 : 500;
    GoParams g;
    g.movetime = t;
    limit_probe("time.movetime", "movetime " + ms(t), g, t, Millis(t + 1500), "tc=movetime=...");
  }

  void nodes_and_depth() {
    GoParams n;
    n.nodes = 20000;
    limit_probe("time.nodes", "nodes 20000", n, 0, Millis(o_.quick ? 4000 : 10000), "tc=nodes=...");
    if (!ensure_running()) return;
    GoParams d;
    d.depth = 4;
    limit_probe("time.depth", "depth 4", d, 0, Millis(o_.quick ? 4000 : 10000), "tc=depth=...");
  }

  // ---- stop and ponder ------------------------------------------------------------------------------------------

  // go infinite, `after` of thinking, stop: the latency from stop to bestmove, or nullopt (with `why`).
  std::optional<std::int64_t> stop_after(Millis after, bool* answered_early, std::string* why) {
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

  void infinite_and_stop() {
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
  void ponder() {
    const std::int64_t b = 1000;
    GoParams go = byoyomi(b);
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
      if (!engine_.go(timing_position(), go))
        return died("on go ponder");
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

  // ---- legality -------------------------------------------------------------------------------------------------

  void legality() {
    auto positions = legality_positions();
    const size_t count = o_.quick ? 3 : positions.size();
    const std::int64_t b = o_.quick ? 300 : 500;
    std::vector<std::string> illegal, notes;
    int legal = 0;
    for (size_t i = 0; i < count && !interrupted(); ++i) {
      if (!ensure_running()) return;
      const CheckPosition& p = positions[i];
      shogi::GameRecord record;
      if (!record.start(p.position.substr(p.position.find(' ') + 1))) continue;  // cannot happen: tested
      engine_.client().new_game();
      auto s = timed(p.position, byoyomi(b), b);
      if (s.died) {
        illegal.push_back(std::string(p.name) + ": " + died_text(s));
        if (!ensure_running()) break;
        continue;
      }
      if (!s.answered()) {
        notes.push_back(std::string(p.name) + ": no bestmove");
        continue;
      }
      const std::string& move = s.result.bestmove.move;
      if (s.result.bestmove.is_resign()) {
        ++legal;
        notes.push_back(std::string(p.name) + ": resigned");
      } else if (s.result.bestmove.is_win()) {
        if (shogi::can_declare_win(record.position(), shogi::EnteringKingRule::Point27) ||
            shogi::can_declare_win(record.position(), shogi::EnteringKingRule::Point24))
          ++legal;
        else
          illegal.push_back(std::string(p.name) + ": 'bestmove win' where no declaration is valid");
      } else if (auto m = shogi::parse_usi_move(record.position(), move); !m) {
        illegal.push_back(std::string(p.name) + ": " + move + " (" + m.error() + "; " + std::string(p.trap) + ")");
      } else {
        ++legal;
      }
    }
    const std::string figure = std::to_string(legal) + " of " + std::to_string(count) + " positions legal";
    if (!illegal.empty())
      add("legal.moves", "legal bestmove in trap positions", Verdict::Fail, figure, join(illegal, "; "));
    else if (legal < int(count))  // unanswered: nothing judged there
      add("legal.moves", "legal bestmove in trap positions", Verdict::Warn, figure,
          join(notes, "; ") + ": its moves there could not be judged");
    else
      add("legal.moves", "legal bestmove in trap positions", Verdict::Pass, figure, join(notes, "; "));
    if (!ensure_running()) return;
    // Checkmated: a tournament never asks (the game is over), so anything but resign is a warning only.
    const CheckPosition& mated = mated_position();
    engine_.client().new_game();
    auto s = timed(mated.position, byoyomi(b), b);
    const std::string answer = s.died         ? died_text(s)
                               : s.answered() ? "bestmove " + s.result.bestmove.move
                                              : "no bestmove";
    // A tournament never sends such a position, but an engine left broken by it would spoil the checks after it.
    std::string after;
    if (engine_.running()) {
      auto next = timed(timing_position(), byoyomi(b), b);
      if (!next.answered()) {
        after = next.died ? "died on the next go" : "no longer answers go";
        engine_.abandon();  // restarted by the next check
      }
    }
    if (s.answered() && s.result.bestmove.is_resign() && after.empty())
      add("legal.mated", "checkmated: resign", Verdict::Pass, "bestmove resign");
    else
      add("legal.mated", "checkmated: resign", Verdict::Warn, answer + (after.empty() ? "" : "; then " + after),
          after.empty() ? "with no legal move the answer is `bestmove resign`"
                        : "after a checkmated position it " + after + " (a tournament never sends one; restarted)");
  }

  // ---- robustness -----------------------------------------------------------------------------------------------

  // `line` sent, then isready: the engine must still answer.
  void survives(const std::string& id, const std::string& title, const std::string& line) {
    engine_.send_raw(line);
    if (engine_.sync(Millis(3000))) {
      add(id, title, Verdict::Pass, "still answers isready");
      return;
    }
    const bool dead = !engine_.running();
    add(id, title, Verdict::Warn, dead ? "died (" + engine_.exit_text() + ")" : "no readyok within 3000 ms",
        "a GUI or server that sends it something unexpected loses the engine");
    engine_.abandon();  // dead, or wedged: a fresh process for the rest
    ensure_running();
  }

  void robustness() {
    survives("robust.unknown_command", "unknown command", "shogi-arena-check-unknown-command 1 2 3");
    if (!ensure_running()) return;
    std::string garbage = "\x01\x02\x7f\xff\xfe garbage \xe3\x81 ";
    garbage += '\0';
    garbage += "\ttab";
    survives("robust.garbage", "garbage bytes", garbage);
    if (!ensure_running()) return;
    survives("robust.long_line", "a 100,000-byte line", "shogi-arena-check " + std::string(100000, 'x'));
    if (!ensure_running()) return;
    // Between games: gameover, usinewgame, a new position.
    auto& client = engine_.client();
    client.game_over(usi::UsiClient::GameOver::Lose);
    client.new_game();
    const bool ready = engine_.sync(Millis(5000));
    auto s = ready ? timed(timing_position(), byoyomi(500), 500) : ProbeEngine::Search{};
    if (ready && s.answered())
      add("robust.new_game", "gameover, usinewgame, next game", Verdict::Pass, "plays on");
    else
      add("robust.new_game", "gameover, usinewgame, next game", Verdict::Fail,
          s.wedged             ? "no bestmove, even after stop"
          : !engine_.running() ? "died (" + engine_.exit_text() + ")"
          : ready              ? "no bestmove"
                             : "no readyok",
          "it cannot play a second game in the same process");
  }

  // ---- summaries ------------------------------------------------------------------------------------------------

  void bestmove_once() {
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
  void margin() {
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
    } else if (needed > allowed / 2 && round_up(needed + 50, 50) > allowed) {
      report_.keys.margin_ms = round_up(needed + 50, 50);
      add("time.margin", "time tolerance needed", Verdict::Warn, figure,
          "use margin_ms=" + std::to_string(*report_.keys.margin_ms) + " for it (the margin now is " + ms(allowed) +
              ")");
    } else {
      add("time.margin", "time tolerance needed", Verdict::Pass, figure + ", within the margin of " + ms(allowed));
    }
  }

  void memory_and_quit() {
    if (!ensure_running()) return;
    std::string hash;
    for (const auto& [name, value] : o_.engine.options)
      if (hash_option(name)) hash += " " + name + "=" + value;
    if (auto kb = engine_.peak_rss_kb())
      add("resources.memory", "peak memory", Verdict::Pass,
          std::to_string((*kb + 1023) / 1024) + " MB" +
              (hash.empty() ? " (default hash)" : " (" + hash.substr(1) + ")"));
    else
      add("resources.memory", "peak memory", Verdict::Skip, "", "/proc does not tell");
    // A tournament waits quit_grace (1 s) for an engine to exit, then kills it; here it gets longer, to measure.
    const auto t0 = SteadyClock::now();
    const bool by_itself = engine_.quit(Millis(5000));
    const auto took = std::chrono::duration_cast<Millis>(SteadyClock::now() - t0).count();
    const std::int64_t grace = std::chrono::duration_cast<Millis>(o_.engine.quit_grace).count();
    if (by_itself && took <= grace)
      add("robust.quit", "quit", Verdict::Pass, "exited in " + ms(took));
    else
      add("robust.quit", "quit", Verdict::Warn, by_itself ? "exited in " + ms(took) : "killed after " + ms(took),
          "slower than the " + ms(grace) + " a tournament waits before it kills an engine that was told to quit");
  }

  std::filesystem::path working_dir() const {
    return o_.engine.working_dir.empty() ? std::filesystem::current_path() : std::filesystem::path(o_.engine.working_dir);
  }

  std::set<std::string> working_dir_files() const {
    std::set<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(working_dir(), ec))
      names.insert(entry.path().filename().string());
    return names;
  }

  // Engines write logs and caches where they run; a tournament's workers would all write there at once.
  // (gpsusi creates a file named "<empty>": the default of its log file options, taken literally.)
  void files_left(const std::set<std::string>& before) {
    std::vector<std::string> created;
    for (const std::string& name : working_dir_files())
      if (!before.contains(name)) created.push_back("'" + name + "'");
    if (created.empty())
      add("robust.files", "files in its working directory", Verdict::Pass, "none created");
    else
      add("robust.files", "files in its working directory", Verdict::Warn,
          "created " + join(created, ", ") + " in " + working_dir().string(),
          "give it a directory of its own (dir=...), or expect these files wherever it runs");
  }

  const CheckOptions& o_;
  ProbeEngine engine_;
  const std::atomic<bool>* interrupt_;
  CheckReport report_;
  Millis drain_{60};
  bool fatal_ = false;
  int next_position_ = 0;
  int searches_ = 0;
  int stray_bestmoves_ = 0;
  std::optional<std::int64_t> max_overrun_;
  std::optional<std::int64_t> projected_overrun_;  // from the spread of the byoyomi moves
  std::string max_overrun_probe_;
};

}  // namespace

CheckReport run_checks(const CheckOptions& options, const std::atomic<bool>* interrupt) {
  Battery battery(options, interrupt);
  return battery.run();
}

}  // namespace arena::check

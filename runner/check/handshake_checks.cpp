// The handshake probes: start and identity, option lines, setoption of each, isready while searching.

#include "check/battery.h"

#include <chrono>
#include <thread>

namespace arena::check {

bool Battery::handshake() {
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

void Battery::options() {
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
void Battery::rule_options() {
  std::vector<std::string> found;
  for (const usi::OptionSpec& option : engine_.client().options())
    if (usi::iequals(option.name, "EnteringKingRule") || usi::iequals(option.name, "MaxMovesToDraw"))
      found.push_back(option.name + " (default " + option.default_value + ")");
  add("rules.options", "rule options", Verdict::Pass,
      found.empty() ? "none: the engine is not told the declaration rule or the move limit"
                    : join(found, ", ") + ": a tournament sets them from its rules");
}

bool Battery::configured(std::string_view option) const {
  for (const auto& o : o_.engine.options)
    if (usi::iequals(o.first, option)) return true;
  return false;
}

// Engines default to more than one thread (YaneuraOu: 4) or a large hash: a gauntlet at concurrency N then
// oversubscribes the machine or its memory. The recommendation pins threads to 1 and caps a hash above 256 MB,
// in the engine's own option names.
void Battery::threads_and_hash() {
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
void Battery::setoption_each() {
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

void Battery::isready_busy() {
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

}  // namespace arena::check

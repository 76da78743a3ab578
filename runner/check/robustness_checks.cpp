// The robustness probes: unexpected input, a second game in one process, memory, quit, and the files an engine
// leaves where it runs.

#include "check/battery.h"

#include <chrono>
#include <filesystem>
#include <set>

namespace arena::check {

// `line` sent, then isready: the engine must still answer.
void Battery::survives(const std::string& id, const std::string& title, const std::string& line) {
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

void Battery::robustness() {
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
  auto s = ready ? timed(timing_position(), byoyomi_go(500), 500) : ProbeEngine::Search{};
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

void Battery::memory_and_quit() {
  if (!ensure_running()) return;
  std::string hash;
  for (const auto& [name, value] : o_.engine.options)
    if (hash_option(name)) hash += " " + name + "=" + value;
  if (auto kb = engine_.peak_rss_kb())
    add("resources.memory", "peak memory", Verdict::Pass,
        std::to_string((*kb + 1023) / 1024) + " MB" + (hash.empty() ? " (default hash)" : " (" + hash.substr(1) + ")"));
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

std::filesystem::path Battery::working_dir() const {
  return o_.engine.working_dir.empty() ? std::filesystem::current_path() : std::filesystem::path(o_.engine.working_dir);
}

std::set<std::string> Battery::working_dir_files() const {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(working_dir(), ec))
    names.insert(entry.path().filename().string());
  return names;
}

// Engines write logs and caches where they run; a tournament's workers would all write there at once.
// (gpsusi creates a file named "<empty>": the default of its log file options, taken literally.)
void Battery::files_left(const std::set<std::string>& before) {
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

}  // namespace arena::check

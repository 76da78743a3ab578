#pragma once
// Scripted engines for the run tests (tournaments and SPSA on the run core): results are a pure function of
// (black, white, opening, the options sent), so a run's standings do not depend on concurrency or on being
// interrupted and resumed; crashes and start failures are injected by the script.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "config/config.h"
#include "rules/game_end.h"
#include "rules/notation.h"
#include "run/engines.h"
#include "usi/usi_option.h"

namespace arena::run::testing {

struct Script {
  explicit Script(int engines) {
    for (int i = 0; i < engines; ++i) names.push_back("e" + std::to_string(i));
  }
  std::vector<std::string> names;  // e0, e1, ...
  // The result of a game; the default: the lower engine index wins, except that openings of odd length are draws.
  std::function<Outcome(int black, int white, const std::string& position)> result = [](int black, int white,
                                                                                        const std::string& position) {
    size_t moves = 0;
    for (char c : position) moves += c == ' ';
    if (moves % 2) return Outcome::Draw;
    return black < white ? Outcome::BlackWin : Outcome::WhiteWin;
  };
  // The options every engine declares (an SPSA run checks its parameters against them).
  std::vector<usi::OptionSpec> options;
  // Called with the 1-based number of the game among all games played (all workers): true = the black engine
  // crashes during it.
  std::function<bool(int call)> crash = [](int) { return false; };
  // Likewise: true = the runner side fails during the game (play() throws, as a broken relay or a bug would).
  std::function<bool(int call)> runner_throws = [](int) { return false; };
  // True = engine `e` cannot be started now (`start` is the 1-based number of its start attempts).
  std::function<bool(int engine, int start)> fail_start = [](int, int) { return false; };
  std::chrono::milliseconds think{0};  // per game, interruptible
  // What each start of engine `e` tells of the rules (as game::Player::take_notices gives it): notes, warnings.
  std::function<game::Player::Notices(int engine)> rule_notices = [](int) { return game::Player::Notices{}; };

  std::atomic<int> calls{0};
  std::atomic<int> live{0};  // engines currently started, over all workers
  std::mutex mutex;
  std::vector<int> starts;  // per engine
  std::vector<game::OptionList> options_sent;  // every set_options call's list, in order (all workers)
};

class FakeEngines final : public WorkerEngines {
 public:
  explicit FakeEngines(Script& script) : s_(script), up_(script.names.size(), false) {}
  ~FakeEngines() override {
    for (size_t e = 0; e < up_.size(); ++e) release(int(e));
  }

  std::expected<void, std::string> prepare(int engine) override {
    if (up_[size_t(engine)]) return {};
    int n;
    {
      std::lock_guard lock(s_.mutex);
      if (s_.starts.size() < s_.names.size()) s_.starts.resize(s_.names.size());
      n = ++s_.starts[size_t(engine)];
    }
    if (s_.fail_start(engine, n)) return std::unexpected("usi: no answer within 10 s");
    notices_.add(s_.rule_notices(engine));
    up_[size_t(engine)] = true;
    ++s_.live;
    return {};
  }

  std::expected<void, std::string> set_options(int engine, const game::OptionList& options) override {
    if (!up_[size_t(engine)]) return std::unexpected("engine '" + s_.names[size_t(engine)] + "' is not prepared");
    for (const auto& [name, value] : options)
      if (!usi::find_option(s_.options, name))
        return std::unexpected("engine '" + s_.names[size_t(engine)] + "': no option '" + name + "'");
    std::lock_guard lock(s_.mutex);
    s_.options_sent.push_back(options);
    return {};
  }

  std::vector<usi::OptionSpec> declared_options(int engine) override {
    return up_[size_t(engine)] ? s_.options : std::vector<usi::OptionSpec>{};
  }

  game::Player::Notices take_notices() override { return std::exchange(notices_, {}); }

  PlayedGame play(int black, int white, const std::string& position, const std::atomic<bool>* interrupt) override {
    const int call = ++s_.calls;
    PlayedGame g;
    g.names[shogi::BLACK] = s_.names[size_t(black)];
    g.names[shogi::WHITE] = s_.names[size_t(white)];
    g.time_control = "1+0";
    shogi::GameRecord record;
    if (!record.start(position)) throw std::invalid_argument("bad position " + position);
    g.start_sfen = record.start_sfen();
    for (shogi::Move m : record.moves()) g.moves.push_back(MoveRecord{m, 0, {}, true, {}, {}});
    const auto until = std::chrono::steady_clock::now() + s_.think;
    while (std::chrono::steady_clock::now() < until) {
      if (interrupt && interrupt->load()) {
        g.result = {Outcome::None, Termination::Interrupted, "interrupted"};
        return g;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (s_.runner_throws(call)) throw std::runtime_error("scripted failure in game " + std::to_string(call));
    if (s_.crash(call)) {
      up_[size_t(black)] = false;
      --s_.live;
      g.result = {Outcome::WhiteWin, Termination::Disconnect, s_.names[size_t(black)] + " crashed"};
      return g;
    }
    const Outcome o = s_.result(black, white, position);
    g.result = {o, o == Outcome::Draw ? Termination::Sennichite : Termination::Resign, ""};
    return g;
  }

  bool alive(int engine) override { return up_[size_t(engine)]; }

  void release(int engine) override {
    if (!up_[size_t(engine)]) return;
    up_[size_t(engine)] = false;
    --s_.live;
  }

 private:
  Script& s_;
  game::Player::Notices notices_;
  std::vector<bool> up_;
};

// A run of `engines` scripted engines e0, e1, ... (their command is never run) into `out`, without kifu or logs.
inline config::Config fake_config(config::TournamentType type, int engines, int rounds, int concurrency,
                                  const std::filesystem::path& out) {
  config::Config c;
  c.type = type;
  for (int i = 0; i < engines; ++i) {
    game::EngineConfig e;
    e.name = "e" + std::to_string(i);
    e.command = "/bin/true";
    e.time_control.base_ms = 1000;
    c.engines.push_back(e);
  }
  c.rounds = rounds;
  c.concurrency = concurrency;
  c.output.dir = out.string();
  c.output.journal = (out / "journal.jsonl").string();
  c.output.csa = false;
  c.output.engine_logs = false;
  return c;
}

inline EngineFactory fake_factory(Script& script) {
  return [&script](int) -> std::unique_ptr<WorkerEngines> { return std::make_unique<FakeEngines>(script); };
}

}  // namespace arena::run::testing

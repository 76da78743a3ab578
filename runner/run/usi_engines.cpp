// The real WorkerEngines: game::Player instances over engine processes.
#include <filesystem>

#include "process/engine_process.h"
#include "run/engines.h"
#include "usi/usi_client.h"

namespace arena::run {

namespace {

class UsiEngines final : public WorkerEngines {
 public:
  UsiEngines(const std::vector<game::EngineConfig>& engines, const game::GameOptions& options, const EngineLogs& logs,
             int worker)
      : configs_(engines), options_(options), loop_(std::make_shared<process::EventLoop>()), players_(engines.size()) {
    // This worker's thread starts, plays and stops these engines, and ends after them: they may die with it,
    // so that a runner killed with kill -9 leaves no engine behind.
    for (game::EngineConfig& c : configs_) c.die_with_starting_thread = true;
    for (game::EngineConfig& c : configs_) logs.configure(c, worker);
    // Engines that can be told the rules the runner judges by are told them (game/rule_options.h).
    for (game::EngineConfig& c : configs_) c.rules = game::GameRules{options.entering_king, options.max_plies};
  }
  ~UsiEngines() override {
    for (size_t i = 0; i < players_.size(); ++i) release(int(i));
  }

  std::expected<void, std::string> prepare(int engine) override {
    auto& p = players_[size_t(engine)];
    if (p && p->running()) return {};
    // All of a worker's engines share its event loop: a pondering engine's output is drained while the game
    // waits for the other one.
    if (!p) p = std::make_unique<game::Player>(configs_[size_t(engine)], loop_);
    auto started = p->start();
    notices_.add(p->take_notices());
    return started;
  }

  std::expected<void, std::string> set_options(int engine, const game::OptionList& options) override {
    return players_[size_t(engine)]->set_options(options);
  }

  std::vector<usi::OptionSpec> declared_options(int engine) override {
    const auto& p = players_[size_t(engine)];
    if (!p || !p->has_client()) return {};
    return p->client().options();
  }

  game::Player::Notices take_notices() override { return std::exchange(notices_, {}); }

  PlayedGame play(int black, int white, const std::string& start, const std::atomic<bool>* interrupt) override {
    PlayedGame game =
        game::play_game(*players_[size_t(black)], *players_[size_t(white)], start, options_, interrupt, watcher_);
    for (int e : {black, white}) notices_.add(players_[size_t(e)]->take_notices());  // what the game showed of them
    return game;
  }

  bool alive(int engine) override {
    const auto& p = players_[size_t(engine)];
    return p && p->running();
  }

  void release(int engine) override {
    auto& p = players_[size_t(engine)];
    if (!p) return;
    p->stop();
    p.reset();
  }

 private:
  std::vector<game::EngineConfig> configs_;
  game::GameOptions options_;
  std::shared_ptr<process::EventLoop> loop_;
  std::vector<std::unique_ptr<game::Player>> players_;
  game::Player::Notices notices_;
};

}  // namespace

void say_once(const game::Player::Notices& notices, std::set<std::string>& said,
              const std::function<void(const std::string&)>& note,
              const std::function<void(const std::string&)>& warning) {
  for (const std::string& n : notices.notes)
    if (said.insert(n).second) note(n);
  for (const std::string& w : notices.warnings)
    if (said.insert("warning: " + w).second) warning(w);
}

EngineFactory make_usi_engines(std::vector<game::EngineConfig> engines, game::GameOptions options, EngineLogs logs) {
  return [engines = std::move(engines), options = std::move(options),
          logs = std::move(logs)](int worker) -> std::unique_ptr<WorkerEngines> {
    return std::make_unique<UsiEngines>(engines, options, logs, worker);
  };
}

}  // namespace arena::run

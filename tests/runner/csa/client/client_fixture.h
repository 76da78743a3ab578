#pragma once
// Shared by the CSA client tests: a client configuration around the mock engine, the two ways to run a session
// against scripts (in memory / over TCP), and the game scenarios both of them play.

#include <atomic>
#include <cstring>
#include <expected>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "csa/client/session.h"
#include "script_server.h"

namespace csa_test {

using namespace std::chrono_literals;
using arena::csa::CsaClientConfig;
using arena::csa::CsaGameReport;
using arena::csa::CsaSessionReport;

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string regex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::strchr("\\^$.|?*+()[]{}", c)) out += '\\';
    out += c;
  }
  return out;
}

inline CsaClientConfig test_config(const std::string& dir, std::vector<std::string> engine_args = {}) {
  CsaClientConfig c;
  c.user = "tester";
  c.game_name = "testgame-300-10F";
  c.trip = "s3cr3t-trip";
  c.engine.command = MOCK_USI_ENGINE;
  c.engine.args = std::move(engine_args);
  c.engine.name = "mock";
  c.games = 1;
  c.margin_ms = 500;
  c.output_dir = dir;
  c.status_line = false;
  c.reconnect_initial = 10ms;
  c.reconnect_max = 40ms;
  c.reconnect_attempts = 3;
  return c;
}

struct SessionRun {
  CsaSessionReport report;
  std::vector<std::shared_ptr<Referee>> referees;
  std::string log;
  std::vector<std::string> script_errors() const {
    std::vector<std::string> out;
    for (auto& r : referees)
      for (auto& e : r->errors()) out.push_back(e);
    return out;
  }
};

inline std::string log_path(const CsaClientConfig& c) {
  return c.log_file.empty() ? c.output_dir + "/csa-client.log" : c.log_file;
}

// In memory: one ScriptLink per connection the client opens, in order; then "connection refused".
inline SessionRun run_in_memory(std::vector<Script> scripts, const CsaClientConfig& cfg,
                                const std::atomic<bool>* stop = nullptr, int refuse_first = 0) {
  SessionRun run;
  for (auto& s : scripts) run.referees.push_back(std::make_shared<Referee>(std::move(s)));
  std::size_t next = 0;
  int refused = 0;
  auto connect = [&]() -> std::expected<std::unique_ptr<arena::csa::ServerLink>, std::string> {
    if (refused < refuse_first) {
      ++refused;
      return std::unexpected("connection refused (scripted)");
    }
    if (next >= run.referees.size()) return std::unexpected("connection refused (no more scripts)");
    return std::make_unique<ScriptLink>(run.referees[next++]);
  };
  run.report = arena::csa::run_csa_session(cfg, connect, stop);
  run.log = read_text(log_path(cfg));
  return run;
}

// Over TCP on 127.0.0.1 with the real Asio link.
inline SessionRun run_tcp(std::vector<Script> scripts, CsaClientConfig cfg, bool echo_keep_alive = true) {
  SessionRun run;
  TcpScriptServer server(std::move(scripts), echo_keep_alive);
  cfg.host = "127.0.0.1";
  cfg.port = server.port();
  arena::csa::TcpEndpoint ep{cfg.host, cfg.port, cfg.connect_timeout, true};
  run.report = arena::csa::run_csa_session(cfg, [&] { return arena::csa::connect_tcp(ep); });
  run.referees = server.finish();
  run.log = read_text(log_path(cfg));
  return run;
}

// A game scenario: the script of one connection, the engine's behaviour, and what must come out.
struct Scenario {
  std::string name;
  std::vector<std::string> engine_args;
  std::function<void(CsaClientConfig&)> tweak;
  Script script;
  arena::csa::GameStatus status = arena::csa::GameStatus::Finished;
  arena::Outcome outcome = arena::Outcome::None;
  arena::Termination termination = arena::Termination::None;
  std::function<void(const SessionRun&, const CsaGameReport&)> check;
  bool slow = false;  // seconds of engine time: in memory only
};

std::vector<Scenario> game_scenarios();
// Runs one scenario in memory or over TCP and checks what it promises (doctest assertions).
void run_scenario(Scenario& s, bool tcp);

}  // namespace csa_test

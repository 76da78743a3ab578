#pragma once
// A CSA server on an ephemeral port with its output in a fresh temporary folder, and helpers to log in and to
// bring two scripted clients to START.
#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "csa/server/server.h"
#include "test_client.h"

namespace csa_test {

using Lines = std::vector<std::string>;

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TestServer {
 public:
  explicit TestServer(const std::function<void(arena::csa::CsaServerConfig&)>& tweak = {}) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("shogi_arena_csa_server_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    config_.port = 0;
    config_.output_dir = dir_ / "games";
    config_.log_file = dir_ / "server.log";
    config_.log_traffic = true;
    if (tweak) tweak(config_);
    server_ = std::make_unique<arena::csa::CsaServer>(config_);
    auto ok = server_->start();
    if (!ok) FAIL("server did not start: " << ok.error());
  }
  ~TestServer() {
    server_->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  uint16_t port() const { return server_->port(); }
  arena::csa::CsaServer& server() { return *server_; }
  const arena::csa::CsaServerConfig& config() const { return config_; }
  std::string log() const { return read_file(config_.log_file); }

 private:
  std::filesystem::path dir_;
  arena::csa::CsaServerConfig config_;
  std::unique_ptr<arena::csa::CsaServer> server_;
};

// Connects and logs in; checks the LOGIN reply (and the x1 line).
inline std::unique_ptr<TestClient> login(uint16_t port, const std::string& name, const std::string& password,
                                         bool x1 = false) {
  auto c = std::make_unique<TestClient>(port);
  REQUIRE(c->connected());
  c->send_line("LOGIN " + name + " " + password + (x1 ? " x1" : ""));
  CHECK(c->read_line() == "LOGIN:" + name + " OK");
  if (x1) CHECK(c->read_line() == "##[LOGIN] +OK x1");
  return c;
}

inline std::string value_of(const Lines& lines, const std::string& key) {
  for (const std::string& l : lines)
    if (l.rfind(key, 0) == 0) return l.substr(key.size());
  return "";
}

struct Pair {
  std::unique_ptr<TestClient> black, white;
  std::string id;
  Lines summary[2];
};

// Two CSA-mode clients asking for `game` as black and white, both AGREE, both read START.
inline Pair start_game(uint16_t port, const std::string& game, const std::string& black = "alice",
                       const std::string& white = "bob") {
  Pair p;
  p.black = login(port, black, game + "-B");
  p.white = login(port, white, game + "-W");
  p.summary[0] = p.black->read_until("END Game_Summary");
  p.summary[1] = p.white->read_until("END Game_Summary");
  REQUIRE(p.summary[0].size() > 20);
  REQUIRE(p.summary[1].size() > 20);
  CHECK(value_of(p.summary[0], "Your_Turn:") == "+");
  CHECK(value_of(p.summary[1], "Your_Turn:") == "-");
  p.id = value_of(p.summary[0], "Game_ID:");
  CHECK(p.id == value_of(p.summary[1], "Game_ID:"));
  p.black->send_line("AGREE");
  p.white->send_line("AGREE " + p.id);
  CHECK(p.black->read_line() == "START:" + p.id);
  CHECK(p.white->read_line() == "START:" + p.id);
  return p;
}

}  // namespace csa_test

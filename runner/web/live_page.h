#pragma once
// The live page of a run, started the one way every command starts it (a tournament's --web, slurm --web, serve
// --web): its state and its server together, and the address printed on stderr ("Live page: http://HOST:PORT/").

#include <expected>
#include <memory>
#include <string>

#include "web/live_state.h"

namespace arena::web {

class WebServer;

class LivePage {
 public:
  // `address` as --web takes it: "PORT" (on 127.0.0.1), "HOST:PORT" or "[IPv6]:PORT"; port 0 is the system's pick.
  // The error is one line naming the address.
  static std::expected<std::unique_ptr<LivePage>, std::string> start(const std::string& address, std::string title);
  ~LivePage();  // stops the server before the state it reads goes away
  LivePage(const LivePage&) = delete;
  LivePage& operator=(const LivePage&) = delete;

  LiveState& state() { return state_; }
  std::string url() const;

 private:
  explicit LivePage(std::string title);

  LiveState state_;
  std::unique_ptr<WebServer> server_;
};

}  // namespace arena::web

#pragma once
// The CSA client's session log: every line to and from the server, the engine's lines, and the client's own
// notes, each with a local timestamp in milliseconds. The login secret (trip or password) never reaches the
// file: every occurrence is replaced by stars, whichever direction it travels in.
//
//   2026-11-21 12:22:19.123 > LOGIN alice floodgate-600-10F,*****
//   2026-11-21 12:22:19.125 < LOGIN:alice OK
//   2026-11-21 12:22:20.001 e> go btime 599000 wtime 600000 binc 10000 winc 10000
//   2026-11-21 12:22:20.002 # game 1: START as black vs bob

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace arena::csa {

class ProtocolLog {
 public:
  ProtocolLog() = default;  // logs nowhere (tests)
  ~ProtocolLog();
  ProtocolLog(const ProtocolLog&) = delete;
  ProtocolLog& operator=(const ProtocolLog&) = delete;

  // Appends to `path` (directories created). The error names the file.
  bool open(const std::string& path, std::string* error);
  void set_secret(std::string secret) { secret_ = std::move(secret); }
  // Also hands every note (masked) to `sink`: the console view of a session.
  void set_note_sink(std::function<void(std::string_view)> sink) { note_sink_ = std::move(sink); }

  void sent(std::string_view line) { write(">", line); }
  void received(std::string_view line) { write("<", line); }
  void engine_sent(std::string_view line) { write("e>", line); }      // runner -> engine
  void engine_received(std::string_view line) { write("e<", line); }  // engine -> runner
  void note(std::string_view text);

  // The line as it may be shown: the secret replaced by stars.
  std::string mask(std::string_view line) const;

 private:
  void write(std::string_view tag, std::string_view text);

  std::FILE* file_ = nullptr;
  std::string secret_;
  std::function<void(std::string_view)> note_sink_;
};

}  // namespace arena::csa

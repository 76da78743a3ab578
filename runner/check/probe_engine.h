#pragma once
// One engine under test: started (and restarted after a death) with the configured options, searched with
// measured timing, and read raw between searches, where a second bestmove would hide. Deaths and timeouts are
// values: a probe that kills the engine is a finding, not an error.

#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "game/game.h"
#include "usi/usi_client.h"

namespace arena::check {

using Millis = std::chrono::milliseconds;

class ProbeEngine {
 public:
  // `config` as a tournament would run the engine (its options, quirk keys, startup timeout). stderr goes to a
  // temporary file of this object, so that a death can be reported with the engine's last words.
  explicit ProbeEngine(game::EngineConfig config);
  ~ProbeEngine();
  ProbeEngine(const ProbeEngine&) = delete;
  ProbeEngine& operator=(const ProbeEngine&) = delete;

  struct Startup {
    Millis usiok{0};    // `usi` -> `usiok`
    Millis readyok{0};  // the options sent, `isready` -> `readyok`
  };
  // Starts (or restarts) the process: handshake, the configured options, isready, all within `timeout` each. After a
  // failure the process is gone (running() is false).
  std::expected<Startup, std::string> start(Millis timeout);
  bool running() const;
  usi::UsiClient& client() { return *client_; }
  const game::EngineConfig& config() const { return config_; }
  // Applied to every go from now on, and after restarts.
  void set_go_quirks(usi::GoQuirks quirks);
  const usi::GoQuirks& go_quirks() const { return quirks_; }

  struct Search {
    usi::SearchResult result;  // status Ok: a bestmove; its elapsed() is the time used
    bool stopped = false;      // no bestmove within the wait: `stop` was sent
    bool wedged = false;       // no bestmove even after stop: the process was killed (running() is false)
    bool died = false;         // the engine is gone (`exit` says how)
    std::string exit;
    std::int64_t used_ms() const { return result.elapsed().count() / 1000; }
    bool answered() const { return result.status == usi::Status::Ok; }
  };
  // "position <position>" and go in one write (`position` is "startpos ..." or "sfen ..."); false if the engine is
  // gone. The caller waits for the bestmove through client().
  bool go(std::string_view position, const usi::GoParams& go);
  // `position` line and go, then a bestmove within `wait`; without one, `stop` and up to `stop_wait` more; without
  // one still, the engine is wedged and killed, so that a late bestmove can never answer a later go.
  Search search(std::string_view position_line, const usi::GoParams& go, Millis wait, Millis stop_wait = Millis(2000));
  // After a search: reads whatever the engine prints within `window` and counts the bestmove lines (one per go is
  // all an engine may send), with those the client ignored before a go since the last drain (later than its
  // window). Returns -1 if the engine died meanwhile (then running() is false).
  int drain(Millis window);
  // A search still pending (the client Thinking or Pondering): `stop` and up to `wait` for its bestmove, else the
  // engine is killed. True if the engine is idle and running afterwards.
  bool settle(Millis wait);
  // Kills the process at once (a wedged engine, or one whose output the checker read past the client).
  void abandon();
  // A raw line to the engine (garbage, unknown commands).
  bool send_raw(std::string_view line);
  // `isready` answered within `wait`; false if not (or dead).
  bool sync(Millis wait);

  // The peak resident set of the process so far (VmHWM), if the system tells.
  std::optional<std::int64_t> peak_rss_kb() const;
  // How the process ended, with the last line of its stderr: "killed by signal 6 (Aborted); stderr: 'unknown
  // option in go binc'".
  std::string exit_text();
  // quit and up to `grace` to exit; true if it exited by itself.
  bool quit(Millis grace);

 private:
  std::expected<Startup, std::string> start_once(Millis timeout);

  game::EngineConfig config_;
  usi::GoQuirks quirks_;
  std::filesystem::path stderr_path_;
  std::int64_t stderr_offset_ = 0;
  std::unique_ptr<usi::UsiClient> client_;
  std::int64_t idle_bestmoves_counted_ = 0;  // of client_->idle_bestmoves(), by drain
};

}  // namespace arena::check

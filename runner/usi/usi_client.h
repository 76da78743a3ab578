#pragma once
// The USI client: drives one engine process through handshake, options, position/go/stop/ponderhit, gameover
// and quit. Every wait has an absolute deadline; results are values. The client formats and parses; whether a
// bestmove is legal, and how much time a move may take, is the game layer's business.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "process/engine_process.h"
#include "usi/usi_info.h"
#include "usi/usi_option.h"

namespace arena::usi {

using process::Deadline;
using process::SteadyClock;

enum class Status {
  Ok,
  Timeout,        // no answer by the deadline; the engine may still be alive
  Disconnected,   // the engine closed its stdout or stdin: it is gone
  ProtocolError,  // it answered with something that is not USI (a malformed bestmove, ...)
  InvalidOption,  // a configured option the engine does not have, or a value it does not allow
  Interrupted,    // the caller's stop flag was set while waiting; the engine may still be alive
};
std::string_view to_string(Status status);

// Like cutechess: what the engine is doing as far as the protocol knows.
enum class EngineState {
  Starting,   // `usi` not yet answered
  Idle,       // ready for position/go
  Thinking,   // `go` sent, bestmove pending
  Pondering,  // `go ponder` sent, waiting for ponderhit or stop
  Finishing,  // `quit` sent
  Dead,       // process gone
};
std::string_view to_string(EngineState state);

struct Result {
  Status status = Status::Ok;
  std::string text;  // the offending raw line, or an explanation

  bool ok() const { return status == Status::Ok; }
};

struct Identity {
  std::string name;
  std::string author;
};

// Limits of one `go`. USI semantics: btime/wtime are the remaining main times WITHOUT this move's
// increment; the mover may use btime + binc on this move. Never add the increment into btime and send binc too.
struct GoParams {
  std::optional<std::int64_t> btime, wtime;  // ms
  std::optional<std::int64_t> byoyomi;       // ms per move once main time is used up
  std::optional<std::int64_t> binc, winc;    // ms (Fischer)
  std::optional<std::int64_t> movetime;      // ms
  std::optional<std::int64_t> nodes;
  std::optional<int> depth;
  bool ponder = false;
  bool infinite = false;
};
// "go [ponder] [btime B wtime W] [byoyomi Y] [binc I winc I] [movetime T] [nodes N] [depth D] [infinite]"
std::string go_command(const GoParams& params);
// The same line written into `out` (replacing what it held), so that a reused buffer allocates nothing.
void write_go_command(const GoParams& params, std::string& out);
// For engines that do not understand binc/winc (gpsusi aborts with "unknown option in go binc"): each side's
// increment is added to its time and binc/winc are dropped. The mover may spend btime + binc on this move, so it
// is told exactly what it may use now; all it loses is the knowledge that more increments will come. The
// increment is never both in the time and sent (the rule above). Params without an increment come back unchanged.
GoParams fold_increments(GoParams params);
// For engines that read btime as gote's time and wtime as sente's (Fairy-Stockfish 11.1 in USI mode, which then
// budgets with its opponent's clock): the two sides' times and increments are exchanged, so that the engine
// reads its own. Sent to a correct engine, this would be exactly that bug.
GoParams swap_sides(GoParams params);

// Workarounds for engines that misread `go`, applied by UsiClient::go() to every go it sends.
struct GoQuirks {
  bool fold_increments = false;  // fold_increments()
  bool swap_sides = false;       // swap_sides()
};
GoParams apply(const GoQuirks& quirks, GoParams params);

struct SearchResult {
  Status status = Status::Timeout;
  BestMove bestmove;       // status Ok
  std::string text;        // empty when Ok; the malformed bestmove line, or an explanation
  SearchInfo info;         // the engine's last word on its main line (multipv 1), merged over its info lines
  int info_lines = 0;      // info lines received during this search
  SteadyClock::time_point go_time;        // when the go line was written
  SteadyClock::time_point bestmove_time;  // when the bestmove line was read off the pipe
  std::chrono::microseconds elapsed() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(bestmove_time - go_time);
  }
};

class UsiClient {
 public:
  explicit UsiClient(std::unique_ptr<process::EngineProcess> process);
  // Quits with a short grace if the caller did not.
  ~UsiClient();
  UsiClient(const UsiClient&) = delete;
  UsiClient& operator=(const UsiClient&) = delete;

  // `usi` -> id name / id author / option lines -> `usiok`. Malformed option lines are skipped with a warning.
  // With `interrupt`, the wait ends (Interrupted) soon after it is set.
  Result handshake(Deadline deadline, const std::atomic<bool>* interrupt = nullptr);
  const Identity& identity() const { return identity_; }
  const std::vector<OptionSpec>& options() const { return options_; }
  // Case-insensitive; also USI_Hash and USI_Ponder, which engines accept without advertising them.
  std::optional<OptionSpec> find_option(std::string_view name) const;
  // Validation only: a bad configuration is reported before anything is sent.
  Result check_option(std::string_view name, std::string_view value) const;
  // Checks, then sends `setoption` (status InvalidOption and nothing sent if the check fails).
  Result set_option(std::string_view name, std::string_view value);

  // `isready` -> `readyok`; `interrupt` as for handshake.
  Result is_ready(Deadline deadline, const std::atomic<bool>* interrupt = nullptr);
  Result new_game();
  // A ready-made "position ..." line (shogi::GameRecord::usi_position_command()).
  Result position(std::string_view line);
  // Sends go (through the GoQuirks set); the state becomes Thinking, or Pondering for `go ponder`.
  Result go(const GoParams& params);
  // position(line) and go(params) in one write: what the game sends for every move.
  Result position_and_go(std::string_view position_line, const GoParams& params);
  void set_go_quirks(GoQuirks quirks) { go_quirks_ = quirks; }
  // Reads until `bestmove` or the absolute deadline; info lines do not move the deadline. On Timeout the state
  // is unchanged and the caller may stop and wait again.
  SearchResult wait_bestmove(Deadline deadline);
  Result stop();
  // Pondering -> Thinking; the search's go_time is NOT reset (the game layer times from the ponderhit itself).
  Result ponder_hit();
  enum class GameOver { Win, Lose, Draw };
  Result game_over(GameOver result);
  // `quit`, then up to `grace` for the process to exit, then kill; always reaped. True if it exited by itself.
  bool quit(std::chrono::milliseconds grace);

  EngineState state() const { return state_; }
  process::EngineProcess& process() { return *process_; }
  // Non-fatal oddities (skipped option lines, unparsable info lines, a bestmove while idle), for the checker.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Second bestmoves for one go, read off while idle before the next go and ignored (discard_idle_output).
  std::int64_t idle_bestmoves() const { return idle_bestmoves_; }
  // When the last ponderhit was written.
  SteadyClock::time_point ponderhit_time() const { return ponderhit_time_; }

 private:
  Result send(std::string_view line);
  Result send_lines(std::initializer_list<std::string_view> lines);
  Result read_until(std::string_view answer, Deadline deadline, bool collect_handshake,
                    const std::atomic<bool>* interrupt = nullptr);
  void warn(std::string text);
  // Reads off what the engine wrote while idle, which answers no go of ours: a second bestmove for the last go (the
  // checker names such engines) or info after it. Left in the pipe, that bestmove would be taken as the next go's
  // answer and judged in the wrong position (an illegal move), and the info merged into the next search's. Only
  // what has arrived by then: a second bestmove written after the next go is indistinguishable from its answer.
  void discard_idle_output();

  std::unique_ptr<process::EngineProcess> process_;
  EngineState state_ = EngineState::Starting;
  Identity identity_;
  std::vector<OptionSpec> options_;
  std::vector<std::string> warnings_;
  SteadyClock::time_point go_time_{};
  SteadyClock::time_point ponderhit_time_{};
  GoQuirks go_quirks_;
  std::int64_t idle_bestmoves_ = 0;
  // Reused on every move, so that a search's lines allocate nothing once the first moves have sized them.
  std::string go_line_;
  SearchInfo info_line_;
};

}  // namespace arena::usi

#pragma once
// The USI protocol loop: parses commands, prints responses, and drives the engine facade. Nothing here searches;
// search results arrive through callbacks and are printed under a lock (they come from a search thread).

#include <atomic>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "search/engine.h"
#include "usi/options.h"

namespace shogi::usi {

constexpr std::string_view ENGINE_NAME = "Shogi Arena Engine " SHOGI_ARENA_ENGINE_VERSION;
constexpr std::string_view ENGINE_AUTHOR = "the Shogi Arena developers";

class UsiLoop {
 public:
  UsiLoop(std::istream& in, std::ostream& out);
  ~UsiLoop();

  // Reads commands until `quit` or the end of input.
  void run();
  // Executes one command line; returns false after `quit`.
  bool execute(std::string_view line);
  Engine& engine() { return engine_; }

 private:
  void print(const std::string& line);
  void info_string(const std::string& text) { print("info string " + text); }
  void add_options();
  void cmd_setoption(const std::vector<std::string>& tokens);
  void cmd_go(const std::vector<std::string>& tokens);
  void cmd_perft(int depth);
  // A go after a refused `position`: the GUI's position is unknown, so nothing is searched. The answer is an info
  // string and `bestmove resign` (`checkmate nomate` for go mate), held back until stop or ponderhit when the go
  // was ponder or infinite, as USI requires of every bestmove.
  void answer_without_position(const SearchLimits& limits, bool perft);
  void release_held_answer();
  std::string no_position() const;  // the refusal, for every command that needs the position

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  Engine engine_;
  OptionsMap options_;
  // Why the last `position` was refused; empty while the engine holds the position the GUI sent.
  std::string position_error_;
  // The answer to a ponder or infinite go on a refused position, printed at stop or ponderhit.
  std::string held_answer_;
  // The running search has printed its answer (bestmove or checkmate): from the protocol's view it is over, and a
  // command that must not interrupt a search (setoption) only waits for its thread to wind down.
  std::atomic<bool> answered_{true};
};

// "score cp 35", "score mate 5", "score mate -0", with "lowerbound"/"upperbound" when given.
std::string format_score(Value v, bool lowerbound = false, bool upperbound = false);
std::string format_info(const InfoFull& info);

}  // namespace shogi::usi

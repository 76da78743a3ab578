#pragma once
// A scripted CSA server for the client tests. A Script is a list of steps (send lines, expect a client line,
// referee a client move, play an opponent move, pause, close); a Referee runs it and keeps the position so
// client moves are checked for legality and opponent moves can be "the first legal move". Two drivers run a
// referee: ScriptLink (in memory, a csa::ServerLink: no sockets) and TcpScriptServer (a thread with a real
// listening socket on 127.0.0.1).

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "csa/client/link.h"
#include "rules/game_end.h"
#include "rules/types.h"

namespace csa_test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Options of a Game_Summary block.
struct SummarySpec {
  std::string game_id = "test+game-300-10F+alice+bob+20260101000000";
  std::string black = "alice", white = "bob";
  shogi::Color your_turn = shogi::BLACK;
  std::string sfen = "startpos";     // the Position block's board
  std::vector<std::string> moves{};  // CSA moves already played, written "move,T1"
  int total_s = 300, byoyomi_s = 0, increment_s = 10;
  int max_moves = 256;
  std::string declaration = "Jishogi 1.1";
  std::vector<std::string> extra_lines{};  // inserted before BEGIN Time (unknown keys)
};
std::string game_summary(const SummarySpec& spec);
// "P1..P9, P+, P-, side" lines for an SFEN.
std::string csa_position_lines(const std::string& sfen);

struct Step {
  enum class Kind { Send, Expect, ClientMove, OpponentMove, Pause, Close };
  Kind kind = Kind::Send;
  std::string text;  // Send: the lines; Expect: regex; OpponentMove: the move (empty: first legal, "LAST")
  int t_sec = 1;     // ClientMove / OpponentMove: the ,T written
  milliseconds pause{0};
};

class Script {
 public:
  Script& send(const std::string& lines);    // lines separated by '\n'
  Script& expect(const std::string& regex);  // the next non-empty client line must match (whole line)
  Script& client_move(int t_sec = 1);        // a legal move of the client's colour, echoed with ,T<t>
  Script& opponent_move(int t_sec = 1, const std::string& csa = "");
  Script& moves(int plies, int t_sec = 1);  // client/opponent moves as the side to move says
  Script& pause(milliseconds d);
  Script& close();
  // LOGIN <user> <anything> -> LOGIN:<user> OK; the summary; AGREE -> START.
  Script& login(const std::string& user = "tester");
  Script& summary_and_start(const SummarySpec& spec);

  std::vector<Step> steps;
  SummarySpec spec;  // the position the referee plays from (set by summary_and_start)
};

struct ReceivedLine {
  Clock::time_point time;
  std::string text;
};

class Referee {
 public:
  explicit Referee(Script script);

  struct Action {
    enum class Kind { Send, NeedLine, Pause, Close, Done };
    Kind kind = Kind::Done;
    std::string text;
    milliseconds pause{0};
  };
  // The next thing to do. Send actions come one line at a time.
  Action next();
  // A client line for the current NeedLine step. Empty lines (keep-alives) never satisfy a step.
  void on_line(const std::string& line, Clock::time_point t);
  // What the current NeedLine step waits for (for error messages).
  std::string waiting_for() const;

  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<ReceivedLine>& received() const { return received_; }
  const std::vector<std::string>& comments() const { return comments_; }  // ,'... of client moves
  void fail(const std::string& why);

 private:
  Script script_;
  std::size_t step_ = 0;
  std::deque<std::string> pending_;  // lines to send before the next step
  bool closed_ = false;
  shogi::GameRecord game_;
  shogi::Color client_ = shogi::BLACK;
  std::vector<std::string> errors_;
  std::vector<ReceivedLine> received_;
  std::vector<std::string> comments_;
};

// In memory: the client's send() feeds the referee, receive() hands out its lines. If the client waits for the
// server while the script waits for the client (a broken test), receive() reports Closed instead of hanging.
class ScriptLink final : public arena::csa::ServerLink {
 public:
  explicit ScriptLink(std::shared_ptr<Referee> referee);
  bool send(std::string_view line) override;
  arena::csa::LinkEvent receive(arena::csa::Deadline deadline) override;
  void close() override { closed_ = true; }

 private:
  void run();  // advances the referee until it needs a client line
  struct Out {
    Clock::time_point due;
    std::string text;
    bool close = false;
  };
  std::shared_ptr<Referee> ref_;
  std::deque<Out> out_;
  Clock::time_point next_due_;
  bool closed_ = false;
  bool waiting_ = false;
  bool done_ = false;
};

// A listening socket on 127.0.0.1 and a thread that serves one script per accepted connection, in order.
class TcpScriptServer {
 public:
  explicit TcpScriptServer(std::vector<Script> scripts, bool echo_keep_alive = true);
  ~TcpScriptServer();  // waits for the thread
  int port() const { return port_; }
  // Waits for the thread (all scripts run or failed) and returns the referees.
  std::vector<std::shared_ptr<Referee>> finish();
  std::vector<std::string> errors();

 private:
  void serve();
  int listen_fd_ = -1;
  int port_ = 0;
  bool echo_keep_alive_;
  std::vector<std::shared_ptr<Referee>> referees_;
  std::thread thread_;
  bool joined_ = false;
};

// A fresh, empty directory under the system's temporary directory.
std::string fresh_dir(const std::string& name);

}  // namespace csa_test

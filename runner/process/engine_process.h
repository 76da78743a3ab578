#pragma once
// One engine child process: started from argv (never through a shell), stdout read line by line with absolute
// deadlines, lines written to stdin, stderr appended to a log file, and a shutdown that always reaps the child.
// I/O failures come back as values; only start() reports errors as text because a failed start is a set-up error.
//
// Threading: an EventLoop and every process on it belong to one thread (one game). Each process keeps a read
// pending on its stdout at all times and queues the lines it receives, so while the game waits for one engine's
// bestmove, the other engine's output (a pondering engine's info lines) is drained too and cannot block it.
// Boost.Asio and Boost.Process stay in the .cpp.

#include <chrono>
#include <cstddef>
#include <expected>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace arena::process {

using SteadyClock = std::chrono::steady_clock;
using Deadline = SteadyClock::time_point;

// The event loop shared by the processes of one game thread. Not thread-safe: use it from one thread.
class EventLoop {
 public:
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

enum class IoStatus {
  Ok,
  Timeout,       // the deadline passed first; the process may still answer later
  Disconnected,  // EOF on stdout or a broken stdin pipe: the engine is gone
};
std::string_view to_string(IoStatus status);

// One line of I/O for logs: `direction` is '>' for a line sent to the engine, '<' for a line read from it.
struct IoEvent {
  SteadyClock::time_point time;
  char direction;
  std::string_view text;
};
using IoLogger = std::function<void(const IoEvent&)>;

struct ProcessSpec {
  std::filesystem::path executable;  // run as given: no PATH search, no shell
  std::vector<std::string> args;     // argv[1..]
  std::filesystem::path working_dir;  // empty: inherit the runner's
  // The child's stderr is appended to this file (created if needed) without a pipe, so the child can never
  // block on it and nobody has to drain it. Empty: stderr goes to /dev/null.
  std::filesystem::path stderr_log;
  // Every line in and out is appended here as "<seconds since start> <name> <direction> <text>". Optional.
  std::filesystem::path io_log;
  IoLogger io_logger;           // called for every line in and out, if set
  std::string name;             // used in log lines
  std::size_t max_line = 1 << 20;  // longer lines are split so a newline-less engine cannot grow memory forever
  // Lines read ahead and not yet consumed; beyond it reading pauses until the game catches up (back-pressure).
  std::size_t max_queued_lines = 100000;
  // The child gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG), and so when the runner
  // dies in any way, kill -9 included: an engine must not outlive a Slurm task that was killed. Linux ties this
  // to the starting *thread*, so set it only where that thread outlives the engine (a tournament's workers).
  bool die_with_starting_thread = false;
};

struct ReadResult {
  IoStatus status = IoStatus::Timeout;
  // Without the line terminator ('\n' and a trailing '\r' are removed). It points into the process's own buffer
  // and is valid until the next read_line or try_read_line on the same process: copy it to keep it. (The buffers
  // are reused, so that reading the lines of a game allocates nothing.)
  std::string_view line;
  SteadyClock::time_point time;  // when the line was taken off the pipe (status Ok)
};

class EngineProcess {
 public:
  // Starts the child. The error names the executable and the reason (not found, not executable, bad directory).
  static std::expected<std::unique_ptr<EngineProcess>, std::string> start(std::shared_ptr<EventLoop> loop,
                                                                           ProcessSpec spec);
  // The same with a private event loop.
  static std::expected<std::unique_ptr<EngineProcess>, std::string> start(ProcessSpec spec);

  // Closes stdin, waits a short grace period, then kills and reaps.
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // The next line from stdout that arrived by `deadline`. Deadline is absolute: an info flood must not buy
  // thinking time. A line that arrived earlier (while another read was waiting) is returned even when the call
  // comes after the deadline; its time says when it came. Disconnected once the queue is empty and stdout is
  // closed.
  ReadResult read_line(Deadline deadline);
  // A line already received, without waiting for the child (Timeout if there is none).
  ReadResult try_read_line();
  // Writes `line` and a newline. A child that does not read its stdin makes this time out at `deadline`.
  IoStatus write_line(std::string_view line, Deadline deadline);
  IoStatus write_line(std::string_view line) { return write_line(line, SteadyClock::now() + std::chrono::seconds(10)); }
  // Several lines in one write(2), e.g. `position` and `go`: one system call a move instead of two. Each line is
  // logged on its own.
  IoStatus write_lines(std::initializer_list<std::string_view> lines, Deadline deadline);

  // Stops the child: closes stdin (the USI `quit` is the client's business), waits up to `grace` for it to exit,
  // then sends SIGKILL. Always reaps. Returns true if it exited by itself within the grace period.
  bool terminate(std::chrono::milliseconds grace);

  pid_t pid() const;
  bool exited() const;     // reaped (by terminate) or found dead by poll_exit
  bool poll_exit();        // non-blocking: reaps the child if it has exited; true if it has
  int exit_status() const; // waitpid status once exited (use WIFEXITED etc.)
  const std::string& name() const;
  std::shared_ptr<EventLoop> loop() const;

  struct Impl;

 private:
  explicit EngineProcess(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

}  // namespace arena::process

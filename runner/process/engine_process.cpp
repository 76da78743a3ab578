#include "engine_process.h"
#include "process/sigpipe.h"

// Boost.System and Boost.Process v2 are used header-only; std::filesystem replaces Boost.Filesystem, whose 1.81
// library is not installed (BOOST_PROCESS_USE_STD_FS is set by this target's CMakeLists.txt). In 1.81 that mode
// forgets a few includes it still relies on (boost::optional, boost::decay, boost::is_convertible).
#include <boost/optional.hpp>
#include <boost/type_traits/decay.hpp>
#include <boost/type_traits/is_convertible.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace arena::process {

namespace asio = boost::asio;
namespace bp = boost::process::v2;
using boost::system::error_code;

struct EventLoop::Impl {
  // One thread drives the loop, so the scheduler needs no locking beyond Asio's single-thread hint.
  asio::io_context io{1};

  // A handler may have stopped the context when it ran out of work; later runs must not return at once.
  void ready() {
    if (io.stopped()) io.restart();
  }
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}
EventLoop::~EventLoop() = default;

std::string_view to_string(IoStatus status) {
  switch (status) {
    case IoStatus::Ok: return "ok";
    case IoStatus::Timeout: return "timeout";
    case IoStatus::Disconnected: return "disconnected";
  }
  return "?";
}

namespace {

// The same epoch for every process, so I/O logs of the two engines of a game interleave correctly.
const SteadyClock::time_point kLogEpoch = SteadyClock::now();

// Runs in the child between fork and exec.
struct ChildSetup {
  bool die_with_parent = false;
  pid_t parent = ::getpid();  // taken before the fork

  error_code on_exec_setup(bp::posix::default_launcher&, const bp::filesystem::path&, const char* const*) {
    // The runner ignores SIGPIPE (a write to an engine that died is a disconnect); the engine gets the default.
    default_sigpipe_in_child();
    // Its own process group: a Ctrl-C in the terminal reaches the runner, which shuts engines down in order,
    // and a kill reaches helper processes the engine may have started.
    ::setpgid(0, 0);
    if (die_with_parent) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      // The runner may have died between the fork and the prctl: then nobody would send the signal.
      if (::getppid() != parent) ::_exit(127);
    }
    return {};
  }
};

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return int(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// The lines read ahead and not yet taken, oldest first: a ring of strings that keep their buffers, so that once
// a game's first lines have sized them, queuing and taking a line allocates nothing.
class LineRing {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  SteadyClock::time_point front_time() const { return slots_[head_].time; }

  void push(std::string_view text, SteadyClock::time_point time) {
    if (count_ == slots_.size()) grow();
    Line& slot = slots_[(head_ + count_) % slots_.size()];
    slot.text.assign(text);
    slot.time = time;
    ++count_;
  }

  // Swaps the oldest line into `out`; the slot keeps `out`'s old buffer for a later line.
  void pop_into(std::string& out) {
    Line& slot = slots_[head_];
    out.swap(slot.text);
    // A buffer sized by one huge line is not kept in every slot the ring cycles through.
    if (slot.text.capacity() > kKeptCapacity) std::string().swap(slot.text);
    head_ = (head_ + 1) % slots_.size();
    // After a flood (up to max_queued_lines) the ring goes back to a small size once it is drained.
    if (--count_ == 0 && slots_.size() > kMostKeptSlots) {
      slots_.clear();
      head_ = 0;
      grow();
    }
  }

 private:
  struct Line {
    std::string text;
    SteadyClock::time_point time;
  };
  static constexpr std::size_t kFirstSlots = 8;  // a search's lines rarely wait more than a few at a time
  static constexpr std::size_t kMostKeptSlots = 64;
  static constexpr std::size_t kUsualLine = 256;  // an info line with a pv of a dozen moves
  static constexpr std::size_t kKeptCapacity = 4096;

  void grow() {
    std::vector<Line> bigger(std::max(kFirstSlots, slots_.size() * 2));
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = std::move(slots_[(head_ + i) % slots_.size()]);
    // Sized once for a usual line, so that the first lines through each slot do not each grow it.
    for (std::size_t i = count_; i < bigger.size(); ++i) bigger[i].text.reserve(kUsualLine);
    slots_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<Line> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace

struct EngineProcess::Impl : std::enable_shared_from_this<Impl> {
  Impl(std::shared_ptr<EventLoop> l, ProcessSpec s)
      : loop(std::move(l)),
        spec(std::move(s)),
        io(loop->impl().io),
        to_child(io),
        from_child(io),
        timer(io) {}

  ~Impl() {
    if (io_log) std::fclose(io_log);
  }

  std::shared_ptr<EventLoop> loop;
  ProcessSpec spec;
  asio::io_context& io;
  asio::writable_pipe to_child;
  asio::readable_pipe from_child;
  asio::steady_timer timer;
  pid_t pid = -1;
  bool reaped = false;
  int status = 0;
  std::FILE* io_log = nullptr;

  std::array<char, 4096> chunk;  // what the last read brought
  std::string partial;           // a line whose newline has not come yet
  LineRing lines;
  std::string taken;  // the line last returned by read_line; ReadResult::line points into it
  bool reading = false;
  bool eof = false;
  bool stdin_broken = false;
  std::string write_buffer;

  void log(char direction, std::string_view text, SteadyClock::time_point t) {
    if (spec.io_logger) spec.io_logger(IoEvent{t, direction, text});
    if (io_log) {
      double seconds = std::chrono::duration<double>(t - kLogEpoch).count();
      std::fprintf(io_log, "%.6f %s %c %.*s\n", seconds, spec.name.c_str(), direction, int(text.size()), text.data());
      std::fflush(io_log);
    }
  }

  void push_line(std::string_view text, SteadyClock::time_point t) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    log('<', text, t);
    lines.push(text, t);
  }

  // Keeps exactly one read pending while the child is alive and the queue has room. Raw reads into a fixed
  // chunk, not read_until on a growing string: Asio would zero-fill the string's spare room before every read.
  void start_read() {
    if (reading || eof || lines.size() >= spec.max_queued_lines) return;
    reading = true;
    from_child.async_read_some(asio::buffer(chunk), [self = shared_from_this()](const error_code& ec, std::size_t n) {
      self->on_read(ec, n);
    });
  }

  void on_read(const error_code& ec, std::size_t n) {
    reading = false;
    if (ec == asio::error::operation_aborted) {
      // We closed the pipe: nothing more will come. A later read_line must not wait on a loop with no work.
      eof = true;
      return;
    }
    auto now = SteadyClock::now();
    if (ec) {
      // EOF or a read error: the child closed stdout, i.e. it died or is exiting. A last line without its
      // newline is not lost.
      if (!partial.empty()) push_line(partial, now);
      partial.clear();
      eof = true;
      return;
    }
    // The chunk may hold several lines: take them all now, each stamped with the time it was read.
    std::string_view data(chunk.data(), n);
    for (auto newline = data.find('\n'); newline != std::string_view::npos; newline = data.find('\n')) {
      const std::string_view piece = data.substr(0, newline);
      if (partial.empty() && piece.size() <= spec.max_line) {
        push_line(piece, now);  // the usual case: the whole line is in this chunk
      } else {
        keep_partial(piece, now);
        push_line(partial, now);
        partial.clear();
      }
      data.remove_prefix(newline + 1);
    }
    keep_partial(data, now);
    start_read();
  }

  // Keeps the start of a line until its newline comes. max_line bytes without one are handed over as a line,
  // so that a newline-less engine cannot grow the runner's memory.
  void keep_partial(std::string_view piece, SteadyClock::time_point now) {
    const std::size_t max_line = std::max<std::size_t>(spec.max_line, 1);
    while (partial.size() + piece.size() > max_line) {
      const std::size_t take = max_line - partial.size();
      partial.append(piece.substr(0, take));
      push_line(partial, now);
      partial.clear();
      piece.remove_prefix(take);
    }
    partial.append(piece);
  }

  ReadResult pop() {
    ReadResult r{IoStatus::Ok, {}, lines.front_time()};
    lines.pop_into(taken);
    r.line = taken;
    start_read();  // resumes reading if back-pressure had paused it
    return r;
  }

  // A queued line counts only if it arrived by the deadline; later lines stay queued for the next read.
  ReadResult take(Deadline deadline) {
    if (!lines.empty()) {
      if (lines.front_time() <= deadline) return pop();
      return {IoStatus::Timeout, {}, {}};
    }
    if (eof) return {IoStatus::Disconnected, {}, {}};
    return {IoStatus::Timeout, {}, {}};
  }

  ReadResult try_read_line() {
    if (lines.empty() && !eof) {
      loop->impl().ready();
      io.poll();
    }
    return take(Deadline::max());
  }

  ReadResult read_line(Deadline deadline) {
    // The wait is epoll_wait's own timeout (run_one_until), not a timer: arming and cancelling a timerfd on every
    // read cost two system calls a line. It wakes within a millisecond after the deadline at worst.
    while (lines.empty() && !eof && SteadyClock::now() < deadline) {
      loop->impl().ready();
      io.run_one_until(deadline);
    }
    return take(deadline);
  }

  IoStatus write_lines(std::initializer_list<std::string_view> texts, Deadline deadline) {
    if (stdin_broken || !to_child.is_open()) return IoStatus::Disconnected;
    const auto now = SteadyClock::now();
    write_buffer.clear();
    for (std::string_view text : texts) {
      log('>', text, now);
      write_buffer.append(text);
      write_buffer.push_back('\n');
    }
    // Fast path: the pipe has room (almost always), one write(2) and no event loop.
    std::size_t done = 0;
    int fd = to_child.native_handle();
    while (done < write_buffer.size()) {
      ssize_t n = ::write(fd, write_buffer.data() + done, write_buffer.size() - done);
      if (n >= 0) {
        done += std::size_t(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      stdin_broken = true;  // EPIPE: the child closed its stdin, i.e. it is gone
      return IoStatus::Disconnected;
    }
    if (done == write_buffer.size()) return IoStatus::Ok;

    // The child is not reading its stdin and the pipe is full: wait for room until the deadline.
    bool finished = false;
    bool expired = false;
    bool timer_pending = true;
    error_code write_error;
    asio::async_write(to_child, asio::buffer(write_buffer.data() + done, write_buffer.size() - done),
                      [&](const error_code& ec, std::size_t) {
                        finished = true;
                        write_error = ec;
                      });
    timer.expires_at(deadline);
    timer.async_wait([&](const error_code& ec) {
      timer_pending = false;
      if (!ec) expired = true;
    });
    while (!finished && !expired) {
      loop->impl().ready();
      io.run_one();
    }
    if (!finished) to_child.cancel();
    timer.cancel();
    while (!finished || timer_pending) {
      loop->impl().ready();
      io.run_one();
    }
    if (!write_error) return IoStatus::Ok;
    // Half a line may be in the pipe: the stream cannot be trusted any more.
    stdin_broken = true;
    return write_error == asio::error::operation_aborted ? IoStatus::Timeout : IoStatus::Disconnected;
  }

  bool poll_exit() {
    if (reaped) return true;
    int st = 0;
    pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      reaped = true;
      status = st;
    }
    return reaped;
  }

  // Waits up to `timeout` for the child to exit and reaps it. A pidfd wakes us exactly when it exits; without
  // one (old kernels) we poll waitpid every millisecond.
  bool wait_exit(std::chrono::milliseconds timeout) {
    if (poll_exit()) return true;
    Deadline deadline = SteadyClock::now() + timeout;
    int pidfd = open_pidfd(pid);
    while (!poll_exit()) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
      if (left.count() <= 0) break;
      if (pidfd >= 0) {
        pollfd p{pidfd, POLLIN, 0};
        ::poll(&p, 1, int(left.count()));
      } else {
        std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(1)));
      }
    }
    if (pidfd >= 0) ::close(pidfd);
    return reaped;
  }

  void close_pipes() {
    error_code ignored;
    if (to_child.is_open()) to_child.close(ignored);
    if (from_child.is_open()) from_child.close(ignored);
    // Let the aborted read run now so it releases its reference to this Impl.
    loop->impl().ready();
    io.poll();
  }

  bool terminate(std::chrono::milliseconds grace) {
    if (reaped) {
      close_pipes();
      return true;
    }
    error_code ignored;
    // EOF on stdin is the last word a USI engine gets; most of them exit on it even without `quit`.
    if (to_child.is_open()) to_child.close(ignored);
    bool by_itself = wait_exit(grace);
    if (!by_itself) {
      // The whole group, so helpers started by the engine die too; the pid cannot have been reused because
      // the child is not reaped yet.
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      int st = 0;
      while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
      reaped = true;
      status = st;
    }
    close_pipes();
    return by_itself;
  }
};

std::expected<std::unique_ptr<EngineProcess>, std::string> EngineProcess::start(std::shared_ptr<EventLoop> loop,
                                                                                 ProcessSpec spec) {
  ignore_sigpipe();
  if (spec.name.empty()) spec.name = spec.executable.filename().string();
  auto impl = std::make_shared<Impl>(std::move(loop), std::move(spec));
  const ProcessSpec& s = impl->spec;
  auto fail = [&](const std::string& why) {
    return std::unexpected("cannot start engine '" + s.name + "' (" + s.executable.string() + "): " + why);
  };

  // The child changes directory before exec, so a relative executable is resolved against ours first.
  std::error_code fs_error;
  std::filesystem::path exe = std::filesystem::absolute(s.executable, fs_error);
  if (fs_error) return fail(fs_error.message());
  std::filesystem::path dir = s.working_dir.empty() ? std::filesystem::current_path(fs_error) : s.working_dir;
  if (fs_error) return fail(fs_error.message());

  int err_fd = -1;
  if (!s.stderr_log.empty()) {
    err_fd = ::open(s.stderr_log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err_fd < 0) return fail("cannot open stderr log " + s.stderr_log.string() + ": " + std::strerror(errno));
  } else {
    err_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  }
  if (!s.io_log.empty()) {
    impl->io_log = std::fopen(s.io_log.c_str(), "a");
    if (!impl->io_log) {
      ::close(err_fd);
      return fail("cannot open I/O log " + s.io_log.string() + ": " + std::strerror(errno));
    }
  }

  error_code ec;
  bp::process child = [&] {
    bp::process_stdio stdio{impl->to_child, impl->from_child, err_fd};
    // The executor overload: in 1.81 the (context, error_code&) overload drops the error_code and throws.
    return bp::default_process_launcher()(impl->io.get_executor(), ec, exe, s.args, std::move(stdio), bp::process_start_dir{dir},
                                          ChildSetup{s.die_with_starting_thread});
  }();
  ::close(err_fd);  // the child has its copy
  if (ec) return fail(ec.message());
  impl->pid = child.id();
  // We reap the child ourselves; the Boost handle would otherwise waitpid/kill by pid in its destructor,
  // possibly long after the pid was reaped and reused.
  child.detach();

  // Writes go straight to write(2); a full pipe must not block the game thread.
  int fd = impl->to_child.native_handle();
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  impl->taken.reserve(256);  // it trades buffers with the ring's slots, which are sized alike
  impl->start_read();
  return std::unique_ptr<EngineProcess>(new EngineProcess(std::move(impl)));
}

std::expected<std::unique_ptr<EngineProcess>, std::string> EngineProcess::start(ProcessSpec spec) {
  return start(std::make_shared<EventLoop>(), std::move(spec));
}

EngineProcess::EngineProcess(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

EngineProcess::~EngineProcess() { impl_->terminate(std::chrono::milliseconds(100)); }

ReadResult EngineProcess::read_line(Deadline deadline) { return impl_->read_line(deadline); }

ReadResult EngineProcess::try_read_line() { return impl_->try_read_line(); }

IoStatus EngineProcess::write_line(std::string_view line, Deadline deadline) {
  return impl_->write_lines({line}, deadline);
}

IoStatus EngineProcess::write_lines(std::initializer_list<std::string_view> lines, Deadline deadline) {
  return impl_->write_lines(lines, deadline);
}

bool EngineProcess::terminate(std::chrono::milliseconds grace) { return impl_->terminate(grace); }

pid_t EngineProcess::pid() const { return impl_->pid; }
bool EngineProcess::exited() const { return impl_->reaped; }
bool EngineProcess::poll_exit() { return impl_->poll_exit(); }
int EngineProcess::exit_status() const { return impl_->status; }
const std::string& EngineProcess::name() const { return impl_->spec.name; }
std::shared_ptr<EventLoop> EngineProcess::loop() const { return impl_->loop; }

}  // namespace arena::process

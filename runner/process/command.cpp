#include "process/command.h"
#include "process/find_executable.h"
#include "process/sigpipe.h"

// As in engine_process.cpp: Boost.Process v2 header-only with std::filesystem, and the includes 1.81 forgets.
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/optional.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>
#include <boost/type_traits/decay.hpp>
#include <boost/type_traits/is_convertible.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace arena::process {

namespace asio = boost::asio;
namespace bp = boost::process::v2;

namespace {

// Runs in the child between fork and exec (see sigpipe.h: a build script's `yes | head` must still end).
struct DefaultSigpipe {
  boost::system::error_code on_exec_setup(bp::posix::default_launcher&, const bp::filesystem::path&,
                                          const char* const*) {
    default_sigpipe_in_child();
    return {};
  }
};

}  // namespace

std::string CommandResult::describe(const std::string& program) const {
  if (!started) return program + ": cannot run it: " + error;
  if (timed_out) return program + ": no answer in time (killed)";
  std::string first = err.empty() ? out : err;
  if (size_t nl = first.find('\n'); nl != std::string::npos) first.resize(nl);
  return program + ": exit " + std::to_string(exit_code) + (first.empty() ? "" : ": " + first);
}

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  CommandOptions options;
  options.timeout = timeout;
  return run_command(argv, options);
}

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  CommandResult r;
  if (argv.empty()) {
    r.error = "no command";
    return r;
  }
  asio::io_context io;
  asio::readable_pipe out(io), err(io);
  asio::writable_pipe in(io);
  boost::system::error_code ec;
  const auto found = find_executable(argv[0]);
  if (!found) {
    r.error = not_found_text(argv[0]);
    return r;
  }
  std::FILE* log = nullptr;
  if (!options.log_file.empty()) {
    log = std::fopen(options.log_file.c_str(), "ab");
    if (!log) {
      r.error = "cannot write " + options.log_file;
      return r;
    }
  }
  struct CloseLog {
    std::FILE* f;
    ~CloseLog() {
      if (f) std::fclose(f);
    }
  } close_log{log};
  const std::filesystem::path exe = *found;
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  const std::filesystem::path dir =
      options.working_dir.empty() ? std::filesystem::current_path() : std::filesystem::path(options.working_dir);
  // A process_stdio is built in one piece: its bindings own the pipe ends they create.
  auto launch = [&](bp::process_stdio stdio) {
    return bp::default_process_launcher()(io.get_executor(), ec, exe, args, stdio, bp::process_start_dir(dir),
                                          DefaultSigpipe{});
  };
  const bool input = !options.input.empty();
  if (input) ignore_sigpipe();
  bp::process proc = input ? (log ? launch(bp::process_stdio{in, log, log}) : launch(bp::process_stdio{in, out, err}))
                           : (log ? launch(bp::process_stdio{nullptr, log, log})
                                  : launch(bp::process_stdio{nullptr, out, err}));
  if (ec) {
    r.error = ec.message();
    return r;
  }
  r.started = true;
  int open = 0;
  auto done = [&](const boost::system::error_code&, size_t) { --open; };
  if (!log) {
    open = 2;
    asio::async_read(out, asio::dynamic_buffer(r.out), done);
    asio::async_read(err, asio::dynamic_buffer(r.err), done);
  }
  if (!options.input.empty()) {
    ++open;
    asio::async_write(in, asio::buffer(options.input), [&](const boost::system::error_code&, size_t) {
      boost::system::error_code ignored;
      in.close(ignored);  // end of input: an engine reading its commands sees EOF
      --open;
    });
  }
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  while (open > 0 && io.run_one_until(deadline) > 0) {
  }
  // Its output is closed (or goes to the log); it may still run: wait for it until the deadline too.
  bool running = true;
  while (open == 0 && std::chrono::steady_clock::now() < deadline) {
    running = proc.running(ec);
    if (!running || ec) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!running && !ec) {  // reaped by running(): its status is kept
    r.exit_code = proc.exit_code();
    return r;
  }
  r.timed_out = true;
  proc.terminate(ec);
  proc.wait(ec);
  return r;
}

}  // namespace arena::process

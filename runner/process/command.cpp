#include "process/command.h"
#include "process/find_executable.h"

// As in engine_process.cpp: Boost.Process v2 header-only with std::filesystem, and the includes 1.81 forgets.
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/optional.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <boost/type_traits/decay.hpp>
#include <boost/type_traits/is_convertible.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

namespace arena::process {

namespace asio = boost::asio;
namespace bp = boost::process::v2;

std::string CommandResult::describe(const std::string& program) const {
  if (!started) return program + ": cannot run it: " + error;
  if (timed_out) return program + ": no answer in time (killed)";
  std::string first = err.empty() ? out : err;
  if (size_t nl = first.find('\n'); nl != std::string::npos) first.resize(nl);
  return program + ": exit " + std::to_string(exit_code) + (first.empty() ? "" : ": " + first);
}

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  CommandResult r;
  if (argv.empty()) {
    r.error = "no command";
    return r;
  }
  asio::io_context io;
  asio::readable_pipe out(io), err(io);
  boost::system::error_code ec;
  const auto found = find_executable(argv[0]);
  if (!found) {
    r.error = not_found_text(argv[0]);
    return r;
  }
  const std::filesystem::path exe = *found;
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  bp::process proc =
      bp::default_process_launcher()(io.get_executor(), ec, exe, args, bp::process_stdio{nullptr, out, err});
  if (ec) {
    r.error = ec.message();
    return r;
  }
  r.started = true;
  int open = 2;
  auto done = [&](const boost::system::error_code&, size_t) { --open; };
  asio::async_read(out, asio::dynamic_buffer(r.out), done);
  asio::async_read(err, asio::dynamic_buffer(r.err), done);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (open > 0 && io.run_one_until(deadline) > 0) {
  }
  // Its output is closed; it may still run (or a grandchild kept the pipes): wait for it until the deadline too.
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

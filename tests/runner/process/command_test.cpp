// run_command: output, exit codes, PATH lookup, the deadline (also for a child that closed its output but
// keeps running), the working directory, standard input and a log file.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "process/command.h"

using namespace arena::process;
using namespace std::chrono_literals;

TEST_CASE("run_command captures output and the exit code") {
  CommandResult r = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"});
  CHECK(r.started);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK_FALSE(r.ok());
  CHECK(r.describe("sh") == "sh: exit 3: err");
  CHECK(run_command({"true"}).ok());
}

TEST_CASE("run_command: a program that is not there") {
  CommandResult r = run_command({"no-such-program-shogi-arena"});
  CHECK_FALSE(r.started);
  CHECK(r.describe("no-such-program-shogi-arena") ==
        "no-such-program-shogi-arena: cannot run it: 'no-such-program-shogi-arena' was not found on PATH, in "
        "/usr/games or beside shogi-arena");
  CHECK_FALSE(run_command({}).started);
}

TEST_CASE("run_command keeps its deadline, also when the child closed its output and runs on") {
  auto t0 = std::chrono::steady_clock::now();
  CommandResult slow = run_command({"sleep", "5"}, 200ms);
  CHECK(slow.timed_out);
  CHECK(std::chrono::steady_clock::now() - t0 < 3s);
  t0 = std::chrono::steady_clock::now();
  CommandResult closed = run_command({"sh", "-c", "exec >&- 2>&-; sleep 5"}, 200ms);
  CHECK(closed.timed_out);
  CHECK_FALSE(closed.ok());
  CHECK(std::chrono::steady_clock::now() - t0 < 3s);
}

TEST_CASE("run_command: a working directory, standard input, and output appended to a log file") {
  const std::string dir = "/tmp/shogi-arena-command-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  CommandOptions o;
  o.working_dir = dir;
  CommandResult here = run_command({"sh", "-c", "pwd"}, o);
  CHECK(here.ok());
  CHECK(here.out == dir + "\n");
  o.input = "bench\nquit\n";
  CommandResult read = run_command({"sh", "-c", "read a; read b; echo \"$b $a\""}, o);
  CHECK(read.ok());
  CHECK(read.out == "quit bench\n");
  // A child that never reads its input is not blocked by it, nor are we.
  CHECK(run_command({"true"}, o).ok());
  o.input.clear();
  o.log_file = dir + "/build.log";
  CHECK(run_command({"sh", "-c", "echo one; echo two >&2"}, o).ok());
  CommandResult failed = run_command({"sh", "-c", "echo three; exit 4"}, o);
  CHECK(failed.exit_code == 4);
  CHECK(failed.out.empty());
  std::ifstream in(o.log_file);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(log == "one\ntwo\nthree\n");
  o.log_file = "/nonexistent/dir/log";
  CommandResult unwritable = run_command({"true"}, o);
  CHECK_FALSE(unwritable.started);
  CHECK(unwritable.error == "cannot write /nonexistent/dir/log");
  std::filesystem::remove_all(dir);
}

TEST_CASE("run_command: the child gets the default SIGPIPE even where the runner ignores it") {
  std::signal(SIGPIPE, SIG_IGN);  // as shogi-arena's main does
  // The child's ignored signals, as the kernel reports them: SIGPIPE (13) is bit 12 of the SigIgn mask.
  CommandResult r = run_command({"cat", "/proc/self/status"});
  std::signal(SIGPIPE, SIG_DFL);
  REQUIRE(r.ok());
  const size_t at = r.out.find("SigIgn:");
  REQUIRE(at != std::string::npos);
  const unsigned long long ignored = std::stoull(r.out.substr(at + 7), nullptr, 16);
  CHECK((ignored & (1ull << (SIGPIPE - 1))) == 0);
}

// run_command: output, exit codes, PATH lookup, and the deadline, also for a child that closed its output but
// keeps running.
#include <doctest/doctest.h>

#include <chrono>

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
        "no-such-program-shogi-arena: cannot run it: 'no-such-program-shogi-arena' was not found on PATH or in "
        "/usr/games");
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

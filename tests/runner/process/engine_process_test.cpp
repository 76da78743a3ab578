// EngineProcess against small standard children (cat, sh, yes): deadlines, disconnects, shutdown and reaping.
// Test children may be shell scripts; the runner itself never goes through a shell.

#include "process/engine_process.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace arena::process;
using namespace std::chrono_literals;

namespace {

ProcessSpec sh(std::string script) {
  ProcessSpec spec;
  spec.executable = "/bin/sh";
  spec.args = {"-c", std::move(script)};
  spec.name = "sh";
  return spec;
}

std::unique_ptr<EngineProcess> must_start(ProcessSpec spec, std::shared_ptr<EventLoop> loop = nullptr) {
  auto p = loop ? EngineProcess::start(loop, std::move(spec)) : EngineProcess::start(std::move(spec));
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : p.error()));
  return std::move(*p);
}

// The pid is gone for good: reaped by us, so not even a zombie is left.
bool pid_gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

// A process we do not reap ourselves (a grandchild) counts as gone once it is dead: whether init reaps the
// zombie is not ours to decide (a container's pid 1 may not).
bool dead(pid_t pid) {
  if (pid_gone(pid)) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

bool pid_gone_soon(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (dead(pid)) return true;
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

std::filesystem::path temp_file(const std::string& name) {
  auto p = std::filesystem::temp_directory_path() / ("engine_process_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove(p);
  return p;
}

double ms(SteadyClock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

TEST_CASE("a line written to cat comes back; round-trip cost") {
  ProcessSpec spec;
  spec.executable = "/bin/cat";
  auto p = must_start(spec);
  REQUIRE(p->write_line("hello world") == IoStatus::Ok);
  auto r = p->read_line(SteadyClock::now() + 2s);
  REQUIRE(r.status == IoStatus::Ok);
  CHECK(r.line == "hello world");

  // Several lines in one write come back as they were.
  REQUIRE(p->write_lines({"position startpos", "go byoyomi 1000"}, SteadyClock::now() + 2s) == IoStatus::Ok);
  CHECK(p->read_line(SteadyClock::now() + 2s).line == "position startpos");
  CHECK(p->read_line(SteadyClock::now() + 2s).line == "go byoyomi 1000");

  // Carriage returns from engines written on Windows are dropped.
  REQUIRE(p->write_line("crlf\r") == IoStatus::Ok);
  CHECK(p->read_line(SteadyClock::now() + 2s).line == "crlf");

  constexpr int N = 10000;
  std::vector<double> us;
  us.reserve(N);
  const std::string line = "info depth 10 seldepth 14 score cp 31 nodes 123456 nps 500000 time 246 pv 7g7f 3c3d 2g2f";
  for (int i = 0; i < N; ++i) {
    auto t0 = SteadyClock::now();
    REQUIRE(p->write_line(line) == IoStatus::Ok);
    auto rr = p->read_line(t0 + 2s);
    auto t1 = SteadyClock::now();
    REQUIRE(rr.status == IoStatus::Ok);
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  double median = us[N / 2], p99 = us[N * 99 / 100];
  MESSAGE("cat line round trip over " << N << ": median " << median << " us, p99 " << p99 << " us");
  // Generous bound for a loaded 2-core box; the figure itself is what the overhead benchmark reports.
  CHECK(median < 1000.0);

  pid_t pid = p->pid();
  CHECK(p->terminate(2s));  // cat exits on EOF by itself
  CHECK(pid_gone(pid));
}

TEST_CASE("lines split across reads, many lines in one read, and lines longer than max_line") {
  ProcessSpec spec =
      sh("printf 'one\\ntw'; sleep 0.1; printf 'o\\nthree\\n'; sleep 0.1; "
         "head -c 250 /dev/zero | tr '\\0' x; printf '\\n'; head -c 120 /dev/zero | tr '\\0' y; sleep 0.1; "
         "head -c 100 /dev/zero | tr '\\0' y; printf 'end\\n'; i=0; while [ $i -lt 300 ]; do echo line$i; i=$((i+1)); "
         "done; "
         "printf last");
  spec.max_line = 100;
  auto p = must_start(spec);
  std::vector<std::string> lines;
  for (ReadResult r; (r = p->read_line(SteadyClock::now() + 5s)).status == IoStatus::Ok;) lines.emplace_back(r.line);
  REQUIRE(lines.size() == 3 + 3 + 3 + 300 + 1);
  CHECK(lines[0] == "one");
  CHECK(lines[1] == "two");  // its halves came in two reads
  CHECK(lines[2] == "three");
  // 250 x: two lines of max_line and the rest.
  CHECK(lines[3] == std::string(100, 'x'));
  CHECK(lines[4] == std::string(100, 'x'));
  CHECK(lines[5] == std::string(50, 'x'));
  // 220 y and "end" over two reads: split at max_line the same way.
  CHECK(lines[6] == std::string(100, 'y'));
  CHECK(lines[7] == std::string(100, 'y'));
  CHECK(lines[8] == std::string(20, 'y') + "end");
  for (int i = 0; i < 300; ++i) CHECK(lines[9 + i] == "line" + std::to_string(i));  // more than the ring's first slots
  CHECK(lines.back() == "last");                                                    // no newline before EOF
}

TEST_CASE("reading after terminate is a disconnect at once, not a wait until the deadline") {
  auto p = must_start(sh("sleep 30"));
  p->terminate(std::chrono::milliseconds(50));
  auto t0 = SteadyClock::now();
  CHECK(p->read_line(t0 + 2s).status == IoStatus::Disconnected);
  CHECK(ms(SteadyClock::now() - t0) < 500.0);
}

TEST_CASE("read_line times out at the absolute deadline") {
  ProcessSpec spec;
  spec.executable = "/bin/cat";
  auto p = must_start(spec);
  auto t0 = SteadyClock::now();
  auto deadline = t0 + 150ms;
  auto r = p->read_line(deadline);
  auto t1 = SteadyClock::now();
  CHECK(r.status == IoStatus::Timeout);
  CHECK(t1 >= deadline);
  CHECK(ms(t1 - deadline) < 50.0);
  // A deadline already past returns at once.
  auto t2 = SteadyClock::now();
  CHECK(p->read_line(t2 - 1ms).status == IoStatus::Timeout);
  CHECK(ms(SteadyClock::now() - t2) < 5.0);
  // The process is still usable after a timeout.
  REQUIRE(p->write_line("x") == IoStatus::Ok);
  CHECK(p->read_line(SteadyClock::now() + 2s).line == "x");
}

TEST_CASE("a flood of lines does not extend the deadline") {
  ProcessSpec spec;
  spec.executable = "/usr/bin/yes";
  spec.args = {"info depth 1 score cp 0"};
  auto p = must_start(spec);
  auto t0 = SteadyClock::now();
  auto deadline = t0 + 200ms;
  long lines = 0;
  ReadResult r;
  long late = 0;
  while ((r = p->read_line(deadline)).status == IoStatus::Ok) {
    late += r.time > deadline;
    ++lines;
  }
  CHECK(late == 0);
  auto t1 = SteadyClock::now();
  CHECK(r.status == IoStatus::Timeout);
  CHECK(lines > 100);
  CHECK(ms(t1 - deadline) < 50.0);
  MESSAGE(lines << " flood lines read in 200 ms");
  pid_t pid = p->pid();
  CHECK_FALSE(p->terminate(100ms));  // yes ignores stdin EOF: it gets killed... or dies of EPIPE when we close
  CHECK(pid_gone(pid));
}

TEST_CASE("EOF on stdout is a disconnect; queued lines come first; exit status kept") {
  auto p = must_start(sh("echo one; printf two; exit 3"));
  auto r1 = p->read_line(SteadyClock::now() + 2s);
  CHECK(r1.status == IoStatus::Ok);
  CHECK(r1.line == "one");
  auto r2 = p->read_line(SteadyClock::now() + 2s);
  CHECK(r2.status == IoStatus::Ok);
  CHECK(r2.line == "two");  // a last line without newline is not lost
  CHECK(p->read_line(SteadyClock::now() + 2s).status == IoStatus::Disconnected);
  CHECK(p->read_line(SteadyClock::now() + 2s).status == IoStatus::Disconnected);
  // Writing to a dead child: EPIPE (SIGPIPE is ignored) is a disconnect, not a crash of the runner.
  std::this_thread::sleep_for(20ms);
  IoStatus w = IoStatus::Ok;
  for (int i = 0; i < 10 && w == IoStatus::Ok; ++i) w = p->write_line("usi");
  CHECK(w == IoStatus::Disconnected);
  pid_t pid = p->pid();
  CHECK(p->terminate(1s));
  CHECK(p->exited());
  CHECK(WIFEXITED(p->exit_status()));
  CHECK(WEXITSTATUS(p->exit_status()) == 3);
  CHECK(pid_gone(pid));
}

TEST_CASE("the engine gets the default SIGPIPE although the runner ignores it") {
  auto p = must_start(sh("grep SigIgn /proc/self/status"));
  // Starting an engine makes the runner ignore SIGPIPE (writes to a dead engine are disconnects).
  struct sigaction now {};
  ::sigaction(SIGPIPE, nullptr, &now);
  CHECK(reinterpret_cast<void*>(now.sa_handler) == reinterpret_cast<void*>(SIG_IGN));
  auto r = p->read_line(SteadyClock::now() + 2s);
  REQUIRE(r.status == IoStatus::Ok);
  const std::string line(r.line);
  REQUIRE(line.rfind("SigIgn:", 0) == 0);
  // SIGPIPE (13) is bit 12 of the kernel's mask of the child's ignored signals.
  const unsigned long long ignored = std::stoull(line.substr(7), nullptr, 16);
  CHECK((ignored & (1ull << (SIGPIPE - 1))) == 0);
}

TEST_CASE("terminate kills a child that does not exit within the grace period, with its helpers") {
  auto p = must_start(sh("sleep 30 & echo $!; wait"));
  auto r = p->read_line(SteadyClock::now() + 2s);
  REQUIRE(r.status == IoStatus::Ok);
  pid_t helper = std::stoi(std::string(r.line));
  pid_t pid = p->pid();
  auto t0 = SteadyClock::now();
  CHECK_FALSE(p->terminate(200ms));
  double took = ms(SteadyClock::now() - t0);
  CHECK(took >= 195.0);
  CHECK(took < 1000.0);
  CHECK(p->exited());
  CHECK(WIFSIGNALED(p->exit_status()));
  CHECK(WTERMSIG(p->exit_status()) == SIGKILL);
  CHECK(pid_gone(pid));
  CHECK(pid_gone_soon(helper));  // the whole process group was killed
  CHECK(p->terminate(10ms));     // idempotent
}

TEST_CASE("die_with_starting_thread: the engine is killed when the thread that started it ends") {
  // A child that ignores EOF on stdin (sleep does not read it): only the signal can stop it early.
  std::unique_ptr<EngineProcess> tied, untied;
  std::thread starter([&] {
    ProcessSpec spec = sh("exec sleep 30");
    spec.die_with_starting_thread = true;
    tied = must_start(spec);
    untied = must_start(sh("exec sleep 30"));
  });
  starter.join();
  // The starting thread is gone: as if the runner had been killed with kill -9.
  bool killed = false;
  for (int i = 0; i < 400 && !killed; ++i) {
    killed = tied->poll_exit();
    if (!killed) std::this_thread::sleep_for(5ms);
  }
  REQUIRE(killed);
  CHECK(WIFSIGNALED(tied->exit_status()));
  CHECK(WTERMSIG(tied->exit_status()) == SIGKILL);
  CHECK_FALSE(untied->poll_exit());  // without it the engine lives on
}

TEST_CASE("the destructor reaps") {
  pid_t pid;
  {
    auto p = must_start(sh("exec sleep 30"));
    pid = p->pid();
    CHECK_FALSE(pid_gone(pid));
  }
  CHECK(pid_gone(pid));
}

TEST_CASE("stderr goes to the log file and never blocks the child") {
  auto log = temp_file("stderr.log");
  // 1 MB of stderr is far more than a pipe buffer: a child writing into an undrained pipe would hang.
  auto spec = sh("head -c 1000000 /dev/zero >&2; echo done");
  spec.stderr_log = log;
  auto p = must_start(spec);
  auto r = p->read_line(SteadyClock::now() + 5s);
  CHECK(r.status == IoStatus::Ok);
  CHECK(r.line == "done");
  p->terminate(1s);
  CHECK(std::filesystem::file_size(log) == 1000000);
  // Appended, not truncated, by the next run.
  auto p2 = must_start([&] {
    auto s = sh("echo more >&2; echo done");
    s.stderr_log = log;
    return s;
  }());
  CHECK(p2->read_line(SteadyClock::now() + 5s).line == "done");
  p2->terminate(1s);
  CHECK(std::filesystem::file_size(log) == 1000005);
  std::filesystem::remove(log);

  // Without a log, stderr is discarded, still without blocking.
  auto p3 = must_start(sh("head -c 1000000 /dev/zero >&2; echo done"));
  CHECK(p3->read_line(SteadyClock::now() + 5s).line == "done");
}

TEST_CASE("I/O log: callback and file with direction and steady timestamps") {
  auto log = temp_file("io.log");
  std::vector<std::tuple<SteadyClock::time_point, char, std::string>> events;
  ProcessSpec spec;
  spec.executable = "/bin/cat";
  spec.name = "catengine";
  spec.io_log = log;
  spec.io_logger = [&](const IoEvent& e) { events.emplace_back(e.time, e.direction, std::string(e.text)); };
  auto p = must_start(spec);
  REQUIRE(p->write_line("usi") == IoStatus::Ok);
  REQUIRE(p->read_line(SteadyClock::now() + 2s).status == IoStatus::Ok);
  p->terminate(1s);
  REQUIRE(events.size() == 2);
  CHECK(std::get<1>(events[0]) == '>');
  CHECK(std::get<1>(events[1]) == '<');
  CHECK(std::get<2>(events[1]) == "usi");
  CHECK(std::get<0>(events[0]) <= std::get<0>(events[1]));
  std::ifstream in(log);
  std::string l1, l2;
  std::getline(in, l1);
  std::getline(in, l2);
  CHECK(l1.find(" catengine > usi") != std::string::npos);
  CHECK(l2.find(" catengine < usi") != std::string::npos);
  std::filesystem::remove(log);
}

TEST_CASE("start errors are explained; the working directory is set") {
  ProcessSpec missing;
  missing.executable = "/nonexistent/engine";
  auto e = EngineProcess::start(missing);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().find("/nonexistent/engine") != std::string::npos);
  CHECK(e.error().find("No such file") != std::string::npos);

  auto bad_dir = sh("pwd");
  bad_dir.working_dir = "/nonexistent/dir";
  auto e2 = EngineProcess::start(bad_dir);
  CHECK_FALSE(e2.has_value());

  auto in_tmp = sh("pwd");
  in_tmp.working_dir = "/tmp";
  auto p = must_start(in_tmp);
  CHECK(p->read_line(SteadyClock::now() + 2s).line == "/tmp");

  // A relative executable is resolved against the runner's directory, not the child's.
  auto cwd = std::filesystem::current_path();
  std::filesystem::current_path("/bin");
  ProcessSpec rel;
  rel.executable = "sh";
  rel.args = {"-c", "echo relative"};
  rel.working_dir = "/tmp";
  auto p2 = EngineProcess::start(rel);
  std::filesystem::current_path(cwd);
  REQUIRE(p2.has_value());
  CHECK((*p2)->read_line(SteadyClock::now() + 2s).line == "relative");
}

TEST_CASE("two processes on one loop: waiting for one drains the other") {
  auto loop = std::make_shared<EventLoop>();
  auto mover = must_start(sh("read x; sleep 0.2; echo bestmove 7g7f"), loop);
  auto ponderer = must_start(sh("read x; for i in 1 2 3; do echo info $i; done; sleep 30"), loop);
  auto t0 = SteadyClock::now();
  REQUIRE(mover->write_line("go") == IoStatus::Ok);
  REQUIRE(ponderer->write_line("go ponder") == IoStatus::Ok);
  auto best = mover->read_line(t0 + 5s);
  REQUIRE(best.status == IoStatus::Ok);
  CHECK(best.line == "bestmove 7g7f");
  // The ponderer's lines were read while we waited for the mover, not now.
  for (int i = 1; i <= 3; ++i) {
    auto r = ponderer->try_read_line();
    REQUIRE(r.status == IoStatus::Ok);
    CHECK(r.line == "info " + std::to_string(i));
    CHECK(r.time < best.time);
  }
  CHECK(ponderer->try_read_line().status == IoStatus::Timeout);
  pid_t a = mover->pid(), b = ponderer->pid();
  mover.reset();
  ponderer.reset();
  CHECK(pid_gone(a));
  CHECK(pid_gone(b));
}

TEST_CASE("a child that does not read stdin makes writes time out instead of blocking") {
  auto p = must_start(sh("exec sleep 30"));
  std::string big(60000, 'x');
  IoStatus s = IoStatus::Ok;
  auto t0 = SteadyClock::now();
  for (int i = 0; i < 10 && s == IoStatus::Ok; ++i) s = p->write_line(big, SteadyClock::now() + 100ms);
  CHECK(s == IoStatus::Timeout);
  CHECK(ms(SteadyClock::now() - t0) < 1000.0);
  CHECK(p->write_line("x") == IoStatus::Disconnected);  // the stream is no longer trusted
}

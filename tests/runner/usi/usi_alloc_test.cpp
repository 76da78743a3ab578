// The runner's move path allocates nothing once a game's first moves have sized its buffers: with tens of games
// at once, every malloc is a lock on an allocator arena shared between worker threads. This binary replaces the
// global operator new with a counting one (which is why it is a test program of its own) and counts what the
// parsers and a full position/go/info/bestmove cycle with the mock engine allocate. A count, never a time.

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "usi/usi_client.h"
#include "usi/usi_info.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// GCC cannot see that these deletes pair with the malloc in the operator new above.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

using namespace arena::usi;
using namespace std::chrono_literals;

namespace {

// Allocations made by `work`.
template <typename Work>
long count_allocations(Work&& work) {
  allocations = 0;
  counting = true;
  work();
  counting = false;
  return allocations;
}

}  // namespace

TEST_CASE("the counter sees allocations") {
  // Guards every other case here: a counter that never counts would make them pass on anything.
  CHECK(count_allocations([] { std::string s(100, 'x'); }) == 1);
}

TEST_CASE("a reused info and the word cursor parse without allocating") {
  SearchInfo info;
  const std::string_view line =
      "info depth 22 seldepth 30 score cp -35 upperbound nodes 123456789 nps 1234567 time 1500 hashfull 400 "
      "multipv 1 pv 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f";
  REQUIRE(parse_info(line, info));  // sizes the pv
  long n = count_allocations([&] {
    for (int i = 0; i < 100; ++i) {
      REQUIRE(parse_info(line, info));
      REQUIRE(parse_info("info nodes 5 nps 10", info));
      for (WordCursor w(line); !w.at_end();) w.next();
    }
  });
  CHECK(n == 0);
  CHECK(info.nodes == 5u);

  GoParams go;
  go.btime = 600000;
  go.wtime = 599000;
  go.byoyomi = 10000;
  go.binc = go.winc = 100000;
  std::string buffer;
  write_go_command(go, buffer);
  CHECK(count_allocations([&] {
          for (int i = 0; i < 100; ++i) write_go_command(go, buffer);
        }) == 0);
  CHECK(buffer == "go btime 600000 wtime 599000 byoyomi 10000 binc 100000 winc 100000");
}

TEST_CASE("a position/go/bestmove cycle with the mock allocates only the pv it hands back") {
  arena::process::ProcessSpec spec;
  spec.executable = MOCK_USI_ENGINE;
  spec.args = {"--random", "--seed", "3"};
  spec.name = "mock";
  auto process = arena::process::EngineProcess::start(std::move(spec));
  REQUIRE(process.has_value());
  UsiClient client(std::move(*process));
  REQUIRE(client.handshake(SteadyClock::now() + 5s).ok());
  REQUIRE(client.is_ready(SteadyClock::now() + 5s).ok());
  REQUIRE(client.new_game().ok());
  const std::string position =
      "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f";
  GoParams go;
  go.btime = go.wtime = 600000;
  go.byoyomi = 10000;
  std::string moves;
  auto cycle = [&] {
    REQUIRE(client.position_and_go(position, go).ok());  // as the game sends them
    SearchResult r = client.wait_bestmove(SteadyClock::now() + 5s);
    REQUIRE(r.status == Status::Ok);
    REQUIRE(r.info.pv.size() == 1);  // the mock sends one info line with a one-move pv
  };
  for (int i = 0; i < 5; ++i) cycle();  // sizes the line buffers and the reused info
  constexpr int kCycles = 200;
  long n = count_allocations([&] {
    for (int i = 0; i < kCycles; ++i) cycle();
  });
  MESSAGE(n << " allocations in " << kCycles << " cycles");
  // One per cycle: the pv vector of the SearchResult handed to the caller, which keeps it in its move record.
  // Before the line buffers and the info were reused, this was about six per cycle.
  CHECK(n <= kCycles);
  client.quit(1s);
}

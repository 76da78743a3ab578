// `shogi-arena check` against mock engines with one quirk each: the checker must name the quirk, recommend the key
// that works around it, and fail only what no key fixes. The timing quirks are large (hundreds of ms), so that a
// loaded machine cannot hide or fake them.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "check/check_positions.h"
#include "check/check_report.h"
#include "check/checks.h"
#include "check/probe_engine.h"
#include "config/engine_text.h"
#include "rules/game_end.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"

using namespace arena;
using check::Verdict;

namespace {

check::CheckReport check_mock(std::vector<std::string> args, std::int64_t startup_wait_ms = 20000) {
  check::CheckOptions o;
  o.engine.command = MOCK_USI_ENGINE;
  o.engine.name = "mock";
  o.engine.args = std::move(args);
  o.quick = true;
  o.startup_wait_ms = startup_wait_ms;
  return check::run_checks(o);
}

const check::CheckItem& item(const check::CheckReport& r, std::string_view id) {
  for (const auto& i : r.items)
    if (i.id == id) return i;
  FAIL("no check " << id);
  static check::CheckItem none;
  return none;
}

std::string all_items(const check::CheckReport& r) {
  std::string s;
  for (const auto& i : r.items) s += check::item_text(i);
  return s;
}

// Whether nothing but `flagged` (and the mock's deliberately malformed option line, and the short thinking of a
// mock without --clock at byoyomi) was found.
bool only(const check::CheckReport& r, std::vector<std::string_view> flagged) {
  flagged.push_back("handshake.options");
  flagged.push_back("time.byoyomi_share");
  for (const auto& i : r.items) {
    bool expected = false;
    for (auto id : flagged) expected |= i.id == id;
    if (!expected && (i.verdict == Verdict::Warn || i.verdict == Verdict::Fail)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("check positions: legal, the side to move has moves, and the trap move is illegal") {
  shogi::Position::init();
  const std::pair<std::string_view, std::string_view> traps[] = {
      {"pawn-drop-mate", "P*1b"}, {"pin", "5h4g"}, {"promotion", "5b5a"}, {"drops", "P*4e"}, {"check", "5i5h"}};
  REQUIRE(check::legality_positions().size() == std::size(traps));
  for (size_t i = 0; i < std::size(traps); ++i) {
    const auto& p = check::legality_positions()[i];
    CAPTURE(p.name);
    CHECK(p.name == traps[i].first);
    shogi::GameRecord record;
    REQUIRE(record.start(p.position.substr(p.position.find(' ') + 1)));
    const shogi::Position& pos = record.position();
    CHECK(shogi::MoveList<shogi::LEGAL>(pos).size() > 0);
    CHECK_FALSE(shogi::parse_usi_move(pos, traps[i].second).has_value());
    CHECK_FALSE(shogi::can_declare_win(pos, shogi::EnteringKingRule::Point24));
  }
  // The trap is a real one: in the pawn-drop-mate position, P*1b would otherwise be mate (a gold there is).
  {
    shogi::GameRecord record;
    REQUIRE(record.start("sfen 8k/6G2/7S1/9/9/9/9/9/4K4 b G2r2b2g3s4n4l18p 1"));
    REQUIRE(record.play_usi("G*1b"));
    CHECK(record.status(0).end == shogi::GameEnd::NoLegalMoves);
  }
  shogi::GameRecord mated;
  const auto& m = check::mated_position();
  REQUIRE(mated.start(m.position.substr(m.position.find(' ') + 1)));
  CHECK(mated.position().in_check());
  CHECK(shogi::MoveList<shogi::LEGAL>(mated.position()).size() == 0);
  for (const auto& p : check::timing_positions()) {
    shogi::GameRecord record;
    REQUIRE(record.start(p.position));
    CHECK(record.position().side_to_move() == shogi::BLACK);  // btime is the mover's clock in the probes
  }
}

TEST_CASE("engine tokens and YAML: the recommended keys on top of the given settings, quoted for the shell") {
  game::EngineConfig e;
  e.command = "/opt/engines/my engine";
  e.name = "dev";
  e.args = {"--eval", "nn.bin"};
  e.options = {{"Move Overhead", "10"}, {"Threads", "4"}};
  check::Recommendation keys;
  keys.send_inc = false;
  keys.swap_btime_wtime = true;
  keys.margin_ms = 450;
  keys.options = {{"threads", "1"}, {"USI_Hash", "256"}};
  const game::EngineConfig rec = check::recommended_config(e, keys);
  std::string line;
  for (const auto& t : config::engine_tokens(rec)) line.append(" ").append(config::shell_quote(t));
  CHECK(line ==
        " 'cmd=/opt/engines/my engine' name=dev arg=--eval arg=nn.bin 'option.Move Overhead=10' option.Threads=1 "
        "option.USI_Hash=256 send_inc=false swap_btime_wtime=true margin_ms=450");
  CHECK(config::engine_yaml_entry(rec) ==
        "- name: dev\n"
        "  cmd: \"/opt/engines/my engine\"\n"
        "  args: [\"--eval\", nn.bin]\n"
        "  send_inc: false\n"
        "  swap_btime_wtime: true\n"
        "  margin_ms: 450\n"
        "  options:\n"
        "    \"Move Overhead\": 10\n"
        "    Threads: 1\n"
        "    USI_Hash: 256\n");
  CHECK(config::shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("probe engine: a search the engine never answers, even after stop, kills it; a death seen between searches "
          "too") {
  game::EngineConfig c;
  c.command = MOCK_USI_ENGINE;
  c.args = {"--behavior", "ignore-stop"};
  check::ProbeEngine wedged(c);
  REQUIRE(wedged.start(check::Millis(5000)));
  usi::GoParams go;
  go.btime = go.wtime = 1000;
  auto s = wedged.search("startpos", go, check::Millis(200), check::Millis(300));
  CHECK(s.stopped);
  CHECK(s.wedged);
  CHECK_FALSE(s.answered());
  CHECK_FALSE(wedged.running());  // its late bestmove can never answer a later go
  REQUIRE(wedged.start(check::Millis(5000)));
  CHECK(wedged.running());

  c.args = {};
  check::ProbeEngine quits(c);
  REQUIRE(quits.start(check::Millis(5000)));
  auto ok = quits.search("startpos", go, check::Millis(2000));
  CHECK(ok.answered());
  quits.send_raw("quit");
  CHECK(quits.drain(check::Millis(2000)) == -1);
  CHECK_FALSE(quits.running());
}

TEST_SUITE("quirks-a") {
  TEST_CASE("a well-behaved engine passes every check and needs no key but its thread count") {
    auto r = check_mock({"--clock"});
    INFO(all_items(r));
    // The one thing wrong with the mock: an option line without min and max, which clients must skip.
    CHECK(r.warnings() == 1);
    CHECK(item(r, "handshake.options").detail.find("'option name Broken type spin default 5'") != std::string::npos);
    CHECK(r.failures() == 0);
    CHECK(r.exit_code() == 0);
    CHECK_FALSE(r.keys.send_inc);
    CHECK_FALSE(r.keys.swap_btime_wtime);
    CHECK_FALSE(r.keys.margin_ms);
    // Its thread option pinned all the same (the default of the next version may differ).
    REQUIRE(r.keys.options.size() == 1);
    CHECK(r.keys.options[0] == std::pair<std::string, std::string>{"Threads", "1"});
    CHECK(item(r, "time.swapped_clocks").figure.ends_with("its own"));
    CHECK(item(r, "legal.mated").verdict == Verdict::Pass);
    CHECK(item(r, "time.byoyomi_share").verdict == Verdict::Pass);
    CHECK(item(r, "rules.options").figure == "none: the engine is not told the declaration rule or the move limit");
  }

  TEST_CASE("rule options are reported; an engine that thinks a fraction of its byoyomi is flagged") {
    auto r = check_mock({"--rule-options", "--think-ms", "50"});
    INFO(all_items(r));
    CHECK(item(r, "rules.options").figure ==
          "EnteringKingRule (default CSARule27), MaxMovesToDraw (default 0): a tournament sets them from its rules");
    const auto& share = item(r, "time.byoyomi_share");
    CHECK(share.verdict == Verdict::Warn);
    CHECK(share.figure.starts_with("median "));
    CHECK(share.detail.find("less than half of its byoyomi") != std::string::npos);
    CHECK(r.exit_code() == 0);
  }

  TEST_CASE("abort on binc: send_inc=false, verified with folded increments") {
    auto r = check_mock({"--clock", "--behavior", "reject-increment"});
    INFO(all_items(r));
    CHECK(item(r, "time.fischer").verdict == Verdict::Warn);
    CHECK(item(r, "time.fischer").figure.find("with send_inc=false: used") != std::string::npos);
    CHECK(r.keys.send_inc == false);
    CHECK(r.exit_code() == 0);
    CHECK(only(r, {"time.fischer"}));
  }

  TEST_CASE("swapped clocks: swap_btime_wtime=true") {
    auto r = check_mock({"--behavior", "swapped-clocks"});
    INFO(all_items(r));
    CHECK(item(r, "time.swapped_clocks").verdict == Verdict::Warn);
    CHECK(r.keys.swap_btime_wtime == true);
    CHECK(r.exit_code() == 0);
    CHECK(only(r, {"time.swapped_clocks"}));
  }

  TEST_CASE("an increment counted twice: send_inc=false") {
    auto r = check_mock({"--behavior", "double-increment"});
    INFO(all_items(r));
    CHECK(item(r, "time.double_increment").verdict == Verdict::Warn);
    CHECK(r.keys.send_inc == false);
    CHECK(r.exit_code() == 0);
    CHECK(only(r, {"time.double_increment"}));
  }

  TEST_CASE("a byoyomi overrun of 400 ms: a margin_ms of its own, above the overrun") {
    auto r = check_mock({"--behavior", "byoyomi-overrun", "--delay-ms", "400"});
    INFO(all_items(r));
    CHECK(item(r, "time.byoyomi").verdict == Verdict::Warn);
    CHECK(item(r, "time.margin").verdict == Verdict::Warn);
    REQUIRE(r.keys.margin_ms);
    CHECK(*r.keys.margin_ms >= 450);  // above the overrun of 400 ms and the pipe
    CHECK(*r.keys.margin_ms <= 1000);
    CHECK(r.exit_code() == 0);
  }

  TEST_CASE("a byoyomi overrun beyond a second fails") {
    auto r = check_mock({"--behavior", "byoyomi-overrun", "--delay-ms", "1300"});
    INFO(all_items(r));
    CHECK(item(r, "time.margin").verdict == Verdict::Fail);
    CHECK(r.exit_code() == 1);
  }

  TEST_CASE("a default of 4 threads: Threads=1 in the engine's own option name") {
    auto r = check_mock({"--clock", "--threads", "4"});
    INFO(all_items(r));
    CHECK(item(r, "engine.threads_hash").verdict == Verdict::Warn);
    REQUIRE(r.keys.options.size() == 1);
    CHECK(r.keys.options[0] == std::pair<std::string, std::string>{"Threads", "1"});
    CHECK(r.exit_code() == 0);
  }
}

TEST_SUITE("quirks-b") {
  TEST_CASE("two bestmoves per go fail") {
    auto r = check_mock({"--clock", "--behavior", "double-bestmove"});
    INFO(all_items(r));
    CHECK(item(r, "protocol.bestmove_once").verdict == Verdict::Fail);
    CHECK(r.exit_code() == 1);
  }

  TEST_CASE("no readyok while searching is a warning") {
    auto r = check_mock({"--clock", "--behavior", "busy-no-readyok"});
    INFO(all_items(r));
    CHECK(item(r, "usi.isready_busy").verdict == Verdict::Warn);
    CHECK(r.exit_code() == 0);
    CHECK(only(r, {"usi.isready_busy"}));
  }

  TEST_CASE("an illegal drop fails, naming the position") {
    auto r = check_mock({"--clock", "--behavior", "illegal-drop"});
    INFO(all_items(r));
    CHECK(item(r, "legal.moves").verdict == Verdict::Fail);
    CHECK(item(r, "legal.moves").detail.find("pawn-drop-mate: P*") != std::string::npos);
    CHECK(r.exit_code() == 1);
  }

  TEST_CASE("death on garbage is a warning, and the checks go on with a new process") {
    auto r = check_mock({"--clock", "--behavior", "die-on-garbage"});
    INFO(all_items(r));
    CHECK(item(r, "robust.unknown_command").verdict == Verdict::Warn);
    CHECK(item(r, "robust.unknown_command").figure.find("signal 11") != std::string::npos);
    CHECK(item(r, "robust.garbage").verdict == Verdict::Warn);
    CHECK(item(r, "robust.new_game").verdict == Verdict::Pass);
    CHECK(r.exit_code() == 0);
  }

  TEST_CASE("death on go fails") {
    auto r = check_mock({"--behavior", "crash-on-go"});
    INFO(all_items(r));
    CHECK(item(r, "time.sudden_death").verdict == Verdict::Fail);
    CHECK(r.exit_code() == 1);
  }

  TEST_CASE("no usiok, or no process, fails at once") {
    auto slow = check_mock({"--behavior", "slow-usiok", "--delay-ms", "5000"}, 300);
    CHECK(item(slow, "handshake.start").verdict == Verdict::Fail);
    CHECK(item(slow, "handshake.start").detail.find("no usiok within 300 ms") != std::string::npos);
    CHECK(slow.exit_code() == 1);
    auto dead = check_mock({"--behavior", "crash-at-start"});
    CHECK(item(dead, "handshake.start").verdict == Verdict::Fail);
    CHECK(dead.exit_code() == 1);
  }

  TEST_CASE("Ctrl-C while the engine starts ends the check at once, undecided (exit code 2), not failed or passed") {
    check::CheckOptions o;
    o.engine.command = MOCK_USI_ENGINE;
    o.engine.args = {"--behavior", "slow-usiok", "--delay-ms", "20000"};
    o.quick = true;
    std::atomic<bool> interrupt{false};
    o.engine.interrupt = &interrupt;  // as the check command sets it
    std::thread ctrl_c([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      interrupt = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    auto r = check::run_checks(o, &interrupt);
    const auto took = std::chrono::steady_clock::now() - t0;
    ctrl_c.join();
    INFO(all_items(r));
    CHECK(took < std::chrono::seconds(5));  // not the 60 s start-up wait, nor the engine's 20 s
    CHECK(r.failures() == 0);
    CHECK(r.interrupted);
    CHECK(r.exit_code() == 2);
  }

  TEST_CASE("a slow start: startup_timeout_ms, three times the time measured") {
    auto r = check_mock({"--clock", "--behavior", "slow-usiok", "--delay-ms", "5500"});
    INFO(all_items(r));
    CHECK(item(r, "handshake.start").verdict == Verdict::Warn);
    REQUIRE(r.keys.startup_timeout_ms);
    CHECK(*r.keys.startup_timeout_ms >= 16500);
    CHECK(r.exit_code() == 0);
  }

  TEST_CASE("an engine that hangs on binc until stop: send_inc=false, not an overrun") {
    auto r = check_mock({"--clock", "--behavior", "hang-on-increment"});
    INFO(all_items(r));
    CHECK(item(r, "time.fischer").verdict == Verdict::Warn);
    CHECK(item(r, "time.fischer").figure.find("answered only after stop") != std::string::npos);
    CHECK(r.keys.send_inc == false);
    CHECK(item(r, "time.margin").verdict != Verdict::Fail);
    CHECK(r.exit_code() == 0);
  }

  TEST_CASE("an engine that answers go infinite and go ponder at once: warnings, and no answer taken for a later go") {
    auto r = check_mock({"--clock", "--behavior", "answer-infinite"});
    INFO(all_items(r));
    CHECK(item(r, "stop.infinite").verdict == Verdict::Warn);
    CHECK(item(r, "ponder.ponderhit").verdict == Verdict::Warn);
    CHECK(item(r, "time.sudden_death").verdict == Verdict::Pass);
    CHECK(item(r, "protocol.bestmove_once").verdict == Verdict::Pass);
    CHECK(r.exit_code() == 0);
  }
}

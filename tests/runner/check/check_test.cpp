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

// The quick battery; the time profiles only when asked for (`profile_scale` > 0: their clocks that many times the
// quick ones), as they take longer than the rest together.
check::CheckReport check_mock(std::vector<std::string> args, std::int64_t startup_wait_ms = 20000,
                              double profile_scale = 0) {
  check::CheckOptions o;
  o.engine.command = MOCK_USI_ENGINE;
  o.engine.name = "mock";
  o.engine.args = std::move(args);
  o.quick = true;
  o.startup_wait_ms = startup_wait_ms;
  o.time_profiles = profile_scale > 0;
  o.profile_scale = profile_scale;
  return check::run_checks(o);
}

const check::TimeProfile& profile(const check::CheckReport& r, std::string_view id) {
  for (const auto& p : r.profiles)
    if (p.kind.id == id) return p;
  FAIL("no profile " << id);
  static check::TimeProfile none;
  return none;
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

namespace {

check::TimeProfile profile_of(const char* tc, std::vector<check::ProfileMove> moves) {
  check::TimeProfile p;
  p.kind = {"profile.x", "x", *game::parse_time_control(tc)};
  p.margin_ms = 100;
  p.moves = std::move(moves);
  check::judge_profile(p, "NetworkDelay2");
  return p;
}

}  // namespace

TEST_CASE("time profile: the first move over its allowance and margin flags; the curve marks it") {
  // 10+0.1 at 800 ms a move, as gpsusi plays.
  std::vector<check::ProfileMove> moves;
  std::int64_t left = 10000;
  for (int i = 0; i < 16; ++i) {
    moves.push_back({left, left + 100, 800});
    left = std::max<std::int64_t>(0, left + 100 - 800);
  }
  auto p = profile_of("10+0.1", moves);
  CHECK(p.verdict == check::ProfileVerdict::Risky);
  REQUIRE(p.flag_move);
  CHECK(*p.flag_move == 15);  // 14 moves leave 200 ms: the 15th may take 300 (+ 100 of margin) and takes 800
  CHECK(p.detail.find("by its move 15") != std::string::npos);
  CHECK(check::time_curve(p).ends_with("!"));
  // Within the margin is no flag.
  auto within = profile_of("0+1b", {{0, 1000, 1090}, {0, 1000, 1000}, {0, 1000, 900}});
  CHECK(within.verdict == check::ProfileVerdict::Safe);
  CHECK(within.least_spare_ms == -90);
  CHECK(within.least_spare_move == 1);
}

TEST_CASE("time profile: a tenth of the byoyomi, or an increment banked, under-uses the clock") {
  auto tenth = profile_of(
      "1+1b", {{1000, 2000, 500}, {500, 1500, 400}, {100, 1100, 200}, {0, 1000, 100}, {0, 1000, 100}, {0, 1000, 100}});
  CHECK(tenth.verdict == check::ProfileVerdict::UnderUses);
  CHECK(tenth.byoyomi_used_ms == 100);
  CHECK(tenth.detail.find("lower its option NetworkDelay2") != std::string::npos);
  std::vector<check::ProfileMove> banked;
  std::int64_t left = 2000;
  for (int i = 0; i < 10; ++i) {
    banked.push_back({left, left + 500, left / 40});
    left += 500 - left / 40;
  }
  auto b = profile_of("2+0.5", banked);
  CHECK(b.verdict == check::ProfileVerdict::UnderUses);
  CHECK(b.detail.find("banks its increments") != std::string::npos);
  // Spending it is safe.
  std::vector<check::ProfileMove> spent;
  for (int i = 0; i < 10; ++i) spent.push_back({2000, 2500, 450});
  CHECK(profile_of("2+0.5", spent).verdict == check::ProfileVerdict::Safe);
}

TEST_CASE("time profile: the built-in record is legal from the start position, long enough for every kind") {
  shogi::Position::init();
  const check::ProfileRecord& record = check::profile_record();
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  for (size_t i = 0; i < record.moves.size(); ++i)
    REQUIRE_MESSAGE(game.play_usi(std::string(record.moves[i])), "ply " << i << ": " << record.moves[i]);
  CHECK(record.first_ply % 2 == 0);  // sente to move: btime is the engine's
  CHECK(check::profile_moves(false) >= 50);
  CHECK(check::profile_moves(true) >= 25);
  for (const check::ClockKind& k : check::profile_kinds(false)) {
    // About a minute at the most: the main time and every move's increment or byoyomi.
    const std::int64_t most = k.tc.base_ms + check::profile_moves(false) * (k.tc.increment_ms + k.tc.byoyomi_ms);
    CHECK_MESSAGE(most <= 65000, k.id);
  }
}

TEST_SUITE("profiles") {
  TEST_CASE("a fixed think time (gpsusi's way): loses on time in sudden death, safe with an increment it covers") {
    // 300 ms a move at the quick clocks: 5+0.1 and 5 flag (at its 26th and 18th move), 2+0.3 and a 0.5 s byoyomi
    // are covered every move, with room to spare whatever the machine's load (no margin is at stake).
    auto r = check_mock({"--think-ms", "300"}, 20000, 1);
    INFO(all_items(r));
    const auto& inc = profile(r, "profile.increment");
    CHECK(inc.verdict == check::ProfileVerdict::Risky);
    REQUIRE(inc.flag_move);
    CHECK(*inc.flag_move >= 24);
    CHECK(*inc.flag_move <= 27);
    CHECK(profile(r, "profile.sudden_death").verdict == check::ProfileVerdict::Risky);
    CHECK(profile(r, "profile.fischer").verdict == check::ProfileVerdict::Safe);
    CHECK(profile(r, "profile.byoyomi").verdict == check::ProfileVerdict::Safe);
    const std::string summary = check::summary_text(r, {});
    INFO(summary);
    // Today's check said "can play timed games reliably" of it.
    CHECK(summary.find("reliably") == std::string::npos);
    CHECK(summary.find("keeps its time only at Fischer (2+0.3), byoyomi (1+0.5b)") != std::string::npos);
    CHECK(summary.find("sudden death with a small increment like tc=5+0.1 (it flags at its move") != std::string::npos);
  }

  TEST_CASE("scripted time managers named: ignoring the increment, a fixed share, a tenth of the byoyomi, past it") {
    auto ignore = check_mock({"--time-manager", "ignore-increment"}, 20000, 0.5);
    INFO(all_items(ignore));
    CHECK(profile(ignore, "profile.fischer").verdict == check::ProfileVerdict::UnderUses);
    CHECK(profile(ignore, "profile.sudden_death").verdict == check::ProfileVerdict::Safe);
    // A fixed share of what is left, nothing for the byoyomi: never flags, throws the byoyomi away.
    auto share = check_mock({"--time-manager", "share-8"}, 20000, 0.5);
    INFO(all_items(share));
    CHECK(profile(share, "profile.sudden_death").verdict == check::ProfileVerdict::Safe);
    CHECK(profile(share, "profile.increment").verdict == check::ProfileVerdict::Safe);
    CHECK(profile(share, "profile.byoyomi").verdict == check::ProfileVerdict::UnderUses);
    auto tenth = check_mock({"--time-manager", "tenth-byoyomi"}, 20000, 0.5);
    INFO(all_items(tenth));
    CHECK(profile(tenth, "profile.byoyomi").verdict == check::ProfileVerdict::UnderUses);
    CHECK(profile(tenth, "profile.fischer").verdict == check::ProfileVerdict::Safe);
    // 400 ms past the byoyomi: safe with the margin_ms recommended for it, which the profiles play with.
    auto margin = check_mock({"--behavior", "byoyomi-overrun", "--delay-ms", "400"}, 20000, 0.5);
    INFO(all_items(margin));
    REQUIRE(margin.keys.margin_ms);
    CHECK(profile(margin, "profile.byoyomi").margin_ms == *margin.keys.margin_ms);
    CHECK(profile(margin, "profile.byoyomi").verdict == check::ProfileVerdict::Safe);
    // 1.3 s past it: no margin is fair, the profile flags at its first move in byoyomi.
    auto past = check_mock({"--behavior", "byoyomi-overrun", "--delay-ms", "1300"}, 20000, 0.5);
    INFO(all_items(past));
    const auto& b = profile(past, "profile.byoyomi");
    CHECK(b.verdict == check::ProfileVerdict::Risky);
    CHECK(b.detail.find("thinks past its byoyomi") != std::string::npos);
    CHECK(profile(past, "profile.increment").verdict == check::ProfileVerdict::Safe);
  }
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

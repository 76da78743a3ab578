// Settings of `shogi-arena csa`: the YAML loader (unknown keys with their line), validation, the dotted keys
// shared with the command line, the login strings, and the documented example files in configs/.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "client_fixture.h"
#include "csa/client/cli.h"
#include "csa/client/config.h"
#include "csa/client/log.h"

using namespace arena::csa;
using csa_test::fresh_dir;

namespace {

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("the example configs load and validate") {
  for (const char* name : {"csa-floodgate.yaml", "csa-local.yaml"}) {
    CAPTURE(name);
    auto c = load_csa_client_config(std::string(SHOGI_ARENA_SOURCE_DIR) + "/configs/" + name);
    REQUIRE_MESSAGE(c.has_value(), (c ? "" : c.error()));
  }
  auto f = load_csa_client_config(std::string(SHOGI_ARENA_SOURCE_DIR) + "/configs/csa-floodgate.yaml");
  REQUIRE(f);
  CHECK(f->host == "wdoor.c.u-tokyo.ac.jp");
  CHECK(f->mode == LoginMode::Csa);
  CHECK(login_password(*f) == "floodgate-600-10F,change-me");
  CHECK(login_secret(*f) == "change-me");
  CHECK(f->floodgate_comments);
  CHECK(f->games == 0);
  CHECK(f->reconnect_attempts == 0);
  REQUIRE(f->engine.options.size() == 2);
  CHECK(f->engine.options[0] == std::pair<std::string, std::string>("USI_Hash", "256"));
  CHECK(f->engine.options[1] == std::pair<std::string, std::string>("Threads", "2"));
  CHECK(f->engine.command.empty());  // the built-in engine
  CHECK(f->engine.startup_timeout == std::chrono::milliseconds(30000));
  // Paths in a file are relative to its directory.
  CHECK(f->output_dir == std::string(SHOGI_ARENA_SOURCE_DIR) + "/results/csa-floodgate");

  auto l = load_csa_client_config(std::string(SHOGI_ARENA_SOURCE_DIR) + "/configs/csa-local.yaml");
  REQUIRE(l);
  CHECK(l->mode == LoginMode::X1);
  CHECK(login_password(*l) == "local-pass x1");
  CHECK(x1_game_command(*l) == "%%GAME local-300-10F +");
  CHECK(l->turn == '+');
  CHECK(l->engine.command == "fairy-stockfish");  // bare: looked up on PATH when it starts
}

TEST_CASE("unknown keys and bad values name the file, the line and the key") {
  std::string dir = fresh_dir("config");
  auto p = write(dir, "a.yaml", "server:\n  user: me\n  game_name: g-1-1\n  hots: x\n");
  auto c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  CHECK(c.error() == p + ":4: unknown key 'server.hots'");

  p = write(dir, "b.yaml", "server:\n  user: me\n  game_name: g-1-1\nengine:\n  ponder: maybe\n");
  c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  // Engine keys are parsed by the tournaments' table (config/engine_keys.h), so the value is quoted as there.
  CHECK(c.error() == p + ":5: engine.ponder: expected true or false, got \"maybe\"");

  p = write(dir, "c.yaml", "servers:\n  user: me\n");
  c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  CHECK(c.error().starts_with(p + ":1: unknown key 'servers'"));

  p = write(dir, "d.yaml", "server:\n  user: me\n  game_name: g-1-1\n  port: 70000\n");
  c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  CHECK(c.error() == p + ":4: server.port: expected an integer from 1 to 65535, got '70000'");

  p = write(dir, "e.yaml", "server: [1, 2\n");
  c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  CHECK(c.error().find("not valid YAML") != std::string::npos);

  c = load_csa_client_config(dir + "/missing.yaml");
  REQUIRE_FALSE(c);
  CHECK(c.error().find("cannot read") != std::string::npos);

  p = write(dir, "f.yaml", "engine:\n  options:\n    Hash: [1]\n");
  c = load_csa_client_config(p);
  REQUIRE_FALSE(c);
  CHECK(c.error() == p + ":3: engine.options: expected a plain value");
}

TEST_CASE("validation: keep-alive of at least 30 s, a user, a game") {
  CsaClientConfig c;
  c.user = "me";
  c.game_name = "testgame-300-10F";
  CHECK(validate(c));
  c.keep_alive_s = 29;
  auto v = validate(c);
  REQUIRE_FALSE(v);
  CHECK(v.error().find("at least 30") != std::string::npos);
  c.keep_alive_s = 30;
  CHECK(validate(c));

  CsaClientConfig no_user = c;
  no_user.user = "";
  CHECK_FALSE(validate(no_user));
  CsaClientConfig bad_user = c;
  bad_user.user = "has space";
  CHECK_FALSE(validate(bad_user));
  CsaClientConfig no_game = c;
  no_game.game_name = "";
  CHECK_FALSE(validate(no_game));
  CsaClientConfig x1 = c;
  x1.mode = LoginMode::X1;
  CHECK_FALSE(validate(x1));  // x1 needs a password
  x1.password = "pw";
  CHECK(validate(x1));
  CsaClientConfig trip = c;
  trip.trip = "a,b";
  CHECK_FALSE(validate(trip));
  CsaClientConfig margin = c;
  margin.margin_ms = -1;
  CHECK_FALSE(validate(margin));
}

TEST_CASE("relative paths in a file are relative to the file; others are kept") {
  std::string dir = fresh_dir("config-paths");
  std::filesystem::create_directories(dir + "/sub");
  auto p = write(dir + "/sub", "a.yaml",
                 "server:\n  user: me\n  game_name: g-1-1\nengine:\n  cmd: ../bin/eng\n  dir: work\n"
                 "output:\n  dir: out\n  log: /tmp/abs.log\n");
  CsaClientConfig c;
  c.engine.stderr_log = "relative-from-cli.log";  // not from the file: untouched
  auto ok = load_config_file(c, p);
  REQUIRE_MESSAGE(ok.has_value(), (ok ? "" : ok.error()));
  CHECK(c.engine.command == dir + "/bin/eng");
  CHECK(c.engine.working_dir == dir + "/sub/work");
  CHECK(c.output_dir == dir + "/sub/out");
  CHECK(c.log_file == "/tmp/abs.log");
  CHECK(c.engine.stderr_log == "relative-from-cli.log");
}

TEST_CASE("dotted keys, as the command line sets them") {
  CsaClientConfig c;
  CHECK(set_config_value(c, "server.host", "example.org"));
  CHECK(set_config_value(c, "server.turn", "white"));
  CHECK(c.turn == '-');
  CHECK(set_config_value(c, "server.mode", "x1"));
  CHECK(c.mode == LoginMode::X1);
  CHECK(set_config_value(c, "engine.args", "--a --b 3"));
  CHECK(c.engine.args == std::vector<std::string>{"--a", "--b", "3"});
  CHECK(set_config_value(c, "engine.options.Move Overhead", "50"));
  CHECK(set_config_value(c, "engine.options.Move Overhead", "60"));  // set again: replaced, not repeated
  REQUIRE(c.engine.options.size() == 1);
  CHECK(c.engine.options[0].second == "60");
  CHECK(set_config_value(c, "engine.cmd", "/usr/games/gpsusi"));
  CHECK(c.engine.command == "/usr/games/gpsusi");
  CHECK(c.engine.send_increments);
  CHECK(set_config_value(c, "engine.send_inc", "false"));
  CHECK_FALSE(c.engine.send_increments);
  CHECK_FALSE(set_config_value(c, "engine.send_inc", "sometimes"));
  CHECK(set_config_value(c, "engine.swap_btime_wtime", "true"));
  CHECK(c.engine.swap_btime_wtime);
  CHECK(set_config_value(c, "engine.startup_timeout_ms", "60000"));
  CHECK(c.engine.startup_timeout == std::chrono::milliseconds(60000));
  CHECK_FALSE(set_config_value(c, "engine.command", "x"));  // the key is cmd, as in the tournament configs
  CHECK(set_config_value(c, "server.connect_timeout_s", "2.5"));
  CHECK(c.connect_timeout == std::chrono::milliseconds(2500));
  CHECK(set_config_value(c, "play.games", "0"));
  auto bad = set_config_value(c, "play.nope", "1");
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "unknown key 'play.nope'");
  CHECK_FALSE(set_config_value(c, "server.mode", "x2"));
  CHECK_FALSE(set_config_value(c, "play.margin_ms", "-5"));
  CHECK_FALSE(set_config_value(c, "server.turn", "up"));
}

TEST_CASE("login strings and the secret") {
  CsaClientConfig c;
  c.user = "me";
  c.game_name = "testgame-300-10F";
  CHECK(login_password(c) == "testgame-300-10F");
  c.trip = "xyz";
  CHECK(login_password(c) == "testgame-300-10F,xyz");
  CHECK(login_secret(c) == "xyz");
  c.turn = '+';
  CHECK(login_password(c) == "testgame-300-10F-B,xyz");
  c.turn = '-';
  CHECK(login_password(c) == "testgame-300-10F-W,xyz");
  c.password = "verbatim";
  CHECK(login_password(c) == "verbatim");
  CHECK(login_secret(c) == "verbatim");
  c.mode = LoginMode::X1;
  CHECK(login_password(c) == "verbatim x1");
  c.challenge = true;
  CHECK(x1_game_command(c) == "%%CHALLENGE testgame-300-10F -");
}

TEST_CASE("the log masks the login secret") {
  arena::csa::ProtocolLog log;
  log.set_secret("s3cr3t");
  CHECK(log.mask("LOGIN me floodgate-600-10F,s3cr3t") == "LOGIN me floodgate-600-10F,*****");
  CHECK(log.mask("##[LOGIN] echo s3cr3t s3cr3t") == "##[LOGIN] echo ***** *****");
  CHECK(log.mask("+7776FU,T1") == "+7776FU,T1");
  // A short secret is masked on LOGIN lines only, so the rest of the log stays readable.
  log.set_secret("ab");
  CHECK(log.mask("LOGIN me game,ab") == "LOGIN me game,*****");
  CHECK(log.mask("#ab") == "#ab");
}

TEST_CASE("a file, then command-line settings, then validation") {
  std::string dir = fresh_dir("config-layers");
  auto p = write(dir, "partial.yaml", "server:\n  game_name: testgame-300-10F\nplay:\n  games: 3\n");
  CsaClientConfig c;
  REQUIRE(load_config_file(c, p));  // no user yet: not an error before validation
  CHECK_FALSE(validate(c));
  REQUIRE(set_config_value(c, "server.user", "from_cli"));
  REQUIRE(set_config_value(c, "play.games", "5"));  // the command line wins
  CHECK(validate(c));
  CHECK(c.games == 5);
  auto alone = load_csa_client_config(p);
  REQUIRE_FALSE(alone);
  CHECK(alone.error().starts_with(p + ": server.user"));
}

TEST_CASE("engine keys: one table for the YAML file, --set engine.KEY and --engine tokens") {
  CsaClientConfig c;
  // A time control is the server's: the key exists only in tournaments, and the error says why.
  auto tc = apply_engine_tokens(c, {"cmd=/usr/games/gpsusi", "tc=10+0.1"});
  REQUIRE_FALSE(tc);
  CHECK(tc.error().starts_with("--engine 'tc=10+0.1': unknown key 'tc'; expected cmd=, name="));
  CHECK(tc.error().ends_with("(the server sets the time control)"));
  // A tournament engine's own time tolerance: the client has one margin, play.margin_ms.
  auto margin = apply_engine_tokens(c, {"cmd=/usr/games/gpsusi", "margin_ms=500"});
  REQUIRE_FALSE(margin);
  CHECK(margin.error().ends_with("(a CSA client's margin is play.margin_ms)"));
  // The client's own keys and the shared ones, as tokens.
  REQUIRE(apply_engine_tokens(c, {"cmd=/usr/games/gpsusi", "arg=-a b", "arg=-c", "option.Threads=2", "ponder",
                                  "send_inc=false", "quit_grace_ms=250", "io_log=/tmp/io.log"}));
  CHECK(c.engine.command == "/usr/games/gpsusi");
  CHECK(c.engine.args == std::vector<std::string>{"-a b", "-c"});
  CHECK(c.engine.ponder);
  CHECK_FALSE(c.engine.send_increments);
  CHECK(c.engine.quit_grace == std::chrono::milliseconds(250));
  CHECK(c.engine.io_log == "/tmp/io.log");
  // option names merge case-insensitively, whichever path set them.
  REQUIRE(set_config_value(c, "engine.options.threads", "4"));
  REQUIRE(c.engine.options.size() == 1);
  CHECK(c.engine.options[0] == std::pair<std::string, std::string>("Threads", "4"));
  // A bad value names the key, a token without '=' that needs one says so.
  auto bad = set_config_value(c, "engine.quit_grace_ms", "70000");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().starts_with("engine.quit_grace_ms: "));
  auto bare = apply_engine_tokens(c, {"send_inc"});
  REQUIRE_FALSE(bare);
  CHECK(bare.error() == "--engine 'send_inc': expected send_inc=VALUE");
}

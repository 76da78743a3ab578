// Fuzzes what the CSA server reads from untrusted clients: every line through the client-line parsers
// (commands, LOGIN, CSA-mode passwords, game names), then all lines through a whole lobby (logins, x1 commands,
// pairing, games, clocks, disconnects) with fake connections and simulated time, ending with the records of the
// games that finished.
//
// Input: lines separated by LF. For the lobby, a line's first byte picks what happens: one of three clients
// sends the rest of the line, the clock advances (and timers run), or a client disconnects and a new one connects.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "csa/server/command.h"
#include "csa/server/lobby.h"
#include "csa/server/record.h"
#include "rules/position.h"

namespace {

using namespace arena::csa;

void require(bool ok, const char* what, const std::string& context) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant failed: %s (%s)\n", what, context.c_str());
    std::abort();
  }
}

bool has_space(const std::string& s) {
  for (char c : s)
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') return true;
  return false;
}

void check_parsers(const std::string& line) {
  ClientCommand cmd = parse_client_command(line);
  switch (cmd.kind) {
    case ClientCommandKind::Move:
      require(!cmd.text.empty() && (cmd.text[0] == '+' || cmd.text[0] == '-'), "a move starts with its sign", line);
      require(cmd.text.find(',') == std::string::npos, "a move token has no comma", line);
      break;
    case ClientCommandKind::Game:
    case ClientCommandKind::Challenge:
      require(cmd.turn == '+' || cmd.turn == '-' || cmd.turn == '*', "a turn is + - or *", line);
      require(!cmd.text.empty() && !has_space(cmd.text), "a game name is one token", line);
      break;
    case ClientCommandKind::Special:
      require(cmd.special != SpecialKind::None, "a %-command has a kind", line);
      break;
    default:
      break;
  }
  if (auto login = parse_login(line)) {
    require(good_identifier(login->name), "a LOGIN name is an identifier", line);
    require(!login->password.empty() && !has_space(login->password), "a LOGIN password is one token", line);
    CsaPassword pw = parse_csa_password(login->password);
    require(good_game_name(pw.game_name), "a CSA password selects a good game name", line);
    require(pw.turn == '+' || pw.turn == '-' || pw.turn == '*', "a password's turn is + - or *", line);
  }
  if (auto name = parse_game_name(line)) {
    require(good_identifier(name->id), "a game name's id is an identifier", line);
    require(name->total_s >= 0 && name->byoyomi_s >= 0 && name->increment_s >= 0, "times are not negative", line);
    if (auto sfen = handicap_sfen(line)) {
      shogi::Position pos;
      shogi::StateInfo si;
      require(pos.set(*sfen, &si).has_value(), "a handicap start is a valid position", *sfen);
    }
  }
  (void)mask_login(line);
}

class FakeConnection : public Connection {
 public:
  void send(std::string_view text) override {
    require(!closed_sent_, "nothing is queued after close()", std::string(text));
    require(!text.empty() && text.back() == '\n', "the server sends whole lines", std::string(text));
    bytes_ += text.size();
  }
  void close() override { closed_sent_ = closed_ = true; }
  std::string peer() const override { return "fuzz"; }
  bool closed_ = false;
  bool closed_sent_ = false;
  size_t bytes_ = 0;
};

struct Client {
  std::shared_ptr<FakeConnection> conn;
  Lobby::PlayerId id = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (const std::string& line : lines) check_parsers(line);

  CsaServerConfig config;
  config.max_moves = 24;
  config.agree_timeout_s = 5;
  config.login_timeout_s = 30;
  config.position_for = [](const std::string& name) -> std::optional<std::string> {
    if (name.rfind("kachi", 0) == 0) return "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/8k b 10P 1";
    if (name.rfind("open", 0) == 0) return "startpos moves 7g7f 3c3d";
    return std::nullopt;
  };
  size_t finished = 0;
  Lobby::Hooks hooks;
  hooks.game_finished = [&](const ServerGame& g) {
    ++finished;
    require(g.finished(), "a reported game is finished", g.setup().game_id);
    std::string record = server_csa_record(g);
    require(record.find("'summary:") != std::string::npos, "a record ends with its summary", record);
    std::string line = results_list_line(g, "x.csa");
    require(!line.empty() && line.back() == '\n', "a results line is one line", line);
  };
  Lobby lobby(config, hooks);
  SteadyTime now = SteadyTime{} + std::chrono::hours(1);
  Client clients[3];
  auto connect = [&](Client& c) {
    c.conn = std::make_shared<FakeConnection>();
    c.id = lobby.connect(c.conn, now);
  };
  for (Client& c : clients) connect(c);

  for (const std::string& line : lines) {
    now += std::chrono::milliseconds(1);
    unsigned char op = line.empty() ? 0 : static_cast<unsigned char>(line[0]);
    std::string body = line.empty() ? line : line.substr(1);
    switch (op % 8) {
      case 3:
        // The clock jumps by up to ~3 minutes in 0.1 s steps; flags and timeouts fall.
        now += std::chrono::milliseconds(100 * (op >> 3));
        lobby.on_timer(now);
        break;
      case 4: {
        Client& c = clients[(op >> 3) % 3];
        lobby.on_disconnect(c.id, now);
        connect(c);
        break;
      }
      default:
        lobby.on_line(clients[op % 8 % 3].id, body, now);
        break;
    }
    // What the socket layer does: a closed connection is reported, and a new client takes its place.
    for (Client& c : clients)
      if (c.conn->closed_) {
        lobby.on_disconnect(c.id, now);
        connect(c);
      }
    if (auto next = lobby.next_deadline(); next && *next <= now) lobby.on_timer(now);
  }
  lobby.shutdown(now);
  require(lobby.game_count() == 0, "shutdown ends every game", std::to_string(lobby.game_count()));
  return 0;
}

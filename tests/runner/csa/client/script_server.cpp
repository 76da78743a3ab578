#include "script_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace csa_test {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

char sign(shogi::Color c) { return c == shogi::BLACK ? '+' : '-'; }

}  // namespace

std::string csa_position_lines(const std::string& sfen) {
  shogi::Position::init();
  shogi::Position pos;
  shogi::StateInfo si;
  auto ok = pos.set(sfen == "startpos" ? std::string(shogi::START_SFEN) : sfen, &si);
  if (!ok) return "BAD POSITION " + ok.error() + "\n";
  std::string out;
  for (int r = shogi::RANK_1; r <= shogi::RANK_9; ++r) {
    out += 'P';
    out += char('1' + r);
    for (int f = shogi::FILE_9; f >= shogi::FILE_1; --f) {
      shogi::Piece pc = pos.piece_on(shogi::make_square(shogi::File(f), shogi::Rank(r)));
      if (pc == shogi::NO_PIECE)
        out += " * ";
      else
        out += sign(shogi::color_of(pc)) + std::string(shogi::csa_piece_name(shogi::type_of(pc)));
    }
    out += '\n';
  }
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
    shogi::Hand h = pos.hand(c);
    if (h == shogi::HAND_ZERO) continue;
    out += {'P', sign(c)};
    for (shogi::PieceType pt :
         {shogi::ROOK, shogi::BISHOP, shogi::GOLD, shogi::SILVER, shogi::KNIGHT, shogi::LANCE, shogi::PAWN})
      for (int n = shogi::hand_count(h, pt); n > 0; --n) out += "00" + std::string(shogi::csa_piece_name(pt));
    out += '\n';
  }
  out += sign(pos.side_to_move());
  out += '\n';
  return out;
}

std::string game_summary(const SummarySpec& s) {
  std::string out = "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n";
  if (!s.declaration.empty()) out += "Declaration:" + s.declaration + "\n";
  out += "Game_ID:" + s.game_id + "\nName+:" + s.black + "\nName-:" + s.white + "\n";
  out += std::string("Your_Turn:") + sign(s.your_turn) + "\nRematch_On_Draw:NO\n";
  // To_Move after the played moves.
  shogi::GameRecord g;
  std::string start = s.sfen == "startpos" ? "startpos" : "sfen " + s.sfen;
  g.start(start);
  shogi::Color to_move = g.position().side_to_move();
  if (s.moves.size() % 2) to_move = ~to_move;
  out += std::string("To_Move:") + sign(to_move) + "\n";
  out += "Max_Moves:" + std::to_string(s.max_moves) + "\n";
  for (const auto& l : s.extra_lines) out += l + "\n";
  out += "BEGIN Time\nTime_Unit:1sec\nTotal_Time:" + std::to_string(s.total_s) +
         "\nByoyomi:" + std::to_string(s.byoyomi_s) + "\nIncrement:" + std::to_string(s.increment_s) +
         "\nLeast_Time_Per_Move:0\nEND Time\n";
  out += "BEGIN Position\n" + csa_position_lines(s.sfen);
  for (const auto& m : s.moves) out += m + ",T1\n";
  out += "END Position\nEND Game_Summary\n";
  return out;
}

// ------------------------------------------------------------------------------------------------ Script

Script& Script::send(const std::string& lines) {
  steps.push_back({Step::Kind::Send, lines, 1, milliseconds(0)});
  return *this;
}
Script& Script::expect(const std::string& regex) {
  steps.push_back({Step::Kind::Expect, regex, 1, milliseconds(0)});
  return *this;
}
Script& Script::client_move(int t) {
  Step s{Step::Kind::ClientMove, "", 1, milliseconds(0)};
  s.t_sec = t;
  steps.push_back(s);
  return *this;
}
Script& Script::opponent_move(int t, const std::string& csa) {
  Step s{Step::Kind::OpponentMove, csa, 1, milliseconds(0)};
  s.t_sec = t;
  steps.push_back(s);
  return *this;
}
Script& Script::moves(int plies, int t) {
  // Resolved now from the summary position: whose turn each ply is.
  shogi::GameRecord g;
  g.start(spec.sfen == "startpos" ? "startpos" : "sfen " + spec.sfen);
  shogi::Color stm = g.position().side_to_move();
  if (spec.moves.size() % 2) stm = ~stm;
  // Count plies already scripted after the summary.
  for (const auto& st : steps)
    if (st.kind == Step::Kind::ClientMove || st.kind == Step::Kind::OpponentMove) stm = ~stm;
  for (int i = 0; i < plies; ++i, stm = ~stm) {
    if (stm == spec.your_turn)
      client_move(t);
    else
      opponent_move(t);
  }
  return *this;
}
Script& Script::pause(milliseconds d) {
  Step s{Step::Kind::Pause, "", 1, milliseconds(0)};
  s.pause = d;
  steps.push_back(s);
  return *this;
}
Script& Script::close() {
  steps.push_back({Step::Kind::Close, "", 1, milliseconds(0)});
  return *this;
}
Script& Script::login(const std::string& user) {
  expect("LOGIN " + user + " .*");
  return send("LOGIN:" + user + " OK");
}
Script& Script::summary_and_start(const SummarySpec& s) {
  spec = s;
  send(game_summary(s));
  expect("AGREE.*");
  return send("START:" + s.game_id);
}

// ------------------------------------------------------------------------------------------------ Referee

Referee::Referee(Script script) : script_(std::move(script)) {
  shogi::Position::init();
  std::string start = script_.spec.sfen == "startpos" ? "startpos" : "sfen " + script_.spec.sfen;
  if (!script_.spec.moves.empty()) {
    shogi::GameRecord probe;
    probe.start(start);
    std::string usi;
    for (const auto& m : script_.spec.moves) {
      auto mv = shogi::parse_csa_move(probe.position(), m);
      if (!mv) {
        fail("bad summary move " + m);
        break;
      }
      probe.play(*mv);
      usi.append(" ").append(shogi::to_usi(*mv));
    }
    start += " moves" + usi;
  }
  game_.start(start);
  client_ = script_.spec.your_turn;
}

void Referee::fail(const std::string& why) {
  errors_.push_back(why);
  closed_ = true;
}

std::string Referee::waiting_for() const {
  if (step_ >= script_.steps.size()) return "nothing";
  const Step& s = script_.steps[step_];
  if (s.kind == Step::Kind::ClientMove) return "a client move";
  return "a line matching '" + s.text + "'";
}

Referee::Action Referee::next() {
  while (true) {
    if (!pending_.empty()) {
      Action a{Action::Kind::Send, pending_.front(), {}};
      pending_.pop_front();
      return a;
    }
    if (closed_) return {Action::Kind::Close, {}, {}};
    if (step_ >= script_.steps.size()) return {Action::Kind::Done, {}, {}};
    const Step& s = script_.steps[step_];
    switch (s.kind) {
      case Step::Kind::Send:
        for (auto& l : split_lines(s.text)) pending_.push_back(l);
        ++step_;
        continue;
      case Step::Kind::Pause:
        ++step_;
        return {Action::Kind::Pause, "", s.pause};
      case Step::Kind::Close:
        ++step_;
        closed_ = true;
        return {Action::Kind::Close, {}, {}};
      case Step::Kind::Expect:
      case Step::Kind::ClientMove:
        return {Action::Kind::NeedLine, {}, {}};
      case Step::Kind::OpponentMove: {
        std::string text = s.text;
        const shogi::Position& pos = game_.position();
        if (text.empty() || text == "LAST") {
          shogi::MoveList<shogi::LEGAL> list(pos);
          if (list.size() == 0) {
            fail("the opponent has no legal move");
            continue;
          }
          text = shogi::to_csa((text.empty() ? list.begin() : list.end() - 1)->move);
        }
        if (auto m = shogi::parse_csa_move(pos, text)) game_.play(*m);  // an illegal one is sent as is
        pending_.push_back(text + ",T" + std::to_string(s.t_sec));
        ++step_;
        continue;
      }
    }
  }
}

void Referee::on_line(const std::string& line, Clock::time_point t) {
  received_.push_back({t, line});
  if (line.empty() || closed_) return;  // keep-alive
  if (step_ >= script_.steps.size()) {
    fail("unexpected client line after the script: '" + line + "'");
    return;
  }
  const Step& s = script_.steps[step_];
  if (s.kind == Step::Kind::Expect) {
    if (!std::regex_match(line, std::regex(s.text))) {
      fail("expected " + waiting_for() + ", got '" + line + "'");
      return;
    }
    ++step_;
    return;
  }
  if (s.kind != Step::Kind::ClientMove) {
    fail("client line '" + line + "' while the script was not waiting for one");
    return;
  }
  std::string token = line.substr(0, line.find(','));
  if (token.size() != 7 || token[0] != sign(client_)) {
    fail("expected a client move, got '" + line + "'");
    return;
  }
  if (token.size() < line.size()) {
    std::string rest = line.substr(token.size());
    if (!rest.starts_with(",'")) {
      fail("bad move suffix in '" + line + "'");
      return;
    }
    comments_.push_back(rest.substr(2));
  }
  auto m = shogi::parse_csa_move(game_.position(), token);
  if (!m) {
    fail("illegal client move '" + line + "': " + m.error());
    return;
  }
  game_.play(*m);
  pending_.push_back(token + ",T" + std::to_string(s.t_sec));
  ++step_;
}

// ------------------------------------------------------------------------------------------------ ScriptLink

ScriptLink::ScriptLink(std::shared_ptr<Referee> referee) : ref_(std::move(referee)), next_due_(Clock::now()) { run(); }

void ScriptLink::run() {
  waiting_ = false;
  while (true) {
    auto a = ref_->next();
    switch (a.kind) {
      case Referee::Action::Kind::Send:
        out_.push_back({std::max(next_due_, Clock::now()), a.text});
        break;
      case Referee::Action::Kind::Pause:
        next_due_ = std::max(next_due_, Clock::now()) + a.pause;
        break;
      case Referee::Action::Kind::NeedLine:
        waiting_ = true;
        return;
      case Referee::Action::Kind::Close:
      case Referee::Action::Kind::Done:
        out_.push_back({std::max(next_due_, Clock::now()), "", true});
        done_ = true;
        return;
    }
  }
}

bool ScriptLink::send(std::string_view line) {
  if (closed_) return false;
  if (done_) return true;  // the server is about to close; the line is lost
  ref_->on_line(std::string(line), Clock::now());
  if (waiting_) run();
  return true;
}

arena::csa::LinkEvent ScriptLink::receive(arena::csa::Deadline deadline) {
  using arena::csa::LinkEvent;
  while (true) {
    if (closed_) return {LinkEvent::Kind::Closed, "closed by the client", Clock::now()};
    auto now = Clock::now();
    if (!out_.empty() && out_.front().due <= now) {
      Out o = std::move(out_.front());
      out_.pop_front();
      if (o.close) {
        closed_ = true;
        return {LinkEvent::Kind::Closed, "the server closed the connection", now};
      }
      return {LinkEvent::Kind::Line, o.text, now};
    }
    if (now >= deadline) return {LinkEvent::Kind::Timeout, {}, now};
    if (out_.empty()) {
      // The script waits for the client. Waiting a little is fine (keep-alive tests); a long wait is a bug.
      if (deadline - now > std::chrono::seconds(5)) {
        ref_->fail("deadlock: the client waits for the server while the script waits for " + ref_->waiting_for());
        closed_ = true;
        return {LinkEvent::Kind::Closed, "script deadlock", now};
      }
      std::this_thread::sleep_until(deadline);
      continue;
    }
    std::this_thread::sleep_until(std::min(deadline, out_.front().due));
  }
}

// ------------------------------------------------------------------------------------------------ TCP

TcpScriptServer::TcpScriptServer(std::vector<Script> scripts, bool echo_keep_alive)
    : echo_keep_alive_(echo_keep_alive) {
  for (auto& s : scripts) referees_.push_back(std::make_shared<Referee>(std::move(s)));
  // CLOEXEC: the engines the client under test starts must not inherit the listening socket (it would keep
  // accepting into the backlog after we close it).
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::listen(listen_fd_, 8);
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

TcpScriptServer::~TcpScriptServer() {
  finish();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::vector<std::shared_ptr<Referee>> TcpScriptServer::finish() {
  if (!joined_) {
    thread_.join();
    joined_ = true;
  }
  return referees_;
}

std::vector<std::string> TcpScriptServer::errors() {
  std::vector<std::string> out;
  for (auto& r : finish())
    for (auto& e : r->errors()) out.push_back(e);
  return out;
}

void TcpScriptServer::serve() {
  for (std::size_t i = 0; i < referees_.size(); ++i) {
    auto& ref = referees_[i];
    pollfd lp{listen_fd_, POLLIN, 0};
    int fd = ::poll(&lp, 1, 30000) > 0 ? ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC) : -1;
    if (fd < 0) {
      ref->fail("no client connected within 30 s");
      break;
    }
    // Like a server that cares: without it, Nagle holds the second of two quick lines until the client's
    // delayed ACK (40 ms).
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (i + 1 == referees_.size()) {
      // The last script: refuse further connections at once instead of leaving them unanswered in the backlog.
      ::close(listen_fd_);
      listen_fd_ = -1;
    }
    std::string buffer;
    auto write_line = [&](const std::string& l) {
      std::string out = l + "\n";
      ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
    };
    // The next client line, or nullopt on EOF / timeout.
    auto read_line = [&](int timeout_ms) -> std::optional<std::string> {
      auto until = Clock::now() + milliseconds(timeout_ms);
      while (true) {
        auto nl = buffer.find('\n');
        if (nl != std::string::npos) {
          std::string line = buffer.substr(0, nl);
          buffer.erase(0, nl + 1);
          if (!line.empty() && line.back() == '\r') line.pop_back();
          return line;
        }
        auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
        if (left <= 0) return std::nullopt;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, int(left)) <= 0) return std::nullopt;
        char chunk[4096];
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) return std::nullopt;
        buffer.append(chunk, std::size_t(n));
      }
    };
    bool open = true;
    while (open) {
      auto a = ref->next();
      switch (a.kind) {
        case Referee::Action::Kind::Send:
          write_line(a.text);
          break;
        case Referee::Action::Kind::Pause: {
          // Still reading: keep-alives arrive (and are answered) during the pause.
          auto until = Clock::now() + a.pause;
          while (Clock::now() < until) {
            auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
            auto line = read_line(int(std::max<int64_t>(1, left)));
            if (!line) continue;
            if (line->empty() && echo_keep_alive_) write_line("");
            ref->on_line(*line, Clock::now());
          }
          break;
        }
        case Referee::Action::Kind::NeedLine: {
          auto line = read_line(30000);
          if (!line) {
            ref->fail("no client line within 30 s while waiting for " + ref->waiting_for());
            open = false;
            break;
          }
          if (line->empty() && echo_keep_alive_) write_line("");
          ref->on_line(*line, Clock::now());
          break;
        }
        case Referee::Action::Kind::Close:
        case Referee::Action::Kind::Done:
          open = false;
          break;
      }
    }
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
  }
  if (listen_fd_ >= 0) ::close(listen_fd_);
  listen_fd_ = -1;
}

namespace {

// Removes the test directories when the test binary exits (set SHOGI_ARENA_KEEP_TEST_DIRS to keep them).
struct TempDirs {
  std::vector<std::filesystem::path> dirs;
  ~TempDirs() {
    if (std::getenv("SHOGI_ARENA_KEEP_TEST_DIRS")) return;
    std::error_code ec;
    for (auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};
TempDirs temp_dirs;

}  // namespace

std::string fresh_dir(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("shogi-arena-csa-client-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  temp_dirs.dirs.push_back(dir);
  return dir.string();
}

}  // namespace csa_test

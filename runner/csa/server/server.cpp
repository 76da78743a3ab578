#include "csa/server/server.h"

#include "csa/server/command.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "csa/server/lobby.h"
#include "csa/server/record.h"
#include "csa/server/record_store.h"
#include "output/local_time.h"

namespace arena::csa {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

SteadyTime steady_now() { return std::chrono::steady_clock::now(); }

// The server log: one line per event, flushed at once so that a crash loses nothing.
class ServerLog {
 public:
  std::expected<void, std::string> open(const std::filesystem::path& path) {
    if (path.empty()) return {};
    if (path.has_parent_path()) {
      std::error_code ec;
      std::filesystem::create_directories(path.parent_path(), ec);
    }
    file_.open(path, std::ios::app);
    if (!file_) return std::unexpected("cannot open the log file " + path.string());
    return {};
  }
  bool enabled() const { return file_.is_open(); }
  void write(const std::string& text) {
    if (!file_.is_open()) return;
    const std::string stamp = output::format_local_time(std::chrono::system_clock::now(), "%Y-%m-%d %H:%M:%S", true);
    std::lock_guard lock(mutex_);
    file_ << stamp << ' ' << text << '\n';
    file_.flush();
  }

 private:
  std::mutex mutex_;
  std::ofstream file_;
};

const char* reason_line(GameEndKind kind) {
  switch (kind) {
    case GameEndKind::Resign:
    case GameEndKind::Abnormal:
      return "#RESIGN";
    case GameEndKind::TimeUp:
      return "#TIME_UP";
    case GameEndKind::IllegalMove:
    case GameEndKind::Uchifuzume:
    case GameEndKind::SelfCheck:
    case GameEndKind::IllegalKachi:
      return "#ILLEGAL_MOVE";
    case GameEndKind::Kachi:
      return "#JISHOGI";
    case GameEndKind::Sennichite:
      return "#SENNICHITE";
    case GameEndKind::OuteSennichite:
      return "#OUTE_SENNICHITE";
    case GameEndKind::MaxMoves:
      return "#MAX_MOVES";
    case GameEndKind::Chudan:
      return "#CHUDAN";
    case GameEndKind::None:
      break;
  }
  return "";
}

std::expected<void, std::string> validate(const CsaServerConfig& c) {
  auto bad = [](const std::string& what) { return std::unexpected("invalid server setting: " + what); };
  if (c.event.empty() || c.event.find_first_of(" \t\r\n+") != std::string::npos)
    return bad("event '" + c.event + "' must be a non-empty word without '+' (it starts every Game_ID)");
  if (c.max_moves < 0) return bad("max_moves must be 0 (no limit) or more");
  if (c.least_time_per_move < 0) return bad("least_time_per_move must be 0 or more");
  if (c.max_identifier < 1) return bad("max_identifier must be at least 1");
  if (c.agree_timeout_s < 1 || c.login_timeout_s < 1) return bad("agree and login timeouts must be at least 1 s");
  if (c.max_connections < 1) return bad("max_connections must be at least 1");
  if (c.max_line_length < 64) return bad("max_line_length must be at least 64 bytes");
  if (c.max_lines_per_second < 1 || c.max_line_burst < 1) return bad("line rate limits must be at least 1");
  if (c.max_consecutive_errors < 1) return bad("max_consecutive_errors must be at least 1");
  if (c.max_pending_output < 4096) return bad("max_pending_output must be at least 4096 bytes");
  return {};
}

class Session;

}  // namespace

namespace {

struct ServerCore {
  explicit ServerCore(CsaServerConfig c) : config(std::move(c)), wake(io) {}

  void accept();
  void rearm();
  void on_game_finished(const ServerGame& game);
  void on_game_progress(const ServerGame& game);
  void remove(const std::shared_ptr<Session>& s);

  CsaServerConfig config;
  asio::io_context io;
  asio::steady_timer wake;
  std::optional<tcp::acceptor> acceptor;
  std::unique_ptr<Lobby> lobby;
  std::optional<RecordStore> records;  // with an output folder
  std::set<std::shared_ptr<Session>> sessions;
  std::optional<SteadyTime> armed;
  ServerLog log;
  std::thread thread;
  bool started = false;
  bool stopped = false;
  std::atomic<uint16_t> bound_port{0};
  std::atomic<size_t> connections{0};
  std::atomic<size_t> games{0};
  mutable std::mutex mutex;
  mutable std::condition_variable finished_cv;
  std::vector<CsaFinishedGame> finished;
};

// One client connection. Lines go to the lobby with the moment they were read; what the lobby sends is queued
// and written in order. Closing is graceful (flush, half-close, drain until the client closes, at most 3 s);
// dropping a misbehaving client is immediate.
class Session : public Connection, public std::enable_shared_from_this<Session> {
 public:
  Session(ServerCore& server, tcp::socket socket) : server_(server), socket_(std::move(socket)), linger_(server.io) {
    error_code ec;
    auto ep = socket_.remote_endpoint(ec);
    peer_ = ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port());
    socket_.set_option(asio::socket_base::keep_alive(true), ec);
    // Moves are small and latency is charged to the players: no Nagle delay.
    socket_.set_option(tcp::no_delay(true), ec);
    tokens_ = server_.config.max_line_burst;
    last_refill_ = steady_now();
  }

  void start() {
    id_ = server_.lobby->connect(shared_from_this(), steady_now());
    read();
  }

  void send(std::string_view text) override {
    if (done_ || closing_ || overflow_) return;
    if (server_.config.log_traffic) traffic('>', text);
    pending_ += text.size();
    if (pending_ > server_.config.max_pending_output) {
      // Called from inside the lobby: drop later, never re-enter it from here.
      overflow_ = true;
      asio::post(server_.io, [self = shared_from_this()] {
        self->drop("more than " + std::to_string(self->server_.config.max_pending_output) +
                   " bytes wait to be sent (the client does not read)");
      });
      return;
    }
    queue_.append(text);
    write_next();
  }

  void close() override {
    if (done_ || closing_) return;
    closing_ = true;
    write_next();
  }

  std::string peer() const override { return peer_; }

  void drop(const std::string& why) {
    if (done_) return;
    server_.log.write("dropped " + peer_ + ": " + why);
    finish_socket();
  }

 private:
  void traffic(char dir, std::string_view text) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      server_.log.write(peer_ + " " + dir + " " + (dir == '<' ? mask_login(line) : std::string(line)));
      start = end + 1;
    }
  }

  void read() {
    socket_.async_read_some(asio::buffer(buf_),
                            [self = shared_from_this()](error_code ec, size_t n) { self->on_read(ec, n); });
  }

  void on_read(error_code ec, size_t n) {
    if (done_) return;
    if (ec) {
      if (ec == asio::error::eof && !half_closed_) {
        // The client closed its side: it has left (a game ends as for a disconnect), but what is queued for it
        // is still sent, e.g. the result of the %TORYO it sent just before closing.
        peer_closed_ = true;
        closing_ = true;
        tell_lobby();
        write_next();
        return;
      }
      finish_socket();
      return;
    }
    if (!closing_) {
      SteadyTime now = steady_now();
      const CsaServerConfig& cfg = server_.config;
      std::string_view data(buf_.data(), n);
      while (!data.empty() && !done_ && !closing_) {
        size_t nl = data.find('\n');
        std::string_view piece = data.substr(0, nl);
        if (partial_.size() + piece.size() > cfg.max_line_length) {
          drop("a line longer than " + std::to_string(cfg.max_line_length) + " bytes");
          break;
        }
        partial_.append(piece);
        if (nl == std::string_view::npos) break;
        data.remove_prefix(nl + 1);
        std::string line = std::move(partial_);
        partial_.clear();
        handle_line(line, now);
      }
      server_.rearm();
    }
    if (!done_) read();
  }

  void handle_line(const std::string& line, SteadyTime now) {
    const CsaServerConfig& cfg = server_.config;
    for (size_t i = 0; i < line.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(line[i]);
      bool control = (c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == line.size())) || c == 0x7f;
      if (control) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", c);
        drop(std::string("a control character (") + hex + ") in a line");
        return;
      }
    }
    // Token bucket: a burst of max_line_burst lines, refilled at max_lines_per_second.
    double seconds = std::chrono::duration<double>(now - last_refill_).count();
    last_refill_ = now;
    tokens_ = std::min<double>(cfg.max_line_burst, tokens_ + seconds * cfg.max_lines_per_second);
    if (tokens_ < 1) {
      drop("more than " + std::to_string(cfg.max_lines_per_second) + " lines per second");
      return;
    }
    tokens_ -= 1;
    if (cfg.log_traffic) traffic('<', line);
    bool ok = server_.lobby->on_line(id_, line, now);
    // An accepted move is paced by the game (one per turn, after the opponent's): it gives its token back, so an
    // instant-move engine playing game after game is never taken for a flooder. Out-of-turn or illegal moves end
    // the game, so they cannot be repeated to get round the limit.
    if (ok && parse_client_command(line).kind == ClientCommandKind::Move)
      tokens_ = std::min<double>(cfg.max_line_burst, tokens_ + 1);
    errors_in_row_ = ok ? 0 : errors_in_row_ + 1;
    if (errors_in_row_ >= cfg.max_consecutive_errors)
      drop(std::to_string(errors_in_row_) + " erroneous lines in a row");
  }

  void write_next() {
    if (done_ || writing_) return;
    if (queue_.empty()) {
      if (closing_ && !half_closed_) begin_linger();
      return;
    }
    writing_ = true;
    sending_ = std::move(queue_);
    queue_.clear();
    asio::async_write(socket_, asio::buffer(sending_), [self = shared_from_this()](error_code ec, size_t n) {
      self->writing_ = false;
      self->pending_ -= std::min(self->pending_, n);
      self->sending_.clear();
      if (ec) {
        self->finish_socket();
        return;
      }
      self->write_next();
    });
  }

  // Everything was sent: half-close and wait for the client to close, so that it reads all of it (closing with
  // unread input would reset the connection).
  void begin_linger() {
    if (peer_closed_) {
      finish_socket();
      return;
    }
    half_closed_ = true;
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    linger_.expires_after(std::chrono::seconds(3));
    linger_.async_wait([self = shared_from_this()](error_code e) {
      if (!e) self->finish_socket();
    });
  }

  // The lobby learns once that this client is gone.
  void tell_lobby() {
    if (lobby_told_) return;
    lobby_told_ = true;
    server_.lobby->on_disconnect(id_, steady_now());
    server_.rearm();
  }

  void finish_socket() {
    if (done_) return;
    done_ = true;
    error_code ec;
    linger_.cancel();
    socket_.close(ec);
    server_.log.write("closed " + peer_);
    auto self = shared_from_this();
    tell_lobby();
    server_.remove(self);
    server_.rearm();
  }

  ServerCore& server_;
  tcp::socket socket_;
  asio::steady_timer linger_;
  std::string peer_;
  Lobby::PlayerId id_ = 0;
  std::array<char, 4096> buf_{};
  std::string partial_;
  std::string queue_;    // waiting to be written
  std::string sending_;  // being written
  size_t pending_ = 0;
  bool writing_ = false;
  bool closing_ = false;
  bool half_closed_ = false;
  bool overflow_ = false;
  bool peer_closed_ = false;
  bool lobby_told_ = false;
  bool done_ = false;
  double tokens_ = 0;
  SteadyTime last_refill_{};
  int errors_in_row_ = 0;
};

}  // namespace

struct CsaServer::Impl : ServerCore {
  using ServerCore::ServerCore;
};

void ServerCore::remove(const std::shared_ptr<Session>& s) {
  sessions.erase(s);
  connections = sessions.size();
}

void ServerCore::accept() {
  acceptor->async_accept([this](error_code ec, tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted || stopped || !acceptor->is_open()) return;
      log.write("accept failed: " + ec.message());
      accept();
      return;
    }
    if (int(sessions.size()) >= config.max_connections) {
      error_code ignored;
      auto ep = socket.remote_endpoint(ignored);
      log.write("refused " + ep.address().to_string() + ": " + std::to_string(config.max_connections) +
                " connections already");
      socket.close(ignored);
    } else {
      auto session = std::make_shared<Session>(*this, std::move(socket));
      sessions.insert(session);
      connections = sessions.size();
      log.write("connected " + session->peer());
      session->start();
      rearm();
    }
    accept();
  });
}

void ServerCore::rearm() {
  games = lobby->game_count();
  std::optional<SteadyTime> next = lobby->next_deadline();
  if (next == armed) return;
  armed = next;
  if (!next) {
    wake.cancel();
    return;
  }
  wake.expires_at(*next);
  wake.async_wait([this](error_code ec) {
    if (ec) return;
    armed.reset();
    lobby->on_timer(steady_now());
    rearm();
  });
}

void ServerCore::on_game_finished(const ServerGame& game) {
  CsaFinishedGame f;
  const GameSetup& s = game.setup();
  f.game_id = s.game_id;
  f.game_name = s.game_name;
  f.names[0] = s.names[0];
  f.names[1] = s.names[1];
  f.start_sfen = game.start_sfen();
  for (const ServerMove& m : game.moves()) {
    f.moves.push_back(m.csa);
    f.times_s.push_back(m.time_s);
    f.initial_moves += m.initial;
  }
  f.end_type = summary_type(game.outcome().kind);
  f.end_reason = reason_line(game.outcome().kind);
  f.winner = game.outcome().winner;
  f.detail = game.outcome().detail;
  f.start_time = game.created_time();
  f.end_time = game.end_time();
  if (records) f.record_path = records->finish(game);
  {
    std::lock_guard lock(mutex);
    finished.push_back(f);
  }
  finished_cv.notify_all();
  if (config.on_game_finished) config.on_game_finished(f);
}

void ServerCore::on_game_progress(const ServerGame& game) {
  if (records) records->progress(game);
  if (!config.on_game_progress) return;
  CsaGameProgress p;
  const GameSetup& s = game.setup();
  p.game_id = s.game_id;
  p.game_name = s.game_name;
  p.names[0] = s.names[0];
  p.names[1] = s.names[1];
  p.start_sfen = game.start_sfen();
  p.moves = game.record().moves();
  for (const ServerMove& m : game.moves()) {
    p.times_s.push_back(m.time_s);
    p.comments.push_back(m.comment);
    p.initial_moves += m.initial;
  }
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) p.remaining_ms[c] = game.remaining_ms(c);
  p.to_move = game.side_to_move();
  p.total_s = s.total_s;
  p.byoyomi_s = s.byoyomi_s;
  p.increment_s = s.increment_s;
  config.on_game_progress(p);
}

CsaServer::CsaServer(CsaServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

CsaServer::~CsaServer() { stop(); }

std::expected<void, std::string> CsaServer::start() {
  Impl& s = *impl_;
  if (s.started) return std::unexpected(std::string("the server was already started"));
  const CsaServerConfig& cfg = s.config;
  if (auto ok = validate(cfg); !ok) return ok;
  if (auto ok = s.log.open(cfg.log_file); !ok) return ok;
  // Floodgate holds hundreds of connections: each is a descriptor, and the usual soft limit (1024) is lower than
  // the hard one. Raised as far as needed and allowed; the log says when the limit still falls short.
  if (rlimit limit{}; ::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    // A socket per connection, and a record kept open per game (at most one per two connections).
    const rlim_t wanted = rlim_t(cfg.max_connections) * 3 / 2 + 64;
    if (limit.rlim_cur < wanted) {
      limit.rlim_cur = std::min(wanted, limit.rlim_max);
      ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur < wanted)
      s.log.write("open files limited to " + std::to_string(limit.rlim_cur) + ": fewer than --max-connections " +
                  std::to_string(cfg.max_connections) + " clients can connect");
  }
  if (!cfg.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(cfg.output_dir, ec);
    if (ec) return std::unexpected("cannot create the output folder " + cfg.output_dir.string() + ": " + ec.message());
  }
  error_code ec;
  auto address = asio::ip::make_address(cfg.listen_address, ec);
  if (ec) return std::unexpected("'" + cfg.listen_address + "' is not an IP address to listen on");
  std::string where = cfg.listen_address + ":" + std::to_string(cfg.port);
  tcp::endpoint endpoint(address, cfg.port);
  s.acceptor.emplace(s.io);
  s.acceptor->open(endpoint.protocol(), ec);
  if (!ec) s.acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) s.acceptor->bind(endpoint, ec);
  if (!ec) s.acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return std::unexpected("cannot listen on " + where + ": " + ec.message());
  s.bound_port = s.acceptor->local_endpoint().port();

  if (!cfg.output_dir.empty()) {
    // Records a killed server left open are closed (and listed) before the ratings and the groups read the list.
    s.records.emplace(cfg.output_dir, cfg.results_file, [&s](const std::string& text) { s.log.write(text); });
    s.records->recover(std::chrono::system_clock::now());
  }
  Lobby::Hooks hooks;
  hooks.log = [&s](const std::string& text) { s.log.write(text); };
  hooks.game_finished = [&s](const ServerGame& game) { s.on_game_finished(game); };
  hooks.game_progress = [&s](const ServerGame& game) { s.on_game_progress(game); };
  if (cfg.on_league) hooks.league = cfg.on_league;
  s.lobby = std::make_unique<Lobby>(cfg, std::move(hooks));
  s.log.write("server listening on " + cfg.listen_address + ":" + std::to_string(s.bound_port.load()));
  s.accept();
  s.started = true;
  s.thread = std::thread([&s] { s.io.run(); });
  return {};
}

uint16_t CsaServer::port() const { return impl_->bound_port; }

void CsaServer::stop() {
  Impl& s = *impl_;
  if (!s.started || s.stopped) return;
  s.stopped = true;
  asio::post(s.io, [&s] {
    error_code ec;
    s.acceptor->close(ec);
    s.lobby->shutdown(steady_now());
    s.rearm();
  });
  // Give the goodbyes (#CHUDAN, queued lines) a moment to reach the clients.
  auto until = steady_now() + std::chrono::seconds(2);
  while (s.connections > 0 && steady_now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  s.io.stop();
  s.thread.join();
  s.log.write("server stopped");
  // Sessions own sockets of this io_context: release them before it goes.
  s.lobby.reset();
  s.sessions.clear();
  s.acceptor.reset();
}

std::vector<CsaFinishedGame> CsaServer::finished_games() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->finished;
}

size_t CsaServer::connection_count() const { return impl_->connections; }
size_t CsaServer::game_count() const { return impl_->games; }

bool CsaServer::wait_for_finished_games(size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(impl_->mutex);
  return impl_->finished_cv.wait_for(lock, timeout, [&] { return impl_->finished.size() >= n; });
}

int run_csa_server(const CsaServerConfig& config, const std::atomic<bool>* stop) {
  CsaServerConfig cfg = config;
  auto user_hook = config.on_game_finished;
  cfg.on_game_finished = [user_hook](const CsaFinishedGame& g) {
    std::string result = g.winner ? (*g.winner == shogi::BLACK ? "black wins" : "white wins")
                                  : (g.end_type == "chudan" ? "stopped" : "draw");
    std::printf("%s: %s (%s, %zu moves)\n", g.game_id.c_str(), result.c_str(), g.end_type.c_str(), g.moves.size());
    std::fflush(stdout);
    if (user_hook) user_hook(g);
  };
  CsaServer server(cfg);
  if (auto ok = server.start(); !ok) {
    std::fprintf(stderr, "shogi-arena serve: %s\n", ok.error().c_str());
    return 1;
  }
  std::printf("CSA server listening on %s:%u\n", cfg.listen_address.c_str(), unsigned(server.port()));
  std::fflush(stdout);
  while (!stop || !stop->load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.stop();
  return 0;
}

}  // namespace arena::csa

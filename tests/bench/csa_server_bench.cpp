// csa_server_bench: load on a CSA server (ours or shogi-server): N players log in (x1), pair off by a game name
// of their own, and play short legal games again and again for a while: a rook shuffle repeated three times, 12
// moves, which ends each game in sennichite (shogi-server calls it after 16). Prints games per second and the time from
// a player's move to the opponent's copy of it (p50, p99, max), the latency a Floodgate engine sees from the server.
//
//   csa_server_bench [--host 127.0.0.1] [--port 4081] [--players N] [--seconds S] [--prefix NAME]
//
// One thread, poll(2) over every connection, POSIX sockets: nothing shared with the server under test. Exit code
// 1 when a player is refused, a line is not what the protocol says, or nothing finished.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Black's rook 28 -> 78 and back, white's 82 -> 72 and back: after three rounds (12 moves) the start position has
// occurred four times with the same side to move. Played on until the server ends the game (or 40 moves).
const char* const SHUFFLE[4] = {"+2878HI", "-8272HI", "+7828HI", "-7282HI"};
constexpr int MAX_MOVES = 40;

enum class Stage { LoggingIn, Waiting, Summary, Agreed, Playing, Done };

struct Player {
  int fd = -1;
  int index = 0;
  bool black = false;
  int partner = 0;  // index of the opponent
  std::string name, game_name, in;
  Stage stage = Stage::LoggingIn;
};

struct Bench {
  std::vector<Player> players;
  std::vector<Clock::time_point> sent_at;  // per pair: when the last move was sent
  std::vector<int> moves_done;             // per pair
  std::vector<int> ends_seen;              // per pair: #DRAW (or other endings) read this game
  std::vector<double> latency_us;
  long games = 0;
  bool failed = false;
  Clock::time_point deadline;
};

void fail(Bench& b, const Player& p, const std::string& why) {
  if (!b.failed) std::fprintf(stderr, "csa_server_bench: %s: %s\n", p.name.c_str(), why.c_str());
  b.failed = true;
}

void send_line(Bench& b, Player& p, const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(p.fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return fail(b, p, "the server closed the connection");
    done += size_t(n);
  }
}

void ask_for_game(Bench& b, Player& p) {
  p.stage = Stage::Waiting;
  send_line(b, p, "%%GAME " + p.game_name + (p.black ? " +" : " -"));
}

void on_line(Bench& b, Player& p, std::string_view line) {
  const size_t pair = size_t(p.index / 2);
  if (std::getenv("CSA_BENCH_TRACE") && p.index < 2)
    std::fprintf(stderr, "%s < %.*s\n", p.name.c_str(), int(line.size()), line.data());
  switch (p.stage) {
    case Stage::LoggingIn:
      if (line.starts_with("LOGIN:incorrect")) return fail(b, p, "login refused");
      if (line == "##[LOGIN] +OK x1") ask_for_game(b, p);
      return;
    case Stage::Waiting:
      if (line == "BEGIN Game_Summary")
        p.stage = Stage::Summary;
      else if (line.starts_with("##[ERROR]"))
        fail(b, p, std::string(line));
      return;
    case Stage::Summary:
      if (line == "END Game_Summary") {
        p.stage = Stage::Agreed;
        send_line(b, p, "AGREE");
      }
      return;
    case Stage::Agreed:
      if (!line.starts_with("START:")) return fail(b, p, "expected START, got " + std::string(line));
      p.stage = Stage::Playing;
      if (p.black) {
        b.sent_at[pair] = Clock::now();
        send_line(b, p, SHUFFLE[0]);
      }
      return;
    case Stage::Playing:
    case Stage::Done:
      break;
  }
  if (line.starts_with("#")) {
    // Both players read the ending's lines (#SENNICHITE then #DRAW); a game ends for a player at its last one.
    if (line == "#DRAW" || line == "#WIN" || line == "#LOSE" || line == "#CHUDAN") {
      if (line != "#DRAW") fail(b, p, "the shuffle should end in a draw, got " + std::string(line));
      p.stage = Stage::Done;
      if (++b.ends_seen[pair] == 2) {
        ++b.games;
        b.ends_seen[pair] = 0;
        b.moves_done[pair] = 0;
        if (Clock::now() < b.deadline) {
          ask_for_game(b, b.players[size_t(p.index & ~1)]);
          ask_for_game(b, b.players[size_t(p.index | 1)]);
        }
      }
    }
    return;
  }
  if (line.empty() || (line[0] != '+' && line[0] != '-')) return;
  // A move's echo. The opponent of the mover measures the latency, then answers with the next shuffle move.
  const bool by_black = line[0] == '+';
  if (by_black == p.black) return;  // our own move's echo
  b.latency_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - b.sent_at[pair]).count());
  const int next = ++b.moves_done[pair];
  // Until the server calls sennichite (shogi-server, which does not count the start position, 4 moves later).
  if (next < MAX_MOVES) {
    b.sent_at[pair] = Clock::now();
    send_line(b, p, SHUFFLE[next % 4]);
  }
}

int connect_to(const std::string& host, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1", prefix = "bench";
  int port = 4081, n = 10;
  double seconds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--host")
      host = v;
    else if (a == "--port")
      port = std::atoi(v.c_str());
    else if (a == "--players")
      n = std::atoi(v.c_str());
    else if (a == "--seconds")
      seconds = std::atof(v.c_str());
    else if (a == "--prefix")
      prefix = v;
    else {
      std::fprintf(stderr, "usage: csa_server_bench [--host H] [--port P] [--players N] [--seconds S] [--prefix P]\n");
      return 2;
    }
  }
  if (n < 2 || n % 2) {
    std::fprintf(stderr, "csa_server_bench: --players must be even and at least 2\n");
    return 2;
  }
  Bench b;
  b.players.resize(size_t(n));
  b.sent_at.resize(size_t(n / 2));
  b.moves_done.assign(size_t(n / 2), 0);
  b.ends_seen.assign(size_t(n / 2), 0);
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    Player& p = b.players[size_t(i)];
    p.index = i;
    p.black = i % 2 == 0;
    p.partner = i ^ 1;
    p.name = prefix + std::to_string(i);
    p.game_name = prefix + std::to_string(i / 2) + "-300-0";
    p.fd = connect_to(host, port);
    if (p.fd < 0) {
      std::fprintf(stderr, "csa_server_bench: cannot connect player %d to %s:%d\n", i, host.c_str(), port);
      return 1;
    }
    send_line(b, p, "LOGIN " + p.name + " pw x1");
  }
  b.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const auto give_up = b.deadline + std::chrono::seconds(30);
  std::vector<pollfd> fds(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) fds[size_t(i)] = {b.players[size_t(i)].fd, POLLIN, 0};
  auto all_done = [&] {
    return std::all_of(b.players.begin(), b.players.end(), [](const Player& p) { return p.stage == Stage::Done; });
  };
  while (!b.failed && !(Clock::now() >= b.deadline && all_done())) {
    if (Clock::now() > give_up) {
      std::fprintf(stderr, "csa_server_bench: games still running 30 s after the end\n");
      return 1;
    }
    if (::poll(fds.data(), fds.size(), 100) < 0) break;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Player& p = b.players[i];
      char buf[8192];
      const ssize_t got = ::recv(p.fd, buf, sizeof buf, 0);
      if (got <= 0) {
        fail(b, p, "the server closed the connection");
        break;
      }
      p.in.append(buf, size_t(got));
      for (size_t nl; (nl = p.in.find('\n')) != std::string::npos;) {
        std::string line = p.in.substr(0, nl);
        p.in.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        on_line(b, p, line);
      }
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  for (Player& p : b.players) {
    send_line(b, p, "LOGOUT");
    ::close(p.fd);
  }
  if (b.failed || b.games == 0) return 1;
  std::printf(
      "players %d  games %ld in %.1f s  games/s %.1f  moves %zu  move->opponent p50 %.2f ms  p99 %.2f ms  max %.2f "
      "ms\n",
      n, b.games, wall, double(b.games) / wall, b.latency_us.size(), percentile(b.latency_us, 0.5) / 1000,
      percentile(b.latency_us, 0.99) / 1000, percentile(b.latency_us, 1.0) / 1000);
  return 0;
}

// blunder_usi_engine: a USI engine that plays like another one except at chosen plies, where it plays the move that
// engine scores worst. The analysis tests know where the mistakes are: a referee must find exactly those.
//
//   blunder_usi_engine --engine PATH [--blunder-at PLY[,PLY...]] [--fresh] [--name NAME]
//
// Every line goes to the engine at PATH (the built-in engine) and every answer comes back, except at the plies of
// --blunder-at (1-based, the game's ply: the position's moves plus one): there the `go` is preceded by
// `setoption name MultiPV value 600`, the move of the line with the lowest score is answered instead of the
// engine's bestmove, and MultiPV goes back to 1. Its own `id name` is NAME (default "blunder").
// --fresh: `usinewgame` before every search, so that each move is the one a referee asked the same position at the
// same budget plays (the built-in engine with one thread is deterministic from a cleared state).

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::set<int> parse_plies(const char* text) {
  std::set<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.insert(std::atoi(item.c_str()));
  return out;
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// The game's ply of the move asked by a position line: its moves plus one.
int ply_of(const std::string& position) {
  std::vector<std::string> w = words(position);
  for (size_t i = 0; i < w.size(); ++i)
    if (w[i] == "moves") return int(w.size() - i - 1) + 1;
  return 1;
}

class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  int fd() const { return fd_; }
  // Reads what is there; false at end of file.
  bool fill() {
    char buf[4096];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    data_.append(buf, size_t(n));
    return true;
  }
  bool next(std::string& line) {
    size_t nl = data_.find('\n');
    if (nl == std::string::npos) return false;
    line = data_.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    data_.erase(0, nl + 1);
    return true;
  }

 private:
  int fd_;
  std::string data_;
};

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += size_t(n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string engine, name = "blunder";
  std::set<int> blunder_plies;
  bool fresh = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--fresh") == 0) {
      fresh = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (std::strcmp(argv[i], "--engine") == 0)
      engine = argv[++i];
    else if (std::strcmp(argv[i], "--blunder-at") == 0)
      blunder_plies = parse_plies(argv[++i]);
    else if (std::strcmp(argv[i], "--name") == 0)
      name = argv[++i];
  }
  if (engine.empty()) {
    std::fprintf(stderr, "blunder_usi_engine: --engine PATH is required\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2];
  if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) return 1;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::execl(engine.c_str(), engine.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  const int engine_in = to_child[1];
  LineReader from_gui(0), from_engine(from_child[0]);

  std::string position;
  bool blundering = false;  // the current search is one of --blunder-at
  // The lowest-scored line of the blundering search so far, per multipv index: its first move and score.
  std::vector<std::pair<int, std::string>> lines;
  bool gui_open = true;
  while (true) {
    pollfd fds[2] = {{from_engine.fd(), POLLIN, 0}, {0, POLLIN, 0}};
    if (::poll(fds, gui_open ? 2 : 1, -1) < 0) continue;
    if (gui_open && (fds[1].revents & (POLLIN | POLLHUP))) {
      if (!from_gui.fill()) {
        gui_open = false;
        ::close(engine_in);
      }
      std::string line;
      while (from_gui.next(line)) {
        std::vector<std::string> w = words(line);
        if (!w.empty() && w[0] == "position") position = line;
        if (fresh && !w.empty() && w[0] == "go") write_all(engine_in, "usinewgame\n" + position + "\n");
        if (!w.empty() && w[0] == "go" && blunder_plies.contains(ply_of(position))) {
          blundering = true;
          lines.clear();
          write_all(engine_in, "setoption name MultiPV value 600\n" + position + "\n");
        }
        write_all(engine_in, line + "\n");
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      if (!from_engine.fill()) break;
      std::string line;
      while (from_engine.next(line)) {
        std::vector<std::string> w = words(line);
        if (!w.empty() && w[0] == "id" && w.size() > 1 && w[1] == "name") {
          write_all(1, "id name " + name + "\n");
          continue;
        }
        if (blundering && !w.empty() && w[0] == "info") {
          int multipv = 1, score = INT_MIN;
          std::string first;
          for (size_t i = 1; i + 1 < w.size(); ++i) {
            if (w[i] == "multipv") multipv = std::atoi(w[i + 1].c_str());
            if (w[i] == "score" && i + 2 < w.size())
              score = w[i + 1] == "cp" ? std::atoi(w[i + 2].c_str()) : (w[i + 2][0] == '-' ? -100000 : 100000);
            if (w[i] == "pv") first = w[i + 1];
          }
          if (score != INT_MIN && !first.empty()) {
            if (lines.size() < size_t(multipv)) lines.resize(size_t(multipv), {INT_MAX, ""});
            lines[size_t(multipv - 1)] = {score, first};
          }
          if (multipv != 1) continue;  // the GUI sees the main line only
        }
        if (blundering && !w.empty() && w[0] == "bestmove") {
          blundering = false;
          std::pair<int, std::string> worst{INT_MAX, ""};
          for (const auto& l : lines)
            if (!l.second.empty() && l.first < worst.first) worst = l;
          write_all(engine_in, "setoption name MultiPV value 1\n");
          if (!worst.second.empty()) line = "bestmove " + worst.second;
        }
        write_all(1, line + "\n");
      }
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return 0;
}

// mock_usi_engine: one scripted USI engine whose misbehaviour is chosen on the command line, for the process,
// USI-client and end-to-end tests. Deterministic: the same arguments and input give the same output.
//
//   mock_usi_engine [--behavior B] [--after N] [--delay-ms D] [--think-ms T] [--count N] [--random --seed S]
//                   [--with-ponder] [--text LINE] [--stderr-bytes N] [--name NAME] [--clock]
//                   [--threads N] [--score SCORE] [--optimum X,Y [--p0 P] [--k K]] [--rule-options]
//                   [--time-manager M] [--silent-forced]
//
// Behaviours:
//   normal              first legal move (or a seeded random one with --random) after --think-ms; resign if none
//   crash-at-start      dies of SIGSEGV before reading anything
//   crash-on-go         like normal for --after N searches (default 0), then dies of SIGSEGV on go
//   never-answer-go     never answers go by itself; answers stop
//   answer-after-delay  answers go after --delay-ms (stop still answers at once)
//   illegal-move        answers with a well-formed move of a piece that is not there
//   malformed-bestmove  answers "bestmove" with no move, or --text LINE
//   false-win           answers "bestmove win" without checking the declaration
//   resign              answers "bestmove resign"
//   info-flood          --count N info lines (default 10000), kept up until --think-ms has passed, then bestmove
//   slow-usiok          answers usi after --delay-ms
//   ignore-stop         answers go only after --delay-ms (default never) and ignores stop
//   late-quit-exit      exits --delay-ms after quit (and on stdin EOF)
//   reject-increment    like normal, but dies of SIGABRT on a go with binc or winc, as gpsusi does
//   swapped-clocks      --clock, budgeting from the opponent's time (btime read as gote's, as Fairy-Stockfish 11.1)
//   double-increment    --clock, counting the increment twice
//   byoyomi-overrun     --clock, thinking --delay-ms past its byoyomi
//   double-bestmove     like normal, but writes its bestmove line twice
//   busy-no-readyok     like normal, but answers isready during a search only after its bestmove
//   illegal-drop        like normal, except that with a piece in hand it drops it onto an occupied square
//   die-on-garbage      like normal, but dies of SIGSEGV on a line that is not a USI command
//   answer-infinite     like normal, but answers go infinite and go ponder at once, without waiting for stop
//   hang-on-increment   like normal, but a go with binc or winc is answered only on stop
// --threads N: the default its Threads option advertises (YaneuraOu's is 4).
// --score SCORE: the score of the info line before each bestmove ("cp 0" by default; "mate +", "mate -3", ...).
// --silent-forced: a move that is the only legal one is answered at once without an info line, as engines do.
// --optimum X,Y: a strength model with a known optimum, the target of the SPSA tests. The engine offers the spin
//   options X and Y (0..100, default 50) and, at each of its moves, resigns with probability
//   p = P0 * (1 + K * ((X - X*)^2 + (Y - Y*)^2)) (--p0, default 0.03; --k, default 0.01): the side nearer the
//   optimum resigns later, so it wins more often, by a little. The draw comes from a hash of the position and the
//   option values, so the same game is played again from the same opening with the same values (a resumed run
//   replays its games exactly); moves are chosen the same way, as with --random.
// --clock: the think time comes from go (own time / 10 + increment * 0.8, or byoyomi * 0.8 once the main time is
// small, or movetime * 0.6) instead of --think-ms; nodes/depth searches still take --think-ms.
// --time-manager M (implies --clock): share-N, own time / N whatever the increment or byoyomi; ignore-increment,
// own time / 40; tenth-byoyomi, --clock's but a tenth of the byoyomi once in it.
// `go ponder` waits for ponderhit (then thinks) or stop (answers at once), except as said above.
// --rule-options: advertises YaneuraOu's EnteringKingRule (combo) and MaxMovesToDraw (spin), as its family does.
// Each setoption is echoed as "info string option <name> = <value>", so tests can see what was sent.

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "rules/game_end.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  std::string behavior = "normal";
  int after = 0;
  long delay_ms = -1;  // -1: not given
  long think_ms = 0;
  long count = 10000;
  bool random = false;
  std::uint64_t seed = 1;
  bool with_ponder = false;
  bool silent_forced = false;
  std::optional<std::string> text;
  long stderr_bytes = 0;
  std::string name = "MockEngine";
  std::string score = "cp 0";
  std::optional<std::pair<double, double>> optimum;
  double p0 = 0.03, k = 0.01;
  bool clock = false;
  std::string time_manager;  // --time-manager: a scripted allocation instead of --clock's (see the header)
  int threads = 1;
  bool rule_options = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "mock_usi_engine: %s\n", why.c_str());
  std::exit(2);
}

Config parse_args(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--behavior") c.behavior = next();
    else if (a == "--after") c.after = std::stoi(next());
    else if (a == "--delay-ms") c.delay_ms = std::stol(next());
    else if (a == "--think-ms") c.think_ms = std::stol(next());
    else if (a == "--count") c.count = std::stol(next());
    else if (a == "--random") c.random = true;
    else if (a == "--seed") c.seed = std::stoull(next());
    else if (a == "--with-ponder") c.with_ponder = true;
    else if (a == "--silent-forced")
      c.silent_forced = true;
    else if (a == "--rule-options") c.rule_options = true;
    else if (a == "--text") c.text = next();
    else if (a == "--stderr-bytes") c.stderr_bytes = std::stol(next());
    else if (a == "--name") c.name = next();
    else if (a == "--score") c.score = next();
    else if (a == "--optimum") {
      const std::string v = next();
      const auto comma = v.find(',');
      if (comma == std::string::npos) usage("--optimum needs X,Y");
      c.optimum = std::make_pair(std::stod(v.substr(0, comma)), std::stod(v.substr(comma + 1)));
      c.random = true;
    }
    else if (a == "--p0") c.p0 = std::stod(next());
    else if (a == "--k") c.k = std::stod(next());
    else if (a == "--clock")
      c.clock = true;
    else if (a == "--time-manager")
      c.time_manager = next(), c.clock = true;
    else if (a == "--threads")
      c.threads = std::stoi(next());
    else usage("unknown argument " + a);
  }
  static const char* known[] = {
      "normal",           "crash-at-start",     "crash-on-go",     "never-answer-go",  "answer-after-delay",
      "illegal-move",     "malformed-bestmove", "false-win",       "resign",           "info-flood",
      "slow-usiok",       "ignore-stop",        "late-quit-exit",  "reject-increment", "swapped-clocks",
      "double-increment", "byoyomi-overrun",    "double-bestmove", "busy-no-readyok",  "illegal-drop",
      "die-on-garbage",   "answer-infinite",    "hang-on-increment"};
  bool ok = false;
  for (const char* k : known) ok |= c.behavior == k;
  if (!ok) usage("unknown behavior " + c.behavior);
  if (c.behavior == "swapped-clocks" || c.behavior == "double-increment" || c.behavior == "byoyomi-overrun")
    c.clock = true;
  return c;
}

[[noreturn]] void crash(int signal = SIGSEGV) {
  // A real crash (death by signal), without leaving core files behind.
  rlimit none{0, 0};
  ::setrlimit(RLIMIT_CORE, &none);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
  std::_Exit(128 + signal);
}

void say(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::string square_name(int sq) {
  return std::string(1, char('1' + sq / 9)) + char('a' + sq % 9);
}

class Mock {
 public:
  explicit Mock(Config c) : cfg_(std::move(c)) { record_.start("startpos"); }

  int run() {
    if (cfg_.stderr_bytes > 0) {
      std::string junk(std::size_t(cfg_.stderr_bytes), 'e');
      std::fwrite(junk.data(), 1, junk.size(), stderr);
      std::fflush(stderr);
    }
    if (cfg_.behavior == "crash-at-start") crash();
    std::string buffer;
    char chunk[4096];
    while (true) {
      flood_some();
      int timeout = next_timeout_ms();
      pollfd p{STDIN_FILENO, POLLIN, 0};
      int n = ::poll(&p, 1, timeout);
      if (n > 0) {
        ssize_t got = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (got <= 0) return on_eof();
        buffer.append(chunk, std::size_t(got));
        std::size_t nl;
        while ((nl = buffer.find('\n')) != std::string::npos) {
          std::string line = buffer.substr(0, nl);
          buffer.erase(0, nl + 1);
          if (!line.empty() && line.back() == '\r') line.pop_back();
          if (auto code = handle(line)) return *code;
        }
      }
      fire_due();
    }
  }

 private:
  bool is(std::string_view b) const { return cfg_.behavior == b; }

  int on_eof() {
    if (is("late-quit-exit")) std::this_thread::sleep_for(std::chrono::milliseconds(std::max(0L, cfg_.delay_ms)));
    return 0;
  }

  // The earliest scheduled event, as a poll timeout (-1: none).
  int next_timeout_ms() const {
    if (flooding_) return 0;
    std::optional<Clock::time_point> due;
    if (usiok_due_) due = *usiok_due_;
    if (answer_due_ && (!due || *answer_due_ < *due)) due = *answer_due_;
    if (!due) return -1;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(*due - Clock::now()).count();
    return int(std::max<long long>(0, left));
  }

  void fire_due() {
    auto now = Clock::now();
    if (usiok_due_ && now >= *usiok_due_) {
      usiok_due_.reset();
      say("usiok");
    }
    if (answer_due_ && now >= *answer_due_) {
      answer_due_.reset();
      answer();
    }
  }

  void flood_some() {
    if (!flooding_) return;
    // A batch at a time, then back to poll so stop and quit are still heard.
    for (int i = 0; i < 64 && flooding_; ++i) {
      ++flood_sent_;
      say("info depth " + std::to_string(flood_sent_ % 64 + 1) + " score cp " + std::to_string(flood_sent_ % 200) +
          " nodes " + std::to_string(flood_sent_ * 1000) + " pv 7g7f 3c3d");
      if (flood_sent_ >= cfg_.count && Clock::now() >= flood_until_) {
        flooding_ = false;
        answer();
      }
    }
  }

  void print_usi() {
    say("id name " + cfg_.name);
    say("id author Shogi Arena tests");
    say("option name Hash type spin default 16 min 1 max 1024");
    say("option name Threads type spin default " + std::to_string(cfg_.threads) + " min 1 max 8");
    say("option name Move Overhead type spin default 10 min 0 max 5000");
    say("option name Style type combo default Normal var Solid var Normal var Risky");
    say("option name OwnBook type check default true");
    say("option name BookFile type filename default book.db");
    say("option name Nickname type string default <empty>");
    say("option name Clear Hash type button");
    say("option name Broken type spin default 5");  // no min/max: clients must skip it, not choke
    if (cfg_.rule_options) {
      say("option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule24H "
          "var CSARule27 var CSARule27H var TryRule");
      say("option name MaxMovesToDraw type spin default 0 min 0 max 100000");
    }
    if (cfg_.optimum) {
      say("option name X type spin default 50 min 0 max 100");
      say("option name Y type spin default 50 min 0 max 100");
    }
  }

  // Returns an exit code when the engine should exit.
  std::optional<int> handle(const std::string& line) {
    std::string_view l = line;
    auto word_end = l.find(' ');
    std::string_view cmd = l.substr(0, word_end);
    std::string_view rest = word_end == std::string_view::npos ? std::string_view() : l.substr(word_end + 1);
    if (cmd == "usi") {
      print_usi();
      if (is("slow-usiok")) usiok_due_ = Clock::now() + std::chrono::milliseconds(std::max(0L, cfg_.delay_ms));
      else say("usiok");
    } else if (cmd == "isready") {
      if (searching_ && is("busy-no-readyok"))
        readyok_after_search_ = true;
      else
        say("readyok");
    } else if (cmd == "setoption") {
      // "name <n...> value <v...>"
      std::string_view r = rest;
      if (r.starts_with("name ")) r.remove_prefix(5);
      auto v = r.find(" value ");
      std::string name(r.substr(0, v)), value = v == std::string_view::npos ? "" : std::string(r.substr(v + 7));
      say("info string option " + name + " = " + value);
      if (name == "X") x_ = std::stoi(value);
      if (name == "Y") y_ = std::stoi(value);
    } else if (cmd == "usinewgame") {
      searches_ = 0;
    } else if (cmd == "position") {
      auto ok = record_.start(rest);
      if (!ok) {
        say("info string bad position: " + ok.error());
        record_.start("startpos");
      }
    } else if (cmd == "go") {
      go(rest);
    } else if (cmd == "stop") {
      if (searching_ && !is("ignore-stop")) {
        flooding_ = false;
        answer();
      }
    } else if (cmd == "ponderhit") {
      if (searching_ && pondering_) {
        pondering_ = false;
        schedule_answer();
      }
    } else if (cmd == "gameover") {
      searching_ = false;
      answer_due_.reset();
    } else if (cmd == "quit") {
      if (is("late-quit-exit")) std::this_thread::sleep_for(std::chrono::milliseconds(std::max(0L, cfg_.delay_ms)));
      return 0;
    } else if (is("die-on-garbage") && !known_command(cmd))
      crash();
    // Unknown commands are ignored, as USI asks.
    return std::nullopt;
  }

  void go(std::string_view args) {
    ++searches_;
    if (is("crash-on-go") && searches_ > cfg_.after) crash();
    if (is("reject-increment") &&
        (args.find("binc") != std::string_view::npos || args.find("winc") != std::string_view::npos)) {
      std::fprintf(stderr, "unknown option in go binc\n");  // gpsusi's words, before its uncaught exception
      crash(SIGABRT);
    }
    searching_ = true;
    pondering_ = args.starts_with("ponder") || args.find(" ponder") != std::string_view::npos;
    think_ms_ = cfg_.clock ? budget_ms(args) : cfg_.think_ms;
    bool infinite = args.find("infinite") != std::string_view::npos;
    go_time_ = Clock::now();
    if (pondering_ || infinite) {
      if (is("answer-infinite")) answer();
      return;
    }
    if (is("hang-on-increment") &&
        (args.find("binc") != std::string_view::npos || args.find("winc") != std::string_view::npos))
      return;  // until stop
    schedule_answer();
  }

  void schedule_answer() {
    auto now = Clock::now();
    if (is("never-answer-go")) return;
    if (is("answer-after-delay") || is("ignore-stop")) {
      if (cfg_.delay_ms >= 0) answer_due_ = now + std::chrono::milliseconds(cfg_.delay_ms);
      return;
    }
    if (is("info-flood")) {
      flooding_ = true;
      flood_sent_ = 0;
      flood_until_ = now + std::chrono::milliseconds(cfg_.think_ms);
      return;
    }
    answer_due_ = now + std::chrono::milliseconds(think_ms_);
  }

  static bool known_command(std::string_view cmd) {
    for (std::string_view c :
         {"usi", "isready", "setoption", "usinewgame", "position", "go", "stop", "ponderhit", "gameover", "quit"})
      if (cmd == c) return true;
    return false;
  }

  // The value after `key` in a go line, if present.
  static std::optional<long> go_value(std::string_view args, std::string_view key) {
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < args.size()) {
      std::size_t end = args.find(' ', at);
      if (end == std::string_view::npos) end = args.size();
      if (end > at) words.emplace_back(args.substr(at, end - at));
      at = end + 1;
    }
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == key) return std::stol(words[i + 1]);
    return std::nullopt;
  }

  // How long to think on this go with --clock (see the header).
  long budget_ms(std::string_view args) const {
    if (auto movetime = go_value(args, "movetime")) return *movetime * 6 / 10;
    auto btime = go_value(args, "btime"), wtime = go_value(args, "wtime");
    if (!btime && !wtime) return cfg_.think_ms;  // nodes, depth, infinite
    bool black = record_.position().side_to_move() == shogi::BLACK;
    if (is("swapped-clocks")) black = !black;
    long own = (black ? btime : wtime).value_or(0);
    long inc = go_value(args, black ? "binc" : "winc").value_or(0);
    if (is("double-increment")) inc *= 2;
    long byoyomi = go_value(args, "byoyomi").value_or(0);
    if (cfg_.time_manager.starts_with("share-")) return own / std::stol(cfg_.time_manager.substr(6));
    if (cfg_.time_manager == "ignore-increment") return own / 40;  // as if 40 moves were to come, nothing added
    if (cfg_.time_manager == "tenth-byoyomi" && byoyomi > 0 && own < 10 * byoyomi) return own / 10 + byoyomi / 10;
    long think = own / 10 + inc * 8 / 10;
    if (byoyomi > 0 && own < 10 * byoyomi) think = own / 10 + byoyomi * 8 / 10;
    if (byoyomi > 0 && is("byoyomi-overrun")) think = own / 10 + byoyomi + std::max(0L, cfg_.delay_ms);
    return think;
  }

  shogi::Move choose(const shogi::Position& pos) const {
    shogi::MoveList<shogi::LEGAL> moves(pos);
    if (moves.size() == 0) return shogi::MOVE_NONE;
    std::size_t index = 0;
    if (cfg_.random) index = splitmix(cfg_.seed ^ splitmix(std::uint64_t(pos.key()))) % moves.size();
    return moves.begin()[index].move;
  }

  // The strength model of --optimum: a draw from the position and the option values only.
  bool resigns(const shogi::Position& pos) const {
    if (!cfg_.optimum) return false;
    const double dx = x_ - cfg_.optimum->first, dy = y_ - cfg_.optimum->second;
    const double p = cfg_.p0 * (1 + cfg_.k * (dx * dx + dy * dy));
    const std::uint64_t h = splitmix(splitmix(std::uint64_t(pos.key())) ^ (std::uint64_t(x_) << 32 | std::uint32_t(y_)));
    return double(h >> 11) * 0x1.0p-53 < p;
  }

  void answer() {
    if (!searching_) return;
    searching_ = false;
    pondering_ = false;
    answer_due_.reset();
    say_bestmove();
    if (readyok_after_search_) {
      readyok_after_search_ = false;
      say("readyok");
    }
  }

  static int drop_index(shogi::PieceType pt) {
    switch (pt) {
      case shogi::PAWN:
        return 0;
      case shogi::LANCE:
        return 1;
      case shogi::KNIGHT:
        return 2;
      case shogi::SILVER:
        return 3;
      case shogi::GOLD:
        return 4;
      case shogi::BISHOP:
        return 5;
      default:
        return 6;
    }
  }

  void say_bestmove() {
    const shogi::Position& pos = record_.position();
    if (is("illegal-drop")) {
      // Any piece in hand, dropped onto the first occupied square: well-formed, and never legal.
      for (shogi::PieceType pt :
           {shogi::PAWN, shogi::LANCE, shogi::KNIGHT, shogi::SILVER, shogi::GOLD, shogi::BISHOP, shogi::ROOK})
        if (shogi::hand_exists(pos.hand(pos.side_to_move()), pt)) {
          int to = 0;
          while (pos.piece_on(shogi::Square(to)) == shogi::NO_PIECE) ++to;
          return say(std::string("bestmove ") + "PLNSGBR"[drop_index(pt)] + "*" + square_name(to));
        }
    }
    if (is("illegal-move")) {
      // A well-formed move of a piece that is not there.
      int from = 0;
      while (from < shogi::SQ_NB && pos.piece_on(shogi::Square(from)) != shogi::NO_PIECE) ++from;
      say("bestmove " + square_name(from) + square_name((from + 1) % shogi::SQ_NB));
      return;
    }
    if (is("malformed-bestmove")) return say(cfg_.text.value_or("bestmove"));
    if (is("false-win")) return say("bestmove win");
    if (is("resign")) return say("bestmove resign");
    if (resigns(pos)) return say("bestmove resign");
    shogi::Move m = choose(pos);
    if (m == shogi::MOVE_NONE) return say("bestmove resign");
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - go_time_).count();
    std::string usi = shogi::to_usi(m);
    if (cfg_.silent_forced && shogi::MoveList<shogi::LEGAL>(pos).size() == 1) return say("bestmove " + usi);
    say("info depth 1 seldepth 1 score " + cfg_.score + " nodes 1 nps 1000 time " + std::to_string(elapsed) + " pv " +
        usi);
    std::string line = "bestmove " + usi;
    if (cfg_.with_ponder) {
      shogi::StateInfo si;
      shogi::Position next;
      shogi::StateInfo next_si;
      next.copy_from(pos, &next_si);
      next.do_move(m, si);
      shogi::Move reply = choose(next);
      if (reply != shogi::MOVE_NONE) line += " ponder " + shogi::to_usi(reply);
    }
    // Both copies in one write: the second is in the pipe with the first, whatever the scheduling.
    say(is("double-bestmove") ? line + "\n" + line : line);
  }

  Config cfg_;
  shogi::GameRecord record_;
  int x_ = 50, y_ = 50;  // the --optimum model's options
  int searches_ = 0;
  bool searching_ = false;
  bool pondering_ = false;
  bool flooding_ = false;
  bool readyok_after_search_ = false;
  long think_ms_ = 0;  // this search's
  long flood_sent_ = 0;
  Clock::time_point flood_until_{};
  Clock::time_point go_time_{};
  std::optional<Clock::time_point> usiok_due_;
  std::optional<Clock::time_point> answer_due_;
};

}  // namespace

int main(int argc, char** argv) {
  Config cfg = parse_args(argc, argv);
  shogi::Position::init();
  // The runner may have ignored SIGPIPE; an engine whose reader is gone should just die.
  ::signal(SIGPIPE, SIG_DFL);
  Mock mock(std::move(cfg));
  return mock.run();
}

#include "usi/usi.h"

#include <charconv>
#include <iostream>
#include <sstream>

#include "rules/notation.h"
#include "search/tune.h"
#include "usi/bench.h"

namespace shogi::usi {

namespace {

std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> tokens;
  std::istringstream is{std::string(line)};
  for (std::string t; is >> t;) tokens.push_back(t);
  return tokens;
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::string format_score(Value v, bool lowerbound, bool upperbound) {
  std::string s;
  if (v >= VALUE_MATE_IN_MAX_PLY)
    s = "score mate " + std::to_string(VALUE_MATE - v);
  else if (v <= VALUE_MATED_IN_MAX_PLY)
    s = "score mate -" + std::to_string(VALUE_MATE + v);
  else
    s = "score cp " + std::to_string(v);
  if (lowerbound) s += " lowerbound";
  if (upperbound) s += " upperbound";
  return s;
}

std::string format_info(const InfoFull& info) {
  // Appended piece by piece: a long chain of operator+ on temporaries makes GCC 12 warn (-Wrestrict, a known
  // false positive) and copies the growing string at every step.
  std::string s = "info depth ";
  s.reserve(128 + 6 * info.pv.size());
  s += std::to_string(info.depth);
  s += " seldepth ";
  s += std::to_string(info.sel_depth);
  s += " multipv ";
  s += std::to_string(info.multipv);
  s += ' ';
  s += format_score(info.score, info.lowerbound, info.upperbound);
  s += " nodes ";
  s += std::to_string(info.nodes);
  s += " nps ";
  s += std::to_string(info.nps);
  s += " time ";
  s += std::to_string(info.time);
  s += " hashfull ";
  s += std::to_string(info.hashfull);
  s += " pv";
  for (Move m : info.pv) {
    s += ' ';
    s += to_usi(m);
  }
  return s;
}

UsiLoop::UsiLoop(std::istream& in, std::ostream& out) : in_(in), out_(out) {
  // std::cin is tied to std::cout: every read would flush the output from this thread, without print()'s lock,
  // while a search thread prints its bestmove. Two unsynchronised flushes of one buffer can write the same line
  // twice, and the GUI then takes the stale duplicate as the answer to its next `go`. print() flushes anyway.
  in_.tie(nullptr);
  add_options();
  SearchCallbacks cb;
  cb.on_info = [this](const InfoFull& info) { print(format_info(info)); };
  cb.on_info_string = [this](const std::string& s) { info_string(s); };
  cb.on_bestmove = [this](Move best, Move ponder) {
    std::string line = "bestmove ";
    line += to_usi(best);
    if (ponder != MOVE_NONE) {
      line += " ponder ";
      line += to_usi(ponder);
    }
    answered_ = true;  // before the line: a GUI that reads it may send setoption at once
    print(line);
  };
  cb.on_checkmate = [this](CheckmateStatus status, const std::vector<Move>& pv) {
    if (status == CheckmateStatus::Mate) {
      std::string s = "checkmate";
      for (Move m : pv) {
        s += ' ';
        s += to_usi(m);
      }
      answered_ = true;
      print(s);
    } else {
      answered_ = true;
      print(status == CheckmateStatus::NoMate ? "checkmate nomate" : "checkmate timeout");
    }
  };
  engine_.set_callbacks(std::move(cb));
}

UsiLoop::~UsiLoop() {
  engine_.stop();
  engine_.wait_for_search_finished();
}

void UsiLoop::print(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

void UsiLoop::add_options() {
  SearchOptions& so = engine_.options();
  options_.add("USI_Hash", Option::spin(64, 1, 65536, [this](const Option& o) { engine_.set_hash_size(size_t(o.as_int())); }));
  options_.add("Threads", Option::spin(1, 1, 256, [this](const Option& o) { engine_.set_threads(size_t(o.as_int())); }));
  options_.add("USI_Ponder", Option::check(false));
  options_.add("MultiPV", Option::spin(1, 1, MAX_MOVES, [&so](const Option& o) { so.multi_pv = int(o.as_int()); }));
  options_.add("NetworkDelay", Option::spin(so.time.network_delay, 0, 10000,
                                            [&so](const Option& o) { so.time.network_delay = o.as_int(); }));
  options_.add("NetworkDelay2", Option::spin(so.time.network_delay2, 0, 10000,
                                             [&so](const Option& o) { so.time.network_delay2 = o.as_int(); }));
  options_.add("MinimumThinkingTime", Option::spin(so.time.minimum_thinking_time, 0, 60000, [&so](const Option& o) {
                 so.time.minimum_thinking_time = o.as_int();
               }));
  options_.add("SlowMover",
               Option::spin(so.time.slow_mover, 1, 1000, [&so](const Option& o) { so.time.slow_mover = int(o.as_int()); }));
  options_.add("RoundUpToFullSecond", Option::check(so.time.round_up_to_full_second, [&so](const Option& o) {
                 so.time.round_up_to_full_second = o.as_bool();
               }));
  options_.add("ResignValue",
               Option::spin(so.resign_value, 0, 99999, [&so](const Option& o) { so.resign_value = int(o.as_int()); }));
  options_.add("DrawValue",
               Option::spin(so.draw_value, -5000, 5000, [&so](const Option& o) { so.draw_value = Value(o.as_int()); }));
  options_.add("EnteringKingRule",
               Option::combo("CSARule27", {"CSARule27", "24Point", "NoEnteringKing"}, [&so](const Option& o) {
                 so.entering_king = parse_entering_king_rule(o.as_string()).value_or(EnteringKingRule::Point27);
               }));
  options_.add("DepthLimit",
               Option::spin(0, 0, MAX_PLY - 10, [&so](const Option& o) { so.depth_limit = int(o.as_int()); }));
  options_.add("NodesLimit", Option::spin(0, 0, int64_t(1) << 50,
                                          [&so](const Option& o) { so.nodes_limit = uint64_t(o.as_int()); }));
  options_.add("ShortestMate",
               Option::check(so.shortest_mate, [&so](const Option& o) { so.shortest_mate = o.as_bool(); }));
  // A learned evaluation from a file (shogi-arena-engine learn); <empty> is the built-in one, `none` the
  // hand-written evaluation alone.
  options_.add("EvalFile", Option::string("", [this](const Option& o) {
                 const std::string path = o.as_string() == "<empty>" ? std::string() : o.as_string();
                 if (auto r = engine_.set_eval_file(path); !r)
                   info_string("EvalFile: " + r.error() + " (the evaluation in use is unchanged)");
                 else
                   info_string("EvalFile: " + (path.empty()     ? std::string("the built-in weights")
                                               : path == "none" ? std::string("the hand-written evaluation")
                                                                : path));
               }));
  options_.add("HashStatistics",
               Option::check(false, [this](const Option& o) { engine_.set_hash_statistics(o.as_bool()); }));
  // A tune build: the search's constants as options, for shogi-arena spsa (search/tune.h).
  if constexpr (tune::TUNE_BUILD)
    for (const tune::Tunable& t : tune::tunables())
      options_.add(t.name, Option::spin(t.default_value, t.min, t.max, [name = std::string(t.name)](const Option& o) {
                     tune::set(name, int(o.as_int()));
                   }));
}

void UsiLoop::run() {
  std::string line;
  while (std::getline(in_, line))
    if (!execute(line)) return;
  // End of input is a quit: stop any search cleanly.
  execute("quit");
}

bool UsiLoop::execute(std::string_view line) {
  const std::vector<std::string> tokens = split(line);
  if (tokens.empty()) return true;
  const std::string& cmd = tokens[0];

  if (cmd == "quit") {
    release_held_answer();
    engine_.stop();
    engine_.wait_for_search_finished();
    return false;
  }
  if (cmd == "stop") {
    release_held_answer();
    engine_.stop();
  } else if (cmd == "ponderhit") {
    release_held_answer();
    engine_.ponderhit();
  } else if (cmd == "usi") {
    print("id name " + std::string(ENGINE_NAME) + (tune::TUNE_BUILD ? " tune" : ""));
    print("id author " + std::string(ENGINE_AUTHOR));
    std::string decl = options_.usi_declarations();
    if (!decl.empty()) decl.pop_back();
    print(decl);
    print("usiok");
  } else if (cmd == "isready") {
    // During a search only answer: the heavy work waits for the next isready or go.
    if (!engine_.searching()) engine_.ready();
    print("readyok");
  } else if (cmd == "setoption") {
    cmd_setoption(tokens);
  } else if (cmd == "usinewgame") {
    release_held_answer();
    if (engine_.searching()) {
      engine_.stop();
      engine_.wait_for_search_finished();
    }
    engine_.new_game();
  } else if (cmd == "position") {
    const size_t at = line.find("position");
    std::string_view rest = line.substr(at + 8);
    while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
    if (auto r = engine_.set_position(rest); !r) {
      // The GUI's game goes on from a position this engine does not have: searching the previous one would answer
      // a move that may be illegal there, so every go fails until a position is accepted.
      position_error_ = r.error();
      info_string("bad position: " + r.error() + " (no position: go answers resign until a valid position)");
    } else {
      position_error_.clear();
    }
  } else if (cmd == "go") {
    cmd_go(tokens);
  } else if (cmd == "gameover") {
    if (tokens.size() < 2 || (tokens[1] != "win" && tokens[1] != "lose" && tokens[1] != "draw"))
      info_string("gameover expects win, lose or draw");
    release_held_answer();
    engine_.stop();
    engine_.wait_for_search_finished();
  } else if ((cmd == "d" || cmd == "sfen" || cmd == "eval") && !position_error_.empty()) {
    info_string(no_position());
  } else if (cmd == "d" || cmd == "sfen") {
    info_string("sfen " + engine_.position().sfen());
  } else if (cmd == "eval") {
    info_string("eval " + std::to_string(engine_.static_eval()) + " (side to move)");
  } else if (cmd == "tt" && tokens.size() > 1 && tokens[1] == "stats") {
    engine_.wait_for_search_finished();
    if (!engine_.tt().stats_enabled())
      info_string("hash statistics are off: setoption name HashStatistics value true, then isready");
    else
      info_string("tt stats " + engine_.tt().stats().to_string());
  } else if (cmd == "tune-params") {
    // Raw lines, as Stockfish's TUNE prints them: `shogi-arena spsa --params` reads them as they are.
    if constexpr (tune::TUNE_BUILD) {
      std::string lines = tune::params_lines();
      if (!lines.empty()) lines.pop_back();
      print(lines);
    } else {
      info_string("tune-params: this build has no tunable options; build shogi-arena-engine-tune");
    }
  } else if (cmd == "bench") {
    engine_.wait_for_search_finished();
    const int depth = tokens.size() > 1 ? int(parse_int(tokens[1]).value_or(BENCH_DEPTH)) : BENCH_DEPTH;
    const size_t threads = tokens.size() > 2 ? size_t(std::max<int64_t>(1, parse_int(tokens[2]).value_or(1))) : 1;
    const size_t hash_mb = tokens.size() > 3 ? size_t(std::max<int64_t>(1, parse_int(tokens[3]).value_or(16))) : 16;
    // With this session's weights: `setoption name EvalFile value none` then `bench` measures the hand-written
    // evaluation.
    run_bench(out_, engine_.eval_weights(), depth, threads, hash_mb);
  } else {
    info_string("unknown command: " + std::string(line));
  }
  return true;
}

void UsiLoop::cmd_setoption(const std::vector<std::string>& tokens) {
  // setoption name <name, may contain spaces> [value <value, may contain spaces>]
  std::string name, value;
  bool in_value = false;
  if (tokens.size() < 3 || tokens[1] != "name") {
    info_string("setoption expects: setoption name <name> [value <value>]");
    return;
  }
  for (size_t i = 2; i < tokens.size(); ++i) {
    if (!in_value && tokens[i] == "value") {
      in_value = true;
      continue;
    }
    std::string& s = in_value ? value : name;
    if (!s.empty()) s += ' ';
    s += tokens[i];
  }
  // A GUI may set an option as soon as it has read the bestmove, while the search thread still winds down.
  if (engine_.searching() && answered_) engine_.wait_for_search_finished();
  if (engine_.searching()) {
    info_string("setoption ignored during a search: " + name);
    return;
  }
  if (auto r = options_.set(name, value); !r) info_string(r.error());
}

void UsiLoop::cmd_go(const std::vector<std::string>& tokens) {
  SearchLimits limits;
  limits.start_time = Clock::now();  // the clock runs from the moment the command arrived
  int perft_depth = 0;

  auto number = [&](size_t& i, const std::string& what) -> std::optional<int64_t> {
    if (i + 1 >= tokens.size()) {
      info_string("go: " + what + " needs a value");
      return std::nullopt;
    }
    auto v = parse_int(tokens[++i]);
    if (!v) info_string("go: bad value for " + what + ": " + tokens[i]);
    return v;
  };

  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "btime" || t == "wtime") {
      if (auto v = number(i, t)) limits.time[t == "btime" ? BLACK : WHITE] = *v;
    } else if (t == "binc" || t == "winc") {
      if (auto v = number(i, t)) limits.inc[t == "binc" ? BLACK : WHITE] = *v;
    } else if (t == "byoyomi") {
      if (auto v = number(i, t)) limits.byoyomi[BLACK] = limits.byoyomi[WHITE] = *v;
    } else if (t == "movetime") {
      if (auto v = number(i, t)) limits.movetime = std::max<int64_t>(0, *v);
    } else if (t == "depth") {
      if (auto v = number(i, t)) limits.depth = int(std::clamp<int64_t>(*v, 0, MAX_PLY - 10));
    } else if (t == "nodes") {
      if (auto v = number(i, t)) limits.nodes = uint64_t(std::max<int64_t>(0, *v));
    } else if (t == "infinite") {
      limits.infinite = true;
    } else if (t == "ponder") {
      limits.ponder = true;
    } else if (t == "mate") {
      limits.mate_search = true;
      if (i + 1 < tokens.size() && tokens[i + 1] == "infinite") {
        ++i;
        limits.infinite = true;
      } else if (auto v = number(i, t)) {
        limits.mate_time = std::max<int64_t>(0, *v);
      }
    } else if (t == "perft") {
      if (auto v = number(i, t)) perft_depth = int(std::clamp<int64_t>(*v, 0, 20));
    } else if (t == "searchmoves") {
      while (i + 1 < tokens.size()) {
        auto m = parse_usi_move(engine_.position(), tokens[i + 1]);
        if (!m) break;
        limits.search_moves.push_back(*m);
        ++i;
      }
    } else {
      info_string("go: unknown token ignored: " + t);
    }
  }

  // A go during a search (a front-end error) first ends the old search, which answers with its bestmove.
  release_held_answer();
  if (engine_.searching()) {
    engine_.stop();
    engine_.wait_for_search_finished();
  }
  if (!position_error_.empty()) {
    answer_without_position(limits, perft_depth > 0);
    return;
  }
  if (perft_depth > 0) {
    cmd_perft(perft_depth);
    return;
  }
  answered_ = false;
  engine_.go(std::move(limits));
}

void UsiLoop::answer_without_position(const SearchLimits& limits, bool perft) {
  info_string("go: " + no_position());
  if (perft) return;  // perft is no game move: the error is the whole answer
  const std::string answer = limits.mate_search ? "checkmate nomate" : "bestmove resign";
  if (limits.ponder || limits.infinite)
    held_answer_ = answer;
  else
    print(answer);
}

std::string UsiLoop::no_position() const {
  return "no position: the last position command was refused (" + position_error_ + ")";
}

void UsiLoop::release_held_answer() {
  if (held_answer_.empty()) return;
  print(held_answer_);
  held_answer_.clear();
}

void UsiLoop::cmd_perft(int depth) {
  const uint64_t nodes =
      engine_.perft(depth, [this](Move m, uint64_t n) { print(to_usi(m) + ": " + std::to_string(n)); });
  print("");
  print("Nodes searched: " + std::to_string(nodes));
}

}  // namespace shogi::usi

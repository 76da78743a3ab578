#pragma once
// The alpha-beta search of one thread: iterative deepening with aspiration windows and PVS, quiescence search,
// and the pruning, reduction and extension steps. Threads share a SharedState (hash table, limits, stop flag);
// the main thread also drives time decisions and reports through callbacks. Search never prints.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "eval/kp.h"
#include "rules/game_end.h"
#include "rules/position.h"
#include "search/dfpn.h"
#include "search/history.h"
#include "search/limits.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "search/value.h"

namespace shogi {

class ThreadPool;

struct RootMove {
  explicit RootMove(Move m) : pv(1, m) {}
  bool operator==(Move m) const { return pv[0] == m; }
  // Descending by score, the previous iteration's score breaking ties (stable sorting keeps the rest).
  bool operator<(const RootMove& o) const {
    return o.score != score ? o.score < score : o.previous_score < previous_score;
  }

  Value score = -VALUE_INFINITE;
  Value previous_score = -VALUE_INFINITE;
  Value display_score = -VALUE_INFINITE;
  bool lowerbound = false, upperbound = false;
  int sel_depth = 0;
  std::vector<Move> pv;
};
using RootMoves = std::vector<RootMove>;

struct InfoFull {
  int depth = 0, sel_depth = 0, multipv = 1;
  Value score = 0;
  bool lowerbound = false, upperbound = false;
  uint64_t nodes = 0, nps = 0;
  Milliseconds time = 0;
  int hashfull = 0;
  std::vector<Move> pv;
};

// The answer to `go mate`: `checkmate <pv>`, `checkmate nomate` (proven) or `checkmate timeout`.
enum class CheckmateStatus { Mate, NoMate, Timeout };

struct SearchCallbacks {
  std::function<void(const InfoFull&)> on_info;
  std::function<void(const std::string&)> on_info_string;
  // best is MOVE_RESIGN or MOVE_WIN for `bestmove resign` / `bestmove win`; ponder may be MOVE_NONE.
  std::function<void(Move best, Move ponder)> on_bestmove;
  // `go mate`: the mating line, or empty with the status for nomate / timeout.
  std::function<void(CheckmateStatus status, const std::vector<Move>& pv)> on_checkmate;
};

struct SearchOptions {
  int multi_pv = 1;
  Value draw_value = 0;      // value of a draw for the engine (contempt), in centipawns
  int resign_value = 99999;  // resign when the score is at or below -resign_value
  EnteringKingRule entering_king = EnteringKingRule::Point27;
  int depth_limit = 0;       // 0 = none
  uint64_t nodes_limit = 0;  // 0 = none
  // `go mate`: after df-pn's first proof, search every shorter length by checks until done, the time is up or `stop`
  // (false: answer with the first proof, shortened only within half df-pn's nodes).
  bool shortest_mate = true;
  TimeOptions time;
};

// State shared by all threads of one search.
struct SharedState {
  SharedState(TranspositionTable& t, ThreadPool& p) : tt(t), threads(p) {}

  TranspositionTable& tt;
  ThreadPool& threads;
  SearchOptions options;
  SearchLimits limits;
  TimeManager time;
  SearchCallbacks callbacks;
  std::string start_sfen = "startpos";
  std::vector<Move> moves;
  // The learned evaluation this engine's searches use (nullptr: the hand-written evaluation alone). Each engine owns
  // its own; changed only while no search runs.
  std::shared_ptr<const kp::Weights> weights;

  std::atomic<bool> stop{false};
  std::atomic<bool> ponder{false};            // pondering: do not stop on our own before ponderhit
  std::atomic<bool> stop_on_ponderhit{false};  // the search decided it is done; stop as soon as ponderhit comes
  std::mutex wake_mutex;
  std::condition_variable wake_cv;            // signalled on stop and ponderhit
};

class Worker {
 public:
  Worker(SharedState& shared, size_t id);

  // Replays the game from the shared start position and move list, and prepares the root moves.
  void prepare();
  void clear_history();
  // The thread's whole search; the main thread (id 0) also runs the helpers and reports the best move.
  void start_searching();

  uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  size_t id() const { return id_; }
  const RootMoves& root_moves() const { return root_moves_; }
  int completed_depth() const { return completed_depth_; }

 private:
  enum NodeType { NonPV, PV, Root };
  struct Stack {
    Move* pv = nullptr;
    int ply = 0;
    Move current_move = MOVE_NONE;
    // The statistics of the moves after current_move; nullptr before the root and after a null move.
    PieceToHistory* continuation = nullptr;
    Move excluded_move = MOVE_NONE;
    Move killers[2] = {MOVE_NONE, MOVE_NONE};
    Value static_eval = VALUE_NONE;
    int move_count = 0;
    bool in_check = false;
    bool tt_pv = false;
    bool capture = false;
    int half_extensions = 0;  // halved extensions carried along the path (two make one ply)
    kp::Accumulator acc;      // the learned evaluation's sums for this ply's position, when it was evaluated
  };

  void main_search();
  void iterative_deepening();
  template <NodeType Nt>
  Value search(Position& pos, Stack* ss, Value alpha, Value beta, Depth depth, bool cut_node);
  template <NodeType Nt>
  Value qsearch(Position& pos, Stack* ss, Value alpha, Value beta, Depth depth = 0);

  // The static evaluation of pos at ss: the learned one through the stack's accumulators when it is in use.
  Value static_eval(const Position& pos, Stack* ss);
  // raw, a static evaluation of pos, with the correction history's share for pos added (never a known win).
  Value corrected_eval(const Position& pos, Value raw) const;
  // After a node's search: teaches the correction history how far best_value is from the node's static evaluation.
  void update_correction_history(const Position& pos, const Stack* ss, Move best_move, Value best_value, Value beta,
                                 Depth depth);
  void update_accumulator(const kp::Weights& w, const Position& pos, Stack* ss);
  Value draw_value() const;
  int extension_limit_scale(bool pv_node, int ply) const;
  void update_quiet_stats(Stack* ss, Move move, int bonus);
  void update_continuation_histories(Stack* ss, Move move, int bonus);
  // How a quiet move did: its butterfly history plus the continuation histories after the last two moves (a null
  // move has none). Late-move reductions shrink as it grows.
  int quiet_stat_score(const Stack* ss, Color us, Move move) const;
  // After a node's search found `best`: the quiet statistics when it is quiet, the capture history when it is a
  // capture or promotion; the other moves searched (quiets, captures) get the malus.
  void update_all_stats(const Position& pos, Stack* ss, Move best, Depth depth, const Move* quiets, int quiet_count,
                        const Move* captures, int capture_count);
  void check_limits();
  // An info line's nodes, time, nps and hashfull as of now: what every line the search sends shares.
  InfoFull info_base(Milliseconds elapsed) const;
  void report(int depth, Milliseconds elapsed) const;
  // The search's last word when the last exact line sent may not say it: its score and line at depth.
  void report_final(int depth, int sel_depth, Value score, const std::vector<Move>& pv) const;
  Move ponder_move(const RootMove& rm);
  bool proven_mate(const RootMove& rm) const;
  void run_mate_search();
  // df-pn on the root position within a node budget taken from the move's optimum time.
  MateResult root_mate_search(Milliseconds optimum);
  // A mate of `plies` plies from the root is known (df-pn's `line`, or a mate score of the search with no line):
  // looks for a shorter one by checks within shorter_mate_budget_, and keeps the shortest line proven.
  void shorten_root_mate(int plies, const std::vector<Move>& line);
  // The value of the root mate proven by checks (root_mate_line_), or -VALUE_INFINITE when there is none.
  Value root_mate_value() const;

  SharedState& shared_;
  const size_t id_;
  const kp::Weights* weights_ = nullptr;  // shared_.weights, taken by prepare(): read at every evaluation
  kp::RefreshCache refresh_cache_;        // for weights_, cleared by prepare()
  Position root_pos_;
  std::deque<StateInfo> states_;
  RootMoves root_moves_;
  Color root_color_ = BLACK;
  TimePoint search_start_;
  int root_depth_ = 0, completed_depth_ = 0, sel_depth_ = 0;
  size_t pv_idx_ = 0, multi_pv_ = 1;
  int nmp_min_ply_ = 0;
  double best_move_changes_ = 0;
  std::atomic<uint64_t> nodes_{0};
  ButterflyHistory history_;
  CaptureHistory capture_history_;
  std::unique_ptr<ContinuationHistory> continuation_history_ = std::make_unique<ContinuationHistory>();
  CounterMoves counter_moves_;
  CorrectionHistory correction_history_;
  // The main thread's df-pn solvers, each made at its first use: for the root of timed searches, for `go mate`.
  std::unique_ptr<DfpnSolver> root_mate_, go_mate_;
  // The check-only solver that shortens proven mates (shorten_root_mate, go mate), also made at its first use.
  std::unique_ptr<MateSolver> shortener_;
  MateSolver& shortener();
  // The shortest mate from the root the main thread has proven by checks in this search (empty: none). A mate score
  // is a claim: no info line and no bestmove claims a longer mate than this one.
  std::vector<Move> root_mate_line_;
  bool root_mate_shortest_ = false;  // no mate by checks is shorter than root_mate_line_
  int root_mate_claim_ = 0;          // the shortest mate length handed to shorten_root_mate so far (0: none)
  uint64_t shorter_mate_budget_ = 0;
};

// Reduction table used by late-move reductions, filled once.
void init_search_tables();

// A check for tests (asserts are compiled out of release builds): while enabled, every search compares each
// accumulator it computes with a full recomputation and counts them. Process-wide, as an instrument: it changes no
// result, only the speed.
struct AccumulatorCheck {
  uint64_t computed = 0, incremental = 0, mismatches = 0;
};
void set_accumulator_check(bool on);
AccumulatorCheck accumulator_check();

}  // namespace shogi

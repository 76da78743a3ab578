#include "search/search.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "eval/evaluate.h"
#include "rules/movegen.h"
#include "search/dfpn.h"
#include "search/mate.h"
#include "search/movepick.h"
#include "search/see.h"
#include "search/thread.h"
#include "search/tune.h"

namespace shogi {

namespace {

using namespace tune;  // the tunable constants (search/tune.h)

// df-pn's tables: `go mate` gets a large one for its single search, the root of every timed search a small one.
constexpr size_t GO_MATE_TABLE_MB = 64;
constexpr size_t ROOT_MATE_TABLE_MB = 2;
// The root's df-pn budget: nodes per millisecond of the optimum time (a few per cent of it), within these bounds.
constexpr uint64_t ROOT_MATE_NODES_PER_MS = 10;  // df-pn runs about 400 nodes a millisecond: 2.5 % of the time
constexpr uint64_t ROOT_MATE_MIN_NODES = 300;
constexpr uint64_t ROOT_MATE_MAX_NODES = 200000;
// A proven mate's shortening: nodes of the check-only solver per millisecond of the optimum, within these bounds. It
// runs 650 to 800 nodes a millisecond, so about a third of the time: a won game has little else to spend it on, and
// a mate score is a claim that should be the shortest.
constexpr uint64_t SHORTER_MATE_NODES_PER_MS = 300;
constexpr uint64_t SHORTER_MATE_MIN_NODES = 2000;
constexpr uint64_t SHORTER_MATE_MAX_NODES = 20000000;

int REDUCTIONS[MAX_MOVES];

Depth reduction(bool improving, Depth d, int move_count) {
  const int r = REDUCTIONS[std::min(d, MAX_MOVES - 1)] * REDUCTIONS[std::min(move_count, MAX_MOVES - 1)];
  return (r + LmrRounding) / 1024 + (!improving && r > LmrNonImproving);
}

int futility_move_count(bool improving, Depth depth) { return (FutilityMoveBase + depth * depth) / (2 - improving); }
Value futility_margin(Depth d, bool improving) { return RfpMargin * (d - improving); }

void update_pv(Move* pv, Move move, const Move* child) {
  for (*pv++ = move; child && *child != MOVE_NONE;) *pv++ = *child++;
  *pv = MOVE_NONE;
}

// The key under which a singular-extension search (one move excluded) stores its result.
Key excluded_key(Key key, Move excluded) { return key ^ (uint64_t(excluded) * 0xD6E8FEB86659FD93ULL); }

std::atomic<bool> g_check_accumulators{false};
std::atomic<uint64_t> g_checked{0}, g_checked_incremental{0}, g_check_mismatches{0};

}  // namespace

void set_accumulator_check(bool on) {
  g_checked = g_checked_incremental = g_check_mismatches = 0;
  g_check_accumulators = on;
}

AccumulatorCheck accumulator_check() {
  return {g_checked.load(), g_checked_incremental.load(), g_check_mismatches.load()};
}

void init_search_tables() {
  REDUCTIONS[0] = 0;
  for (int i = 1; i < MAX_MOVES; ++i) REDUCTIONS[i] = int(tune::LmrScale / 10.0 * std::log(i));
}

Worker::Worker(SharedState& shared, size_t id) : shared_(shared), id_(id) { clear_history(); }

void Worker::clear_history() {
  history_.clear();
  capture_history_.clear();
  continuation_history_->clear();
  counter_moves_.clear();
  correction_history_.clear();
}

void Worker::prepare() {
  weights_ = shared_.weights.get();
  refresh_cache_.clear();  // the weights may have changed since the last search
  states_.clear();
  states_.emplace_back();
  // The engine validated the position and moves before storing them, with the relaxed piece limits.
  (void)root_pos_.set(shared_.start_sfen, &states_.back(), PieceLimits::Relaxed);
  for (Move m : shared_.moves) {
    states_.emplace_back();
    root_pos_.do_move(m, states_.back());
  }
  root_color_ = root_pos_.side_to_move();
  root_moves_.clear();
  const auto& wanted = shared_.limits.search_moves;
  if (!wanted.empty()) {
    for (const ExtMove& m : MoveList<LEGAL>(root_pos_))
      if (std::find(wanted.begin(), wanted.end(), m.move) != wanted.end()) root_moves_.emplace_back(m.move);
  } else {
    ExtMove list[MAX_MOVES];
    ExtMove* end = root_pos_.in_check() ? generate<EVASIONS>(root_pos_, list) : generate<NON_EVASIONS>(root_pos_, list);
    for (ExtMove* m = list; m != end; ++m)
      if (root_pos_.legal(m->move)) root_moves_.emplace_back(m->move);
  }
  // Order the root moves cheaply so that a search stopped at once still plays something sensible: a mate in one
  // first, then captures by the value taken.
  const Move mate = mate_in_one(root_pos_);
  for (RootMove& rm : root_moves_) {
    const Move m = rm.pv[0];
    const Piece captured = is_drop(m) ? NO_PIECE : root_pos_.piece_on(to_sq(m));
    rm.score = m == mate ? VALUE_MATE : captured != NO_PIECE ? capture_value(type_of(captured)) : 0;
  }
  std::stable_sort(root_moves_.begin(), root_moves_.end());
  for (RootMove& rm : root_moves_) rm.score = -VALUE_INFINITE;
  search_start_ = shared_.limits.start_time;
  nodes_ = 0;
  root_depth_ = completed_depth_ = sel_depth_ = 0;
  best_move_changes_ = 0;
  nmp_min_ply_ = 0;
}

Value Worker::draw_value() const { return shared_.options.draw_value; }

void Worker::start_searching() {
  if (id_ == 0)
    main_search();
  else
    iterative_deepening();
}

bool Worker::proven_mate(const RootMove& rm) const {
  const Value v = rm.score;
  if (!is_mate_value(v) || v == -VALUE_INFINITE) return false;
  const int plies = VALUE_MATE - std::abs(v);
  // Pruning can hide a shorter mate from the first iteration that finds one; deeper iterations bring it back.
  return completed_depth_ >= 2 * plies + 1;
}

void Worker::main_search() {
  SharedState& sh = shared_;
  auto wait_for_release = [&] {
    // In ponder or infinite mode bestmove must wait for `stop` or `ponderhit`.
    std::unique_lock lock(sh.wake_mutex);
    sh.wake_cv.wait(lock, [&] { return sh.stop.load() || (!sh.ponder.load() && !sh.limits.infinite); });
  };

  if (sh.limits.mate_search) {
    run_mate_search();
    return;
  }
  if (root_moves_.empty()) {
    wait_for_release();
    if (sh.callbacks.on_info_string) sh.callbacks.on_info_string("no legal moves: resign");
    if (sh.callbacks.on_bestmove) sh.callbacks.on_bestmove(MOVE_RESIGN, MOVE_NONE);
    return;
  }
  if (sh.options.entering_king != EnteringKingRule::Off && check_declaration(root_pos_, sh.options.entering_king).valid) {
    wait_for_release();
    if (sh.callbacks.on_bestmove) sh.callbacks.on_bestmove(MOVE_WIN, MOVE_NONE);
    return;
  }

  // A mate the alpha-beta search prunes past is still played: df-pn at the root first, within a budget, when the
  // clock rules the search (fixed depths and node counts stay reproducible) over every root move.
  // ponderhit rewrites the time allocation under the wake mutex: read it under the same lock.
  bool timed;
  Milliseconds optimum;
  {
    std::lock_guard lock(sh.wake_mutex);
    timed = sh.time.enabled();
    optimum = sh.time.optimum();
  }
  // The helpers search meanwhile: df-pn keeps its own table and leaves the shared one to them.
  sh.threads.start_helpers();
  root_mate_line_.clear();
  root_mate_shortest_ = false;
  root_mate_claim_ = 0;
  shorter_mate_budget_ =
      timed ? std::clamp<uint64_t>(uint64_t(std::max<Milliseconds>(0, optimum)) * SHORTER_MATE_NODES_PER_MS,
                                   SHORTER_MATE_MIN_NODES, SHORTER_MATE_MAX_NODES)
            : 0;
  if (timed && sh.limits.search_moves.empty()) {
    const MateResult root_mate = root_mate_search(optimum);
    if (root_mate.status == MateResult::Status::Mate) shorten_root_mate(int(root_mate.pv.size()), root_mate.pv);
  }
  iterative_deepening();
  wait_for_release();
  sh.stop = true;
  sh.threads.wait_for_helpers();

  // Prefer a helper that got deeper with a better score, or that found a shorter mate.
  Worker* best = this;
  for (size_t i = 1; i < sh.threads.size(); ++i) {
    Worker& w = sh.threads.at(i).worker();
    if (w.completed_depth_ == 0 || w.root_moves_.empty()) continue;
    const Value bs = best->root_moves_[0].score, ws = w.root_moves_[0].score;
    if ((w.completed_depth_ > best->completed_depth_ && ws > bs) || (ws >= VALUE_MATE_IN_MAX_PLY && ws > bs))
      best = &w;
  }
  if (best != this) best->report(best->completed_depth_, elapsed_ms(search_start_));

  const RootMove& rm = best->root_moves_[0];
  Value score = rm.score == -VALUE_INFINITE ? rm.previous_score : rm.score;
  Move bestmove = rm.pv[0];
  Move pondermove = rm.pv.size() > 1 ? rm.pv[1] : best->ponder_move(best->root_moves_[0]);
  const Value proven = root_mate_value();
  if (proven != -VALUE_INFINITE && score <= proven) {
    // The search saw no shorter mate than the one proven by checks (or none at all): play that one, and say so.
    score = proven;
    bestmove = root_mate_line_[0];
    pondermove = root_mate_line_.size() > 1 ? root_mate_line_[1] : MOVE_NONE;
    report_final(best->completed_depth_, int(root_mate_line_.size()), score, root_mate_line_);
  } else if (score >= VALUE_MATE_IN_MAX_PLY && rm.lowerbound) {
    // A mate the last, unfinished iteration found as a bound: the last exact line sent may not say it.
    report_final(best->completed_depth_, rm.sel_depth, score, rm.pv);
  }
  if (score != -VALUE_INFINITE && score <= -sh.options.resign_value) {
    bestmove = MOVE_RESIGN;
    pondermove = MOVE_NONE;
  }
  if (sh.callbacks.on_bestmove) sh.callbacks.on_bestmove(bestmove, pondermove);
}

Move Worker::ponder_move(const RootMove& rm) {
  // Without a second PV move, the hash table may still know the reply.
  StateInfo st;
  root_pos_.do_move(rm.pv[0], st);
  bool found;
  Move reply = MOVE_NONE;
  const TTEntry* tte = shared_.tt.probe(root_pos_.key(), found);
  if (found) {
    const Move m = root_pos_.to_move(tte->move());
    if (m != MOVE_NONE && root_pos_.pseudo_legal(m) && root_pos_.legal(m)) reply = m;
  }
  root_pos_.undo_move(rm.pv[0]);
  return reply;
}

void Worker::run_mate_search() {
  SharedState& sh = shared_;
  // df-pn first: it reaches long mates. Its line is the shortest the table proved, not always the shortest there is,
  // so the check-only iterative-deepening solver then searches every shorter length: until done, the time is up or
  // `stop` (ShortestMate), or within half df-pn's nodes (and at least 100,000).
  if (!go_mate_) go_mate_ = std::make_unique<DfpnSolver>(GO_MATE_TABLE_MB);
  MateResult r = go_mate_->solve(root_pos_, 0, sh.stop, MAX_PLY - 10);
  uint64_t nodes = go_mate_->nodes();
  if (r.status == MateResult::Status::Mate) {
    const uint64_t budget = sh.options.shortest_mate ? 0 : nodes / 2 + 100000;
    const ShorterMate s = shorter_mate(shortener(), root_pos_, int(r.pv.size()), sh.stop, budget);
    nodes += s.nodes;
    if (!s.pv.empty()) r.pv = s.pv;
  }
  // `go mate infinite` keeps the answer until `stop`, as other searches do.
  if (sh.limits.infinite || sh.ponder) {
    std::unique_lock lock(sh.wake_mutex);
    sh.wake_cv.wait(lock, [&] { return sh.stop.load() || (!sh.ponder.load() && !sh.limits.infinite); });
  }
  nodes_ = nodes;
  const CheckmateStatus status = r.status == MateResult::Status::Mate     ? CheckmateStatus::Mate
                                 : r.status == MateResult::Status::NoMate ? CheckmateStatus::NoMate
                                                                          : CheckmateStatus::Timeout;
  if (sh.callbacks.on_checkmate) sh.callbacks.on_checkmate(status, r.pv);
}

MateResult Worker::root_mate_search(Milliseconds optimum) {
  SharedState& sh = shared_;
  // A few per cent of the move's time: about ROOT_MATE_NODES_PER_MS df-pn nodes a millisecond of the optimum.
  const uint64_t budget = std::clamp<uint64_t>(uint64_t(std::max<Milliseconds>(0, optimum)) * ROOT_MATE_NODES_PER_MS,
                                               ROOT_MATE_MIN_NODES, ROOT_MATE_MAX_NODES);
  if (!root_mate_) root_mate_ = std::make_unique<DfpnSolver>(ROOT_MATE_TABLE_MB);
  return root_mate_->solve(root_pos_, budget, sh.stop, MAX_PLY - 10);
}

void Worker::shorten_root_mate(int plies, const std::vector<Move>& line) {
  // Only timed searches shorten (fixed depths and node counts stay reproducible). Once every length by checks below
  // the proven line was searched, a shorter mate of the search's own needs a quiet move: nothing more to look for.
  if (shorter_mate_budget_ == 0 || plies <= 0 || root_mate_shortest_) return;
  if (root_mate_claim_ && plies >= root_mate_claim_) return;
  root_mate_claim_ = plies;
  const ShorterMate shorter = shorter_mate(shortener(), root_pos_, plies, shared_.stop, shorter_mate_budget_);
  if (!shorter.pv.empty()) {
    root_mate_line_ = shorter.pv;
    root_mate_shortest_ = true;
  } else if (!line.empty() && (root_mate_line_.empty() || line.size() < root_mate_line_.size())) {
    root_mate_line_ = line;
    root_mate_shortest_ = shorter.shortest;
  }
}

MateSolver& Worker::shortener() {
  if (!shortener_) shortener_ = std::make_unique<MateSolver>();
  return *shortener_;
}

Value Worker::root_mate_value() const {
  return root_mate_line_.empty() ? -VALUE_INFINITE : mate_in(int(root_mate_line_.size()));
}

void Worker::update_accumulator(const kp::Weights& w, const Position& pos, Stack* ss) {
  kp::Accumulator& acc = ss->acc;
  if (acc.key == pos.key()) return;
  // From the parent's sums when the parent has them (every node that searches children brings its own up to
  // date first), else from scratch.
  const StateInfo* previous = pos.state()->previous;
  const kp::Accumulator& parent = (ss - 1)->acc;
  const bool incremental = ss->ply > 0 && previous && parent.key == previous->key() &&
                           kp::update(w, pos, (ss - 1)->current_move, parent, acc, &refresh_cache_);
  if (!incremental) kp::refresh(w, pos, acc, &refresh_cache_);
  if (g_check_accumulators.load(std::memory_order_relaxed)) {
    kp::Accumulator full;
    kp::refresh(w, pos, full);
    ++g_checked;
    g_checked_incremental += incremental;
    g_check_mismatches += !kp::same_sums(full, acc);
  }
}

namespace {
// What the correction history keys on: both hands and both king squares.
uint64_t correction_signature(const Position& pos) {
  return pos.state()->hand_key ^ uint64_t(pos.king_square(BLACK)) * 0xC2B2AE3D27D4EB4FULL ^
         uint64_t(pos.king_square(WHITE)) * 0x165667B19E3779F9ULL;
}
}  // namespace

Value Worker::corrected_eval(const Position& pos, Value raw) const {
  return CorrectionHistory::corrected(raw, correction_history_.get(pos.side_to_move(), correction_signature(pos)));
}

void Worker::update_correction_history(const Position& pos, const Stack* ss, Move best_move, Value best_value,
                                       Value beta, Depth depth) {
  // Only where best_value says something about the static evaluation: not in check (none), not a verdict (a mate,
  // a perpetual, a known win), not a capture's gain (quiescence already sees it), and not a bound on the wrong side
  // of the evaluation.
  if (ss->in_check || ss->static_eval == VALUE_NONE || !CorrectionHistory::teaches(best_value)) return;
  if (best_move != MOVE_NONE && capture_stage(pos, best_move)) return;
  if (best_value >= beta && best_value <= ss->static_eval) return;
  if (best_move == MOVE_NONE && best_value >= ss->static_eval) return;
  correction_history_.update(pos.side_to_move(), correction_signature(pos), (best_value - ss->static_eval) * depth / 8);
}

Value Worker::static_eval(const Position& pos, Stack* ss) {
  if (!weights_) return evaluate_hand_written(pos);
  update_accumulator(*weights_, pos, ss);
  return evaluate_learned(*weights_, pos, ss->acc);
}

InfoFull Worker::info_base(Milliseconds elapsed) const {
  InfoFull info;
  info.nodes = shared_.threads.nodes_searched();
  info.time = elapsed;
  info.nps = info.nodes * 1000 / uint64_t(std::max<Milliseconds>(1, elapsed));
  info.hashfull = shared_.tt.hashfull();
  return info;
}

void Worker::report_final(int depth, int sel_depth, Value score, const std::vector<Move>& pv) const {
  if (!shared_.callbacks.on_info) return;
  InfoFull info = info_base(elapsed_ms(search_start_));
  info.depth = std::max(1, depth);
  info.sel_depth = sel_depth;
  info.score = score;
  info.pv = pv;
  shared_.callbacks.on_info(info);
}

void Worker::report(int depth, Milliseconds elapsed) const {
  if (!shared_.callbacks.on_info) return;
  // One count of the nodes for every line, so that the multipv lines agree.
  const InfoFull base = info_base(elapsed);
  for (size_t i = 0; i < multi_pv_ && i < root_moves_.size(); ++i) {
    const RootMove& rm = root_moves_[i];
    const bool updated = rm.score != -VALUE_INFINITE;
    if (depth == 1 && !updated && i > 0) continue;
    const Value v = updated ? rm.display_score : rm.previous_score;
    if (v == -VALUE_INFINITE) continue;
    InfoFull info = base;
    info.depth = updated ? depth : std::max(1, depth - 1);
    info.sel_depth = rm.sel_depth;
    info.multipv = int(i) + 1;
    info.score = v;
    info.lowerbound = i == pv_idx_ && updated && rm.lowerbound;
    info.upperbound = i == pv_idx_ && updated && rm.upperbound;
    info.pv = rm.pv;
    if (i == 0 && v < root_mate_value()) {
      // The search has not (yet) seen the mate proven by checks, or sees a longer one: the line says the proven one.
      info.score = root_mate_value();
      info.lowerbound = info.upperbound = false;
      info.sel_depth = std::max(info.sel_depth, int(root_mate_line_.size()));
      info.pv = root_mate_line_;
    }
    shared_.callbacks.on_info(info);
  }
}

void Worker::iterative_deepening() {
  SharedState& sh = shared_;
  const bool is_main = id_ == 0;
  Move pv[MAX_PLY + 1];
  Stack stack[MAX_PLY + 10] = {};
  Stack* ss = stack + 7;
  for (int i = 0; i <= MAX_PLY + 2; ++i) (ss + i)->ply = i;
  ss->pv = pv;

  multi_pv_ = std::min<size_t>(std::max(1, sh.options.multi_pv), root_moves_.size());
  int max_depth = MAX_PLY - 10;
  if (sh.limits.depth > 0) max_depth = std::min(max_depth, sh.limits.depth);
  if (sh.options.depth_limit > 0) max_depth = std::min(max_depth, sh.options.depth_limit);

  Value best_value = -VALUE_INFINITE;
  Move last_best = MOVE_NONE;
  int stable_iterations = 0;
  Milliseconds last_iteration_time = 0, previous_iteration_time = 0;
  Value previous_score = VALUE_NONE;
  TimePoint iteration_start = Clock::now();
  // The first iteration is always searched, in well under a millisecond: a move whose time was gone before the
  // search began (a tiny movetime, or df-pn at the root took it) is still a searched move with a score, never the
  // first root move played blind and without an info line.
  const bool stopped_before = is_main && sh.stop.load();
  if (stopped_before) sh.stop = false;

  while (++root_depth_ <= max_depth && !sh.stop.load(std::memory_order_relaxed)) {
    if (stopped_before && root_depth_ == 2) {
      sh.stop = true;
      break;
    }
    // Helpers skip alternate depths so that the threads spread over different iterations.
    if (!is_main && root_depth_ > 1 && ((root_depth_ + int(id_)) & 1)) continue;
    if (is_main) best_move_changes_ *= 0.5;
    for (RootMove& rm : root_moves_) rm.previous_score = rm.score;
    bool failed_low = false;
    iteration_start = Clock::now();

    for (pv_idx_ = 0; pv_idx_ < multi_pv_ && !sh.stop.load(std::memory_order_relaxed); ++pv_idx_) {
      sel_depth_ = 0;
      Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE, delta = 0;
      const Value prev = root_moves_[pv_idx_].previous_score;
      if (root_depth_ >= 4 && prev != -VALUE_INFINITE && !is_mate_value(prev)) {
        delta = tune::AspirationDelta + std::abs(prev) / 64;
        alpha = std::max(prev - delta, -VALUE_INFINITE);
        beta = std::min(prev + delta, VALUE_INFINITE);
      }
      while (true) {
        best_value = search<Root>(root_pos_, ss, alpha, beta, root_depth_, false);
        std::stable_sort(root_moves_.begin() + long(pv_idx_), root_moves_.end());
        if (sh.stop.load(std::memory_order_relaxed)) break;
        if (is_main && multi_pv_ == 1 && (best_value <= alpha || best_value >= beta) &&
            elapsed_ms(search_start_) > 3000)
          report(root_depth_, elapsed_ms(search_start_));
        if (best_value <= alpha) {
          beta = (alpha + beta) / 2;
          alpha = std::max(best_value - delta, -VALUE_INFINITE);
          failed_low = true;
          if (is_main) sh.stop_on_ponderhit = false;
        } else if (best_value >= beta) {
          beta = std::min(best_value + delta, VALUE_INFINITE);
        } else {
          break;
        }
        delta += delta / 3 + 5;
      }
      std::stable_sort(root_moves_.begin(), root_moves_.begin() + long(pv_idx_) + 1);
      if (is_main && (sh.stop.load() || pv_idx_ + 1 == multi_pv_ || elapsed_ms(search_start_) > 3000))
        report(root_depth_, elapsed_ms(search_start_));
    }
    if (sh.stop.load(std::memory_order_relaxed)) break;
    completed_depth_ = root_depth_;
    if (!is_main) continue;

    // Time decisions, between iterations only.
    previous_iteration_time = last_iteration_time;
    last_iteration_time = elapsed_ms(iteration_start);
    const Move best = root_moves_[0].pv[0];
    stable_iterations = best == last_best ? stable_iterations + 1 : 0;
    last_best = best;
    // A mate the search found is shortened by checks, once for each shorter length it finds.
    if (const Value v = root_moves_[0].score; v >= VALUE_MATE_IN_MAX_PLY && v < VALUE_INFINITE)
      shorten_root_mate(VALUE_MATE - v, {});
    const bool mate = proven_mate(root_moves_[0]) ||
                      (!root_mate_line_.empty() && completed_depth_ >= 2 * int(root_mate_line_.size()) + 1);
    const bool single = root_moves_.size() == 1;
    TimeManager tm;
    TimePoint clock_start;
    {
      std::lock_guard lock(sh.wake_mutex);
      tm = sh.time;
      clock_start = sh.limits.start_time;  // `go ponder` while pondering, ponderhit after it
    }
    IterationReport r;
    r.elapsed = elapsed_ms(clock_start);
    r.last_iteration_time = last_iteration_time;
    r.branching_factor =
        previous_iteration_time > 0 ? double(last_iteration_time) / double(previous_iteration_time) : 2.0;
    r.best_move_changes = best_move_changes_;
    r.stable_iterations = stable_iterations;
    r.failed_low = failed_low;
    r.score = root_moves_[0].score;
    r.previous_score = previous_score;
    r.single_legal_move = single;
    r.mate_proven = mate;
    // Pondering counts the time since `go ponder` as thinking done for this move, as Stockfish does: when it already
    // covers what the move asks for, ponderhit answers at once and the clock keeps what the opponent gave us.
    if (sh.ponder.load())
      sh.stop_on_ponderhit = tm.thought_enough_while_pondering(r);
    else if (tm.stop_after_iteration(r))
      sh.stop = true;
    previous_score = root_moves_[0].score;
  }
}

void Worker::check_limits() {
  const uint64_t limit = shared_.limits.nodes ? shared_.limits.nodes : shared_.options.nodes_limit;
  if (limit && shared_.threads.nodes_searched() >= limit) shared_.stop = true;
}

int Worker::extension_limit_scale(bool pv_node, int ply) const {
  // Extensions are limited relative to the iteration depth: halved, then dropped, far beyond it.
  const int beyond = ply - root_depth_;
  if (pv_node) return beyond > tune::ExtNonePv ? 0 : beyond > tune::ExtHalfPv ? 1 : 2;
  return beyond > tune::ExtNoneNonPv ? 0 : beyond > tune::ExtHalfNonPv ? 1 : 2;
}

void Worker::update_quiet_stats(Stack* ss, Move move, int bonus) {
  if (ss->killers[0] != move) {
    ss->killers[1] = ss->killers[0];
    ss->killers[0] = move;
  }
  // Null moves count as plies too, so the side to move follows from the ply's parity.
  history_.update(Color(root_color_ ^ (ss->ply & 1)), move, bonus);
  update_continuation_histories(ss, move, bonus);
  if (is_ok((ss - 1)->current_move)) counter_moves_.set((ss - 1)->current_move, move);
}

int Worker::quiet_stat_score(const Stack* ss, Color us, Move move) const {
  int score = history_.get(us, move);
  for (int back : {1, 2})
    if (const PieceToHistory* c = (ss - back)->continuation) score += c->get(move);
  return score;
}

void Worker::update_continuation_histories(Stack* ss, Move move, int bonus) {
  for (int back : {1, 2, 4})
    if (PieceToHistory* c = (ss - back)->continuation) c->update(move, bonus);
}

void Worker::update_all_stats(const Position& pos, Stack* ss, Move best, Depth depth, const Move* quiets,
                              int quiet_count, const Move* captures, int capture_count) {
  const int bonus = stat_bonus(depth + 1);
  const Color us = Color(root_color_ ^ (ss->ply & 1));
  if (!capture_stage(pos, best)) {
    update_quiet_stats(ss, best, bonus);
    for (int i = 0; i < quiet_count; ++i)
      if (quiets[i] != best) {
        history_.update(us, quiets[i], -bonus);
        update_continuation_histories(ss, quiets[i], -bonus);
      }
  } else {
    capture_history_.update(best, captured_type(pos, best), bonus);
  }
  for (int i = 0; i < capture_count; ++i)
    if (captures[i] != best) capture_history_.update(captures[i], captured_type(pos, captures[i]), -bonus);
}

template <Worker::NodeType Nt>
Value Worker::search(Position& pos, Stack* ss, Value alpha, Value beta, Depth depth, bool cut_node) {
  constexpr bool pv_node = Nt != NonPV;
  constexpr bool root_node = Nt == Root;

  if (depth <= 0) return qsearch<pv_node ? PV : NonPV>(pos, ss, alpha, beta);

  SharedState& sh = shared_;
  Move pv[MAX_PLY + 1];
  StateInfo st;
  Move quiets_searched[64], captures_searched[32];
  int quiet_count = 0, capture_count = 0;
  const Color us = pos.side_to_move();

  nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  if (id_ == 0 && (nodes_.load(std::memory_order_relaxed) & 255) == 0) check_limits();
  ss->in_check = pos.in_check();
  ss->move_count = 0;
  if (pv_node && sel_depth_ < ss->ply + 1) sel_depth_ = ss->ply + 1;

  if (!root_node) {
    // Step 1: aborted search, repetition, maximum ply.
    if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;
    if (ss->ply >= MAX_PLY - 2) return ss->in_check ? VALUE_ZERO : static_eval(pos, ss);
    switch (pos.repetition(2, 32)) {
      case Repetition::Draw: return us == root_color_ ? draw_value() : -draw_value();
      case Repetition::Win: return VALUE_PERPETUAL;
      case Repetition::Loss: return -VALUE_PERPETUAL;
      case Repetition::None: break;
    }
    // A side that may declare a win has in effect mated.
    if (sh.options.entering_king != EnteringKingRule::Off && pos.has_king(us) &&
        in_promotion_zone(us, pos.king_square(us)) && can_declare_win(pos, sh.options.entering_king))
      return mate_in(ss->ply + 1);

    // Step 2: mate distance pruning. Even a mate at the next move cannot beat a shorter mate already found.
    alpha = std::max(mated_in(ss->ply), alpha);
    beta = std::min(mate_in(ss->ply + 1), beta);
    if (alpha >= beta) return alpha;
  }

  (ss + 1)->excluded_move = MOVE_NONE;
  // The null-move and ProbCut children carry this node's halves; the move loop sets them per move. Without this a
  // child would read what an earlier sibling's subtree left in the slot.
  (ss + 1)->half_extensions = ss->half_extensions;
  (ss + 2)->killers[0] = (ss + 2)->killers[1] = MOVE_NONE;
  const Move excluded = ss->excluded_move;
  const Move prev_move = (ss - 1)->current_move;

  // Step 3: transposition table.
  const Key key = excluded ? excluded_key(pos.key(), excluded) : pos.key();
  bool tt_hit;
  TTEntry* tte = sh.tt.probe(key, tt_hit);
  Value tt_value = tt_hit ? value_from_tt(tte->value(), ss->ply) : VALUE_NONE;
  // Copies, like tt_value, read from here on instead of the entry: the null-move search (its verification searches
  // this very key) and ProbCut may overwrite the slot before ProbCut and the singular test read them.
  Bound tt_bound = tt_hit ? tte->bound() : BOUND_NONE;
  Depth tt_depth = tt_hit ? tte->depth() : DEPTH_NONE;
  Move tt_move = MOVE_NONE;
  if (root_node)
    tt_move = root_moves_[pv_idx_].pv[0];
  else if (tt_hit) {
    const Move m = pos.to_move(tte->move());
    if (m != MOVE_NONE && pos.pseudo_legal(m)) tt_move = m;
  }
  if (!excluded) ss->tt_pv = pv_node || (tt_hit && tte->is_pv());

  // At PV nodes only an exact bound may cut, so that the principal variation stays honest.
  if (!root_node && tt_hit && tt_depth >= depth && tt_value != VALUE_NONE &&
      (pv_node ? tt_bound == BOUND_EXACT : (tt_value >= beta ? (tt_bound & BOUND_LOWER) : (tt_bound & BOUND_UPPER)))) {
    if (tt_move && tt_value >= beta && !capture_stage(pos, tt_move)) update_quiet_stats(ss, tt_move, stat_bonus(depth));
    if (pv_node) {
      ss->pv[0] = MOVE_NONE;
      if (tt_move && pos.legal(tt_move)) update_pv(ss->pv, tt_move, nullptr);
    }
    return tt_value;
  }

  // Step 4: one-move mate, cheaper than searching to find it. An entry written only by quiescence search does not
  // count as a visit: move-count pruning there could hide a quiet mating check.
  if (!root_node && !ss->in_check && !excluded && (!tt_hit || tt_depth <= DEPTH_QS_CHECKS)) {
    const Move mate = mate_in_one(pos);
    if (mate != MOVE_NONE) {
      const Value v = mate_in(ss->ply + 1);
      sh.tt.save(tte, key, value_to_tt(v, ss->ply), ss->tt_pv, BOUND_EXACT, std::min(MAX_PLY - 1, depth + 6),
                 to_move16(mate), VALUE_NONE);
      if (pv_node) update_pv(ss->pv, mate, nullptr);
      return v;
    }
  }

  // Step 5: static evaluation, refined by the hash value when its bound allows. The learned evaluation's sums are
  // brought up to date here even when the hash supplies the value or the side is in check: the children start
  // from them.
  if (weights_) update_accumulator(*weights_, pos, ss);
  // raw_eval, the evaluation itself, is what the hash table keeps; ss->static_eval is it corrected by the
  // correction history, what the search prunes with.
  Value eval, raw_eval = VALUE_NONE;
  bool improving = false;
  if (ss->in_check) {
    ss->static_eval = eval = VALUE_NONE;
  } else {
    if (excluded) {
      raw_eval = eval = ss->static_eval;
    } else if (tt_hit) {
      raw_eval = tte->eval() == VALUE_NONE ? static_eval(pos, ss) : tte->eval();
      ss->static_eval = eval = corrected_eval(pos, raw_eval);
      if (tt_value != VALUE_NONE && (tt_bound & (tt_value > eval ? BOUND_LOWER : BOUND_UPPER))) eval = tt_value;
    } else {
      raw_eval = static_eval(pos, ss);
      ss->static_eval = eval = corrected_eval(pos, raw_eval);
      sh.tt.save(tte, key, VALUE_NONE, ss->tt_pv, BOUND_NONE, DEPTH_NONE, MOVE16_NONE, raw_eval);
    }
    improving = (ss - 2)->static_eval == VALUE_NONE ? (ss - 4)->static_eval == VALUE_NONE || ss->static_eval > (ss - 4)->static_eval
                                                    : ss->static_eval > (ss - 2)->static_eval;

    // Step 6: razoring. Far below alpha at low depth: let quiescence search decide. Not when only a mate beats
    // alpha: quiescence search never sees one, so every node searched for a shorter mate would be cut.
    if (!pv_node && depth <= 3 && alpha < VALUE_MATE_IN_MAX_PLY && eval < alpha - tune::RazorBase - tune::RazorDepthSquared * depth * depth) {
      const Value v = qsearch<NonPV>(pos, ss, alpha - 1, alpha);
      if (v < alpha) return v;
    }

    // Step 7: reverse futility (static null move). Not against a mated-score beta: the static eval says nothing
    // about a mate the opponent is looking for.
    if (!ss->tt_pv && depth < tune::RfpDepth && beta > VALUE_MATED_IN_MAX_PLY && eval - futility_margin(depth, improving) >= beta &&
        eval < VALUE_KNOWN_WIN)
      return eval;

    // Step 8: null move, with a verification search at high depth against zugzwang-like traps.
    if (!pv_node && prev_move != MOVE_NULL && !excluded && eval >= beta && ss->static_eval >= beta - tune::NmpEvalDepth * depth + tune::NmpEvalBase &&
        ss->ply >= nmp_min_ply_ && beta > VALUE_MATED_IN_MAX_PLY && beta < VALUE_MATE_IN_MAX_PLY) {
      const Depth r = tune::NmpBase + depth / tune::NmpDepthDivisor + std::min((eval - beta) / tune::NmpEvalDivisor, 3);
      ss->current_move = MOVE_NULL;
      ss->continuation = nullptr;
      pos.do_null_move(st);
      Value null_value = -search<NonPV>(pos, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
      pos.undo_null_move();
      if (null_value >= beta) {
        null_value = null_move_cutoff_value(null_value, beta);
        if (nmp_min_ply_ || depth < 12) return null_value;
        nmp_min_ply_ = ss->ply + 3 * (depth - r) / 4;
        const Value v = search<NonPV>(pos, ss, beta - 1, beta, depth - r, false);
        nmp_min_ply_ = 0;
        if (v >= beta) return null_value;
      }
    }

    // Step 9: ProbCut. A good capture that beats beta by a margin in a reduced search very likely beats beta.
    const Value probcut_beta = beta + tune::ProbcutMargin - tune::ProbcutImproving * improving;
    if (!pv_node && depth > 4 && std::abs(beta) < VALUE_MATE_IN_MAX_PLY &&
        !(tt_hit && tt_depth >= depth - 3 && tt_value != VALUE_NONE && tt_value < probcut_beta)) {
      MovePicker mp(pos, tt_move, probcut_beta - ss->static_eval);
      Move move;
      while ((move = mp.next_move()) != MOVE_NONE) {
        if (move == excluded || !pos.legal(move)) continue;
        ss->current_move = move;
        ss->continuation = continuation_history_->after(move);
        sh.tt.prefetch(pos.key_after(move));
        pos.do_move(move, st);
        Value v = -qsearch<NonPV>(pos, ss + 1, -probcut_beta, -probcut_beta + 1);
        if (v >= probcut_beta) v = -search<NonPV>(pos, ss + 1, -probcut_beta, -probcut_beta + 1, depth - 4, !cut_node);
        pos.undo_move(move);
        if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;
        if (v >= probcut_beta) {
          sh.tt.save(tte, key, value_to_tt(v, ss->ply), ss->tt_pv, BOUND_LOWER, depth - 3, to_move16(move), raw_eval);
          return v;
        }
      }
    }
  }

  // Step 10: internal iterative deepening when there is no hash move to try first.
  if (!root_node && !tt_move && depth >= (pv_node ? 6 : 8) && !excluded) {
    search<Nt>(pos, ss, alpha, beta, depth - (pv_node ? 2 : 4), cut_node);
    if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;
    tte = sh.tt.probe(key, tt_hit);
    tt_value = tt_hit ? value_from_tt(tte->value(), ss->ply) : VALUE_NONE;
    tt_bound = tt_hit ? tte->bound() : BOUND_NONE;
    tt_depth = tt_hit ? tte->depth() : DEPTH_NONE;
    if (tt_hit) {
      const Move m = pos.to_move(tte->move());
      if (m != MOVE_NONE && pos.pseudo_legal(m)) tt_move = m;
    }
  }

  // Single-reply extension needs the number of legal evasions up front.
  bool single_reply = false;
  if (ss->in_check && !root_node) {
    int legal = 0;
    for (const ExtMove& m : MoveList<EVASIONS>(pos))
      if (pos.legal(m.move) && ++legal > 1) break;
    single_reply = legal == 1;
  }

  // Step 11: the move loop.
  const Move killers[2] = {ss->killers[0], ss->killers[1]};
  const Move counter = counter_moves_.get(prev_move);
  const MovePicker::Continuations continuations = {(ss - 1)->continuation, (ss - 2)->continuation,
                                                   (ss - 4)->continuation};
  MovePicker mp(pos, tt_move, depth, &history_, &capture_history_, continuations, killers, counter);
  Value best_value = -VALUE_INFINITE, value = -VALUE_INFINITE;
  Move best_move = MOVE_NONE;
  int move_count = 0;
  bool move_count_pruning = false;
  const bool tt_capture = tt_move && pos.is_capture_or_promotion(tt_move);
  const int ext_scale = extension_limit_scale(pv_node, ss->ply);

  Move move;
  while ((move = mp.next_move(move_count_pruning)) != MOVE_NONE) {
    if (move == excluded) continue;
    if (root_node) {
      if (std::find(root_moves_.begin() + long(pv_idx_), root_moves_.end(), move) == root_moves_.end()) continue;
    } else if (!pos.legal(move)) {
      continue;
    }
    ss->move_count = ++move_count;
    if (pv_node) (ss + 1)->pv = nullptr;

    const bool capture = pos.is_capture(move);
    const bool capture_or_promotion = capture || is_promotion(move);
    const bool gives_check = pos.gives_check(move);
    Depth extension = 0;
    Depth new_depth = depth - 1;

    // Step 12: pruning at shallow depth. While only a mate beats alpha (looking for a shorter mate than one already
    // found) the late quiet moves are not skipped wholesale: the checking drops that mate are among them.
    if (!root_node && best_value > VALUE_MATED_IN_MAX_PLY) {
      move_count_pruning = alpha < VALUE_MATE_IN_MAX_PLY && move_count >= futility_move_count(improving, depth);
      const Depth lmr_depth = std::max(new_depth - reduction(improving, depth, move_count), 0);
      if (gives_check) {
        // Checks are not pruned by SEE: shogi mates are full of sacrifices with check.
      } else if (capture_or_promotion) {
        if (!see_ge(pos, move, -tune::SeeCaptureMargin * depth)) continue;
      } else {
        if (lmr_depth < 6 && !ss->in_check && ss->static_eval + tune::PruneQuietBase + tune::PruneQuietDepth * lmr_depth <= alpha)
          continue;
        if (!see_ge(pos, move, -tune::SeeQuietMargin * lmr_depth * lmr_depth)) continue;
      }
    }

    // Step 13: extensions (singular, check, single reply, recapture), limited relative to the iteration depth.
    if (ext_scale > 0) {
      if (!root_node && depth >= tune::SingularDepth && move == tt_move && !excluded && tt_hit &&
          tt_value != VALUE_NONE && std::abs(tt_value) < VALUE_KNOWN_WIN && (tt_bound & BOUND_LOWER) &&
          tt_depth >= depth - 3) {
        const Value singular_beta = tt_value - tune::SingularMargin * depth / 10;
        ss->excluded_move = move;
        const Value v = search<NonPV>(pos, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
        ss->excluded_move = MOVE_NONE;
        if (v < singular_beta)
          extension = 1;
        else if (singular_beta >= beta)
          return singular_beta;  // multi-cut: more than one move beats beta
        else if (tt_value >= beta)
          extension = -1;  // not singular, and it beat beta before: another move likely would too, so search it less
      } else if (gives_check && see_ge(pos, move, 0)) {
        extension = 1;
      } else if (single_reply) {
        extension = 1;
      } else if (pv_node && capture && is_ok(prev_move) && to_sq(move) == to_sq(prev_move) &&
                 pos.captured_piece() != NO_PIECE) {
        extension = 1;
      }
    }
    int carried_halves = ss->half_extensions;
    if (extension > 0 && ext_scale == 1) {
      // Half an extension: two halves along a path make one ply.
      carried_halves += extension;
      extension = carried_halves / 2;
      carried_halves %= 2;
    }
    (ss + 1)->half_extensions = carried_halves;
    new_depth += extension;

    // Step 14: make the move.
    ss->current_move = move;
    ss->continuation = continuation_history_->after(move);
    ss->capture = capture;
    sh.tt.prefetch(pos.key_after(move));  // the child's entry, fetched from memory while the move is made
    pos.do_move(move, st, gives_check);

    // Step 15: late-move reductions, adjusted by history; then PVS.
    bool full_depth_search;
    if (depth >= 2 && move_count > 1 + root_node && (!capture_or_promotion || !ss->tt_pv || cut_node)) {
      Depth r = reduction(improving, depth, move_count);
      if (ss->tt_pv) r -= 1;
      if (cut_node) r += 2;
      if (tt_capture && !capture_or_promotion) r += 1;
      if (gives_check) r -= 1;
      if (!capture_or_promotion)
        r -= (quiet_stat_score(ss, us, move) - tune::LmrHistoryOffset) / tune::LmrHistoryDivisor;
      const Depth d = std::clamp(new_depth - r, 1, new_depth);
      value = -search<NonPV>(pos, ss + 1, -(alpha + 1), -alpha, d, true);
      full_depth_search = value > alpha && d < new_depth;
    } else {
      full_depth_search = !pv_node || move_count > 1;
    }
    if (full_depth_search) value = -search<NonPV>(pos, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
    if (pv_node && (move_count == 1 || (value > alpha && (root_node || value < beta)))) {
      (ss + 1)->pv = pv;
      pv[0] = MOVE_NONE;
      value = -search<PV>(pos, ss + 1, -beta, -alpha, new_depth, false);
    }

    pos.undo_move(move);
    if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;

    if (root_node) {
      RootMove& rm = *std::find(root_moves_.begin(), root_moves_.end(), move);
      if (move_count == 1 || value > alpha) {
        rm.score = rm.display_score = value;
        rm.sel_depth = sel_depth_;
        rm.lowerbound = rm.upperbound = false;
        if (value >= beta) {
          rm.lowerbound = true;
          rm.display_score = beta;
        } else if (value <= alpha) {
          rm.upperbound = true;
          rm.display_score = alpha;
        }
        rm.pv.resize(1);
        for (Move* m = (ss + 1)->pv; m && *m != MOVE_NONE; ++m) rm.pv.push_back(*m);
        if (move_count > 1 && id_ == 0) ++best_move_changes_;
      } else {
        // Unsearched-with-a-score moves sort after the ones that have one.
        rm.score = -VALUE_INFINITE;
      }
    }

    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = move;
        if (pv_node && !root_node) update_pv(ss->pv, move, (ss + 1)->pv);
        if (value >= beta) break;
        alpha = value;
      }
    }
    if (move != best_move) {
      if (!capture_stage(capture, move)) {  // which statistics learn from this move
        if (quiet_count < 64) quiets_searched[quiet_count++] = move;
      } else if (capture_count < 32) {
        captures_searched[capture_count++] = move;
      }
    }
  }

  // No legal move: in shogi that loses whether or not the king is in check.
  if (move_count == 0)
    best_value = excluded ? alpha : mated_in(ss->ply);
  else if (best_move)
    update_all_stats(pos, ss, best_move, depth, quiets_searched, quiet_count, captures_searched, capture_count);

  if (!excluded && move_count > 0) update_correction_history(pos, ss, best_move, best_value, beta, depth);
  if (!excluded && !(root_node && pv_idx_))
    sh.tt.save(tte, key, value_to_tt(best_value, ss->ply), ss->tt_pv,
               best_value >= beta                  ? BOUND_LOWER
               : pv_node && best_move != MOVE_NONE ? BOUND_EXACT
                                                   : BOUND_UPPER,
               depth, to_move16(best_move), raw_eval);
  return best_value;
}

template <Worker::NodeType Nt>
Value Worker::qsearch(Position& pos, Stack* ss, Value alpha, Value beta, Depth depth) {
  constexpr bool pv_node = Nt == PV;
  SharedState& sh = shared_;
  Move pv[MAX_PLY + 1];
  StateInfo st;
  const Value old_alpha = alpha;

  if (pv_node) {
    (ss + 1)->pv = pv;
    ss->pv[0] = MOVE_NONE;
  }
  nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  ss->in_check = pos.in_check();
  if (pv_node && sel_depth_ < ss->ply + 1) sel_depth_ = ss->ply + 1;
  if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;
  if (ss->ply >= MAX_PLY - 2) return ss->in_check ? VALUE_ZERO : static_eval(pos, ss);

  const Depth tt_depth = ss->in_check || depth >= DEPTH_QS_CHECKS ? DEPTH_QS_CHECKS : DEPTH_QS_NO_CHECKS;
  const Key key = pos.key();
  bool tt_hit;
  TTEntry* tte = sh.tt.probe(key, tt_hit);
  const Value tt_value = tt_hit ? value_from_tt(tte->value(), ss->ply) : VALUE_NONE;
  Move tt_move = MOVE_NONE;
  if (tt_hit) {
    const Move m = pos.to_move(tte->move());
    if (m != MOVE_NONE && pos.pseudo_legal(m)) tt_move = m;
  }
  const bool tt_pv = tt_hit && tte->is_pv();

  if (!pv_node && tt_hit && tte->depth() >= tt_depth && tt_value != VALUE_NONE &&
      (tt_value >= beta ? (tte->bound() & BOUND_LOWER) : (tte->bound() & BOUND_UPPER)))
    return tt_value;

  if (weights_) update_accumulator(*weights_, pos, ss);
  Value best_value, futility_base, raw_eval = VALUE_NONE;  // raw_eval: as in search
  if (ss->in_check) {
    ss->static_eval = VALUE_NONE;
    best_value = futility_base = -VALUE_INFINITE;
  } else {
    if (tt_hit) {
      raw_eval = tte->eval() == VALUE_NONE ? static_eval(pos, ss) : tte->eval();
      ss->static_eval = best_value = corrected_eval(pos, raw_eval);
      if (tt_value != VALUE_NONE && (tte->bound() & (tt_value > best_value ? BOUND_LOWER : BOUND_UPPER)))
        best_value = tt_value;
    } else {
      raw_eval = static_eval(pos, ss);
      ss->static_eval = best_value = corrected_eval(pos, raw_eval);
    }
    // Stand pat: the side to move is not forced to capture.
    if (best_value >= beta) {
      if (!tt_hit)
        sh.tt.save(tte, key, value_to_tt(best_value, ss->ply), false, BOUND_LOWER, DEPTH_NONE, MOVE16_NONE, raw_eval);
      return best_value;
    }
    if (pv_node && best_value > alpha) alpha = best_value;
    futility_base = best_value + tune::QsFutility;
  }

  MovePicker mp(pos, tt_move, depth, &history_, &capture_history_);
  Move move, best_move = MOVE_NONE;
  int move_count = 0;
  while ((move = mp.next_move()) != MOVE_NONE) {
    if (!pos.legal(move)) continue;
    const bool gives_check = pos.gives_check(move);
    ++move_count;

    if (best_value > VALUE_MATED_IN_MAX_PLY && !ss->in_check) {
      // Futility: even winning the captured piece cannot lift this above alpha.
      if (!gives_check && futility_base > -VALUE_KNOWN_WIN) {
        const Piece captured = pos.piece_on(to_sq(move));
        Value fv = futility_base + (captured != NO_PIECE ? capture_value(type_of(captured)) : 0);
        if (is_promotion(move)) fv += promotion_gain(type_of(moved_piece(move)));
        if (fv <= alpha) {
          best_value = std::max(best_value, fv);
          continue;
        }
        if (futility_base <= alpha && !see_ge(pos, move, 1)) {
          best_value = std::max(best_value, futility_base);
          continue;
        }
      }
      if (!see_ge(pos, move, 0)) continue;
    }

    ss->current_move = move;
    sh.tt.prefetch(pos.key_after(move));
    pos.do_move(move, st, gives_check);
    const Value value = -qsearch<Nt>(pos, ss + 1, -beta, -alpha, depth - 1);
    pos.undo_move(move);
    if (sh.stop.load(std::memory_order_relaxed)) return VALUE_ZERO;

    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = move;
        if (pv_node) update_pv(ss->pv, move, (ss + 1)->pv);
        if (value >= beta) break;
        alpha = value;
      }
    }
  }

  // In check with no legal evasion: mated. (A pawn-drop mate is never generated, so it cannot appear here.)
  if (ss->in_check && best_value == -VALUE_INFINITE) return mated_in(ss->ply);

  sh.tt.save(tte, key, value_to_tt(best_value, ss->ply), tt_pv,
             best_value >= beta                  ? BOUND_LOWER
             : pv_node && best_value > old_alpha ? BOUND_EXACT
                                                 : BOUND_UPPER,
             tt_depth, to_move16(best_move), raw_eval);
  return best_value;
}

}  // namespace shogi

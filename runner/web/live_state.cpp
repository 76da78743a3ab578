#include "web/live_state.h"

#include <boost/json.hpp>

#include "output/json.h"
#include "rules/notation.h"
#include "web/game_row.h"

namespace arena::web {

namespace bj = boost::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

bj::value info_json(const SearchInfo& info, int64_t search_ms) {
  bj::object o;
  auto opt = [&](const char* key, const auto& v) { o.emplace(key, v ? bj::value(*v) : bj::value(nullptr)); };
  opt("depth", info.depth);
  opt("seldepth", info.seldepth);
  opt("score_cp", info.score_cp);
  opt("score_mate", info.score_mate);
  opt("nodes", info.nodes);
  // The engine's speed from the runner's own measure of the search time: engines that send no nps are covered.
  if (info.nodes && search_ms > 0)
    o.emplace("nps", int64_t(double(*info.nodes) * 1000.0 / double(search_ms)));
  else
    o.emplace("nps", nullptr);
  bj::array pv;
  for (const std::string& m : info.pv) pv.emplace_back(m);
  o.emplace("pv", std::move(pv));
  return o;
}

}  // namespace

// The page's view of one game: each call copies what it needs under the state's lock, nothing more.
class LiveState::Watcher final : public game::GameWatcher {
 public:
  Watcher(LiveState& state, uint64_t id) : state_(state), id_(id) {}
  ~Watcher() override {
    {
      std::lock_guard lock(state_.mutex_);
      state_.boards_.erase(id_);
    }
    state_.changed();
  }

  void started(const PlayedGame& game, const game::ClockView& clocks) override {
    std::vector<std::string> opening;
    opening.reserve(game.moves.size());
    for (const MoveRecord& m : game.moves) opening.push_back(shogi::to_usi(m.move));
    {
      std::lock_guard lock(state_.mutex_);
      Board* b = board();
      if (!b) return;
      b->black = game.names[shogi::BLACK];
      b->white = game.names[shogi::WHITE];
      b->time_control = game.time_control;
      for (shogi::Color c : {shogi::BLACK, shogi::WHITE})
        b->byoyomi_ms[c] = game.time_controls[c] ? game.time_controls[c]->byoyomi_ms : 0;
      b->start_sfen = game.start_sfen;
      b->opening_plies = int(opening.size());
      b->moves = std::move(opening);
      b->clocks = clocks;
      b->clock_started = SteadyClock::now();
      b->started = true;
    }
    state_.changed();
  }

  void search_started(const game::ClockView& clocks) override {
    {
      std::lock_guard lock(state_.mutex_);
      Board* b = board();
      if (!b) return;
      // The side's last search stays on show until its new one sends a line.
      b->clocks = clocks;
      b->clock_started = SteadyClock::now();
      b->sides[clocks.running].search_started = b->clock_started;
      b->sides[clocks.running].info_is_current = false;
    }
    state_.changed();
  }

  void thinking(const game::ClockView& clocks, const SearchInfo& latest) override {
    {
      std::lock_guard lock(state_.mutex_);
      Board* b = board();
      if (!b) return;
      b->sides[clocks.running].info = latest;
      b->sides[clocks.running].info_is_current = true;
    }
    state_.changed();
  }

  void moved(const MoveRecord& move, const game::ClockView& clocks) override {
    std::string usi = shogi::to_usi(move.move);
    {
      std::lock_guard lock(state_.mutex_);
      Board* b = board();
      if (!b) return;
      Side& mover = b->sides[~clocks.running];
      mover.info = move.info;
      mover.info_is_current = false;
      mover.last_search_ms = move.time_ms;
      b->moves.push_back(std::move(usi));
      b->clocks = clocks;
      b->clock_started = SteadyClock::now();
    }
    state_.changed();
  }

 private:
  Board* board() {
    auto it = state_.boards_.find(id_);
    return it == state_.boards_.end() ? nullptr : &it->second;
  }
  LiveState& state_;
  const uint64_t id_;
};

LiveState::LiveState(std::string title) : title_(std::move(title)) {}

void LiveState::set_standings(bj::value summary, std::string status_line) {
  {
    std::lock_guard lock(mutex_);
    standings_ = std::move(summary);
    status_ = std::move(status_line);
  }
  changed();
}

void LiveState::set_spsa(bj::value chart) {
  {
    std::lock_guard lock(mutex_);
    spsa_ = std::move(chart);
  }
  changed();
}

void LiveState::set_league(bj::value league) {
  {
    std::lock_guard lock(mutex_);
    league_ = std::move(league);
  }
  changed();
}

std::unique_ptr<game::GameWatcher> LiveState::watch(int64_t game, int round, int attempt) {
  uint64_t id;
  {
    std::lock_guard lock(mutex_);
    id = next_board_++;
    Board& b = boards_[id];
    b.game = game;
    b.round = round;
    b.attempt = attempt;
  }
  changed();
  return std::make_unique<Watcher>(*this, id);
}

void LiveState::add_finished(journal::JournaledGame game) {
  {
    std::lock_guard lock(mutex_);
    records_.emplace_back(game.summary.game, std::move(game.line));
    if (records_.size() > kKeptRecords) records_.pop_front();
    finished_.push_back(std::move(game.summary));
  }
  changed();
}

std::string LiveState::update_json() const {
  // Copied under the lock, written out after it: the games' threads wait for a copy at most.
  std::vector<Board> boards;
  std::vector<journal::JournalGame> recent;
  bj::value standings, spsa, league;
  std::string status;
  size_t total = 0;
  const uint64_t version = this->version();
  {
    std::lock_guard lock(mutex_);
    boards.reserve(boards_.size());
    for (const auto& [id, b] : boards_)
      if (b.started) boards.push_back(b);
    total = finished_.size();
    size_t first = total > kRecentInUpdate ? total - kRecentInUpdate : 0;
    recent.assign(finished_.begin() + std::ptrdiff_t(first), finished_.end());
    standings = standings_;
    spsa = spsa_;
    league = league_;
    status = status_;
  }
  const auto now = SteadyClock::now();
  auto ms_since = [&](SteadyClock::time_point t) {
    return int64_t(std::chrono::duration_cast<std::chrono::milliseconds>(now - t).count());
  };

  bj::object out;
  out.emplace("title", title_);
  out.emplace("version", version);
  out.emplace("status", status);
  out.emplace("standings", std::move(standings));
  out.emplace("spsa", std::move(spsa));
  out.emplace("league", std::move(league));
  bj::array board_list;
  for (const Board& b : boards) {
    bj::object o;
    o.emplace("game", b.game);
    o.emplace("round", b.round);
    o.emplace("attempt", b.attempt);
    o.emplace("black", b.black);
    o.emplace("white", b.white);
    o.emplace("time_control", b.time_control);
    o.emplace("byoyomi_ms", bj::object{{"black", b.byoyomi_ms[shogi::BLACK]}, {"white", b.byoyomi_ms[shogi::WHITE]}});
    o.emplace("start_sfen", b.start_sfen);
    o.emplace("opening_plies", b.opening_plies);
    bj::array moves;
    moves.reserve(b.moves.size());
    for (const std::string& m : b.moves) moves.emplace_back(m);
    o.emplace("moves", std::move(moves));
    bj::object clock;
    clock.emplace("black_ms", b.clocks.remaining_ms[shogi::BLACK]);
    clock.emplace("white_ms", b.clocks.remaining_ms[shogi::WHITE]);
    clock.emplace("running", b.clocks.running == shogi::BLACK ? "black" : "white");
    clock.emplace("elapsed_ms", ms_since(b.clock_started));
    o.emplace("clock", std::move(clock));
    bj::object info;
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
      const Side& s = b.sides[c];
      const char* key = c == shogi::BLACK ? "black" : "white";
      if (!s.info) {
        info.emplace(key, nullptr);
        continue;
      }
      // A search still going: its speed so far; the last move's: its nodes over its time.
      const int64_t search_ms =
          c == b.clocks.running && s.info_is_current ? ms_since(s.search_started) : s.last_search_ms;
      info.emplace(key, info_json(*s.info, search_ms));
    }
    o.emplace("info", std::move(info));
    board_list.push_back(std::move(o));
  }
  out.emplace("boards", std::move(board_list));
  bj::array finished;
  for (const journal::JournalGame& f : recent) finished.push_back(game_row(f));
  out.emplace("finished", std::move(finished));
  out.emplace("finished_total", int64_t(total));
  return json::serialize(out);
}

std::string LiveState::finished_json(int64_t from, int64_t count) const {
  bj::array out;
  std::lock_guard lock(mutex_);
  const int64_t size = int64_t(finished_.size());
  from = std::clamp<int64_t>(from, 0, size);
  const int64_t end = std::clamp<int64_t>(from + std::max<int64_t>(count, 0), from, size);
  for (int64_t i = from; i < end; ++i) out.push_back(game_row(finished_[size_t(i)]));
  return json::serialize(out);
}

std::optional<std::string> LiveState::journal_line(int64_t game) const {
  std::lock_guard lock(mutex_);
  for (auto it = records_.rbegin(); it != records_.rend(); ++it)
    if (it->first == game) return it->second;
  return std::nullopt;
}

}  // namespace arena::web

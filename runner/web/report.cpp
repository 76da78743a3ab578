#include "web/report.h"

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "game/clock.h"
#include "game/move_timing.h"
#include "journal/merge.h"
#include "output/atomic_file.h"
#include "output/json.h"
#include "output/result_json.h"
#include "rules/notation.h"
#include "standings/journal_stats.h"
#include "standings/ratings.h"
#include "standings/summary.h"
#include "standings/tally.h"
#include "web/game_row.h"
#include "web/report_analysis.h"
#include "web/spsa_chart.h"

namespace arena::web {

namespace bj = boost::json;

namespace {

bool is_fault(Termination t) {
  return t == Termination::TimeForfeit || t == Termination::Stall || t == Termination::Disconnect ||
         t == Termination::IllegalMove || t == Termination::IllegalDeclaration;
}

bj::value finite_or_null(double v) { return std::isfinite(v) ? bj::value(v) : bj::value(nullptr); }

// A score as the charts read it: centipawns as a number, a mate as "#N" (negative: the mover is mated), else null.
bj::value score_value(const SearchInfo& info) {
  if (info.score_mate) {
    std::string mate = "#";  // not "#" + to_string(...), which GCC 12 warns of falsely (-Wrestrict) when inlined
    mate += std::to_string(*info.score_mate);
    return bj::value(mate);
  }
  if (info.score_cp) return bj::value(*info.score_cp);
  return nullptr;
}

std::string title_of(const std::optional<journal::JournalHeader>& header) {
  if (!header) return "journal";
  std::string title = header->type + ":";
  for (size_t i = 0; i < header->engines.size(); ++i) title += (i ? " vs " : " ") + header->engines[i];
  return title;
}

// One engine's moves for the time chart and its figures. The figures count every move; the points kept are every
// move over its allowance (up to the limit) and an even spread of the others, thinned as the moves come so that a
// run of any length holds at most about twice the limit.
class EngineTimes {
 public:
  struct Point {
    int64_t given, used, game;
    int ply;
    int kind;  // 0 within the allowance, 1 over it but within the margin, 2 lost on time
  };
  int64_t moves = 0, over = 0, losses = 0, timed = 0;
  double used_total_ms = 0, share_total = 0, share_max = 0;

  void add_point(const Point& p, size_t max_points) {
    if (p.kind > 0) {
      if (kept_.size() < max_points) kept_.push_back(p);
      return;
    }
    if (rest_seen_++ % rest_stride_ == 0) rest_.push_back(p);
    if (rest_.size() >= 2 * std::max<size_t>(1, max_points)) {
      // Every other point kept, and half as many from now on: still an even spread of the whole run.
      for (size_t i = 0; i < rest_.size() / 2; ++i) rest_[i] = rest_[2 * i];
      rest_.resize(rest_.size() / 2);
      rest_stride_ *= 2;
    }
  }

  bj::object json(const std::string& name, size_t max_points) const {
    bj::object o;
    o.emplace("engine", name);
    o.emplace("moves", moves);
    o.emplace("timed_moves", timed);
    o.emplace("mean_used_ms", moves ? used_total_ms / double(moves) : 0.0);
    o.emplace("mean_share", timed ? share_total / double(timed) : 0.0);
    o.emplace("max_share", share_max);
    o.emplace("over_allowance", over);
    o.emplace("time_losses", losses);
    std::vector<const Point*> keep;
    for (const Point& p : kept_) keep.push_back(&p);
    const size_t room = max_points - keep.size();
    const bool sampled = rest_seen_ > room;
    for (size_t i = 0; i < room && i < rest_.size(); ++i)
      keep.push_back(&rest_[rest_.size() > room ? i * rest_.size() / room : i]);
    bj::array points;
    points.reserve(keep.size());
    for (const Point* p : keep)
      points.push_back(
          bj::array{p->given, p->used < 0 ? bj::value(nullptr) : bj::value(p->used), p->game, p->ply, p->kind});
    o.emplace("points", std::move(points));
    o.emplace("sampled", sampled);
    return o;
  }

 private:
  std::vector<Point> kept_, rest_;
  size_t rest_seen_ = 0, rest_stride_ = 1;
};

// The first reading of a journal: what the second must know before it starts (how many lines there are, for the
// charts' sampling, and how many games ended in a fault, for the replays' order).
class ReportPlan : public journal::JournalVisitor {
 public:
  void header(const journal::JournalHeader& h) override { header_ = h; }
  void game(journal::JournalGame&& g, std::string&&) override { count(g); }
  void count(const journal::JournalGame& g) {
    ++lines;
    // The tally leaves out a second line of a game at its attempt, and so do the replays (standings::Tally::add).
    if (seen_.emplace(g.game, g.attempt).second && is_fault(g.termination)) ++faults;
  }
  const std::optional<journal::JournalHeader>& journal_header() const { return header_; }
  journal::JournalContents no_games() const {
    journal::JournalContents c;
    c.header = header_;
    return c;
  }

  size_t lines = 0;
  size_t faults = 0;  // among the games shown (a second line of a game is not)

 private:
  std::optional<journal::JournalHeader> header_;
  std::set<std::pair<int64_t, int>> seen_;  // (game, attempt)
};

// Where the data's JSON goes as it is made: into a string (report_data) or a page being written (write_report).
using JsonSink = std::function<void(std::string_view)>;

// The second reading: the games' rows written out as they come (the list is the one part of the data as long as
// the run), and everything else aggregated: the standings and their series, the terminations, the time charts, the
// SPSA history, and the replays (at most max_replays of them: faults first, then the others in journal order).
class ReportBuilder : public journal::JournalVisitor {
 public:
  ReportBuilder(const ReportPlan& plan, std::string source, const ReportOptions& options, JsonSink sink,
                const ReportAnalysis* analysis = nullptr);
  void game(journal::JournalGame&& g, std::string&& line) override;
  void spsa_pair(journal::SpsaPair&& pair) override;
  // The rest of the data after the rows; `json` of the result is empty (the sink has it all).
  ReportData finish();

 private:
  void sample_ratings(size_t games);
  void sample_pairings(size_t games);
  void count_termination(const journal::JournalGame& g);
  // The game's moves into the time charts; the allowance of each move by ply (-1: none).
  std::vector<int64_t> add_times(const journal::JournalGame& g, const PlayedGame& played);
  bool embed(const journal::JournalGame& g);
  bj::object series_json();
  bj::object terminations_json();

  const journal::JournalContents header_only_;
  std::string source_;
  ReportOptions options_;
  JsonSink sink_;
  ReportData data_;
  standings::JournalStandings running_;
  std::optional<stats::SprtConfig> sprt_;
  size_t stride_ = 1, rating_stride_ = 1;
  size_t shown_ = 0;  // games shown so far
  size_t faults_planned_ = 0, faults_embedded_ = 0, others_embedded_ = 0;
  bj::array xs_, llr_, rating_xs_;
  std::vector<bj::array> elo_, lower_, upper_, rating_;
  std::map<std::string, std::array<int64_t, 4>> by_termination_;                    // black, white, draw, unscored
  std::map<std::string, std::map<std::string, std::array<int64_t, 3>>> by_engine_;  // win, loss, draw
  std::map<std::string, EngineTimes> times_;
  std::vector<std::string> time_order_;  // every engine, in the header's order, then any other that played
  bj::array columns_;                    // the keys of a game's row, named once for all rows
  std::string replays_;                  // the replays' JSON, comma-separated
  std::optional<SpsaHistory> spsa_;
  const ReportAnalysis* analysis_;
};

ReportBuilder::ReportBuilder(const ReportPlan& plan, std::string source, const ReportOptions& options, JsonSink sink,
                             const ReportAnalysis* analysis)
    : header_only_(plan.no_games()),
      source_(std::move(source)),
      options_(options),
      sink_(std::move(sink)),
      running_(standings::standings_of(header_only_)),
      sprt_(running_.info.sprt),
      // The Elo of each pairing and the LLR at about 600 points; the rating list of more than two engines (each
      // point a fit of every engine) at about 100.
      stride_(std::max<size_t>(1, plan.lines / 600)),
      rating_stride_(std::max<size_t>(1, plan.lines / 100)),
      faults_planned_(plan.faults),
      analysis_(analysis) {
  if (const auto& h = header_only_.header) {
    for (const std::string& name : h->engines)
      if (times_.try_emplace(name).second) time_order_.push_back(name);
    if (h->spsa) spsa_.emplace(h->spsa->params, h->spsa->schedule);
  }
  sink_("{\"games\":[");
}

// A point of the rating chart, after `games` games.
void ReportBuilder::sample_ratings(size_t games) {
  const auto list = standings::rating_list(running_.tally, running_.info);
  rating_.resize(running_.tally.engines().size());
  rating_xs_.emplace_back(int64_t(games));
  for (size_t e = 0; e < rating_.size(); ++e) {
    while (rating_[e].size() + 1 < rating_xs_.size()) rating_[e].emplace_back(nullptr);
    rating_[e].push_back(list && list->engines[e].games > 0 ? bj::value(list->engines[e].elo) : bj::value(nullptr));
  }
}

// A point of the Elo and LLR charts, after `games` games.
void ReportBuilder::sample_pairings(size_t games) {
  xs_.emplace_back(int64_t(games));
  const size_t pairings = running_.tally.pairings().size();
  if (elo_.size() < pairings) elo_.resize(pairings), lower_.resize(pairings), upper_.resize(pairings);
  for (size_t p = 0; p < pairings; ++p) {
    auto s = running_.tally.summary(p);
    // A pairing found later than the first sample (no schedule) starts with nulls.
    while (elo_[p].size() + 1 < xs_.size())
      elo_[p].emplace_back(nullptr), lower_[p].emplace_back(nullptr), upper_[p].emplace_back(nullptr);
    elo_[p].push_back(s ? finite_or_null(s->elo.value) : bj::value(nullptr));
    lower_[p].push_back(s ? finite_or_null(s->elo.lower) : bj::value(nullptr));
    upper_[p].push_back(s ? finite_or_null(s->elo.upper) : bj::value(nullptr));
  }
  if (sprt_) llr_.push_back(finite_or_null(standings::sprt_status(running_.tally, *sprt_).llr));
}

// How the games ended, by result; and for each engine, its wins, losses and draws by termination.
void ReportBuilder::count_termination(const journal::JournalGame& g) {
  const std::string t(to_string(g.termination));
  const int column = g.replay                         ? 3
                     : g.outcome == Outcome::BlackWin ? 0
                     : g.outcome == Outcome::WhiteWin ? 1
                     : g.outcome == Outcome::Draw     ? 2
                                                      : 3;
  ++by_termination_[t][size_t(column)];
  if (column == 3) return;
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
    const std::string& name = c == shogi::BLACK ? g.black : g.white;
    const int slot = column == 2 ? 2 : (column == 0) == (c == shogi::BLACK) ? 0 : 1;
    ++by_engine_[name][t][size_t(slot)];
  }
}

std::vector<int64_t> ReportBuilder::add_times(const journal::JournalGame& g, const PlayedGame& played) {
  std::vector<int64_t> given(played.moves.size(), -1);
  for (const game::MoveTiming& t : game::move_timings(played)) {
    const std::string& name = played.names[t.mover];
    auto [it, added] = times_.try_emplace(name);
    if (added) time_order_.push_back(name);
    EngineTimes& e = it->second;
    if (!t.forfeit) {
      given[size_t(t.ply - 1)] = t.given_ms;
      ++e.moves;
      e.used_total_ms += double(t.used_ms);
    } else {
      ++e.losses;
    }
    if (t.given_ms < 0) continue;
    const bool over = t.forfeit || t.used_ms > t.given_ms;
    if (!t.forfeit && t.given_ms > 0) {
      const double share = double(t.used_ms) / double(t.given_ms);
      ++e.timed;
      e.share_total += share;
      e.share_max = std::max(e.share_max, share);
    }
    if (over && !t.forfeit) ++e.over;
    e.add_point({t.given_ms, t.used_ms, g.game, t.ply, t.forfeit ? 2 : over ? 1 : 0}, options_.max_time_points);
  }
  return given;
}

// Faults first: every fault up to the limit, and the others in journal order in the room the faults leave.
bool ReportBuilder::embed(const journal::JournalGame& g) {
  const size_t cap = options_.max_replays;
  const bool fault = is_fault(g.termination);
  size_t& embedded = fault ? faults_embedded_ : others_embedded_;
  const size_t room = fault ? cap : cap - std::min(faults_planned_, cap);
  if (embedded >= room) return false;
  ++embedded;
  return true;
}

// The referee's scores after the analysed moves (black's view, as the engines' scores: cp or "#N"), the plies it
// judged an inaccuracy ("i"), a mistake ("m") or a blunder ("b"), and the decisive mistake's ply.
void add_analysis(bj::object& replay, const AnalysedGame& a, size_t plies) {
  bj::array referee(plies), judgements(plies);
  for (const AnalysedPly& p : a.plies) {
    if (p.ply < 1 || size_t(p.ply) > plies) continue;
    // "#-0": black was just mated (a distance of 0 carries no sign of its own).
    std::string mate = p.mate_sign < 0 ? "#-" : "#";
    mate += std::to_string(p.value < 0 ? -p.value : p.value);
    referee[size_t(p.ply - 1)] = p.mate ? bj::value(mate) : bj::value(p.value);
    if (p.judgement) judgements[size_t(p.ply - 1)] = bj::string(1, p.judgement);
  }
  replay.emplace("referee", std::move(referee));
  replay.emplace("judgements", std::move(judgements));
  replay.emplace("decisive", a.decisive_ply ? bj::value(a.decisive_ply) : bj::value(nullptr));
}

bj::object replay_json(const journal::JournalGame& g, const PlayedGame& played, const std::vector<int64_t>& given,
                       const AnalysedGame* analysed) {
  bj::object r;
  r.emplace("game", g.game);
  r.emplace("black", played.names[shogi::BLACK]);
  r.emplace("white", played.names[shogi::WHITE]);
  r.emplace("time_control", played.time_control);
  r.emplace("start_sfen", played.start_sfen);
  bj::array moves, used, score, depth, given_ms;
  int opening = 0;
  for (size_t m = 0; m < played.moves.size(); ++m) {
    const MoveRecord& mr = played.moves[m];
    opening += mr.opening ? 1 : 0;
    moves.emplace_back(shogi::to_usi(mr.move));
    used.emplace_back(mr.time_ms);
    score.push_back(score_value(mr.info));
    depth.push_back(mr.info.depth ? bj::value(*mr.info.depth) : bj::value(nullptr));
    given_ms.push_back(given[m] < 0 ? bj::value(nullptr) : bj::value(given[m]));
  }
  r.emplace("moves", std::move(moves));
  r.emplace("times_ms", std::move(used));
  r.emplace("given_ms", std::move(given_ms));
  r.emplace("score", std::move(score));
  r.emplace("depth", std::move(depth));
  r.emplace("opening_plies", opening);
  r.emplace("result", to_string(played.result.outcome));
  r.emplace("termination", to_string(played.result.termination));
  r.emplace("detail", played.result.detail);
  if (analysed) add_analysis(r, *analysed, played.moves.size());
  return r;
}

void ReportBuilder::game(journal::JournalGame&& g, std::string&& line) {
  // Every line but a second one of the same game (a hand-edited or spliced journal), which the standings leave
  // out too.
  if (!running_.tally.add(g)) {
    data_.warnings.push_back("game " + std::to_string(g.game + 1) + " (pair " + std::to_string(g.pair) +
                             "): a second line of the game, left out");
    return;
  }
  ++shown_;
  if (standings::has_rating_list(running_.tally, running_.info) && shown_ % rating_stride_ == 0) sample_ratings(shown_);
  if (shown_ % stride_ == 0) sample_pairings(shown_);
  count_termination(g);

  bj::object row = game_row(g);
  int64_t replay_index = -1;
  if (!line.empty()) {
    if (auto played = parse_result_json(line); !played) {
      data_.warnings.push_back("game " + std::to_string(g.game + 1) + " (pair " + std::to_string(g.pair) +
                               "): " + played.error() + "; listed without its moves or times");
    } else {
      const std::vector<int64_t> given = add_times(g, *played);
      if (embed(g)) {
        if (!replays_.empty()) replays_ += ',';
        replays_ += json::serialize(replay_json(g, *played, given, analysis_ ? analysis_->game(g.game) : nullptr));
        replay_index = data_.replays++;
      }
    }
  }
  row.emplace("replay_index", replay_index);
  // A row of values in the columns' order (every row has the same keys, in the same order).
  bj::array values;
  values.reserve(row.size());
  for (auto& [key, value] : row) {
    if (shown_ == 1) columns_.emplace_back(key);
    values.push_back(std::move(value));
  }
  sink_(shown_ == 1 ? "" : ",");
  sink_(json::serialize(values));
}

void ReportBuilder::spsa_pair(journal::SpsaPair&& pair) {
  if (spsa_ && pair.theta) spsa_->add(pair.k, *pair.theta, pair.result);
}

bj::object ReportBuilder::series_json() {
  // The last game is always a point.
  if (shown_ > 0 && standings::has_rating_list(running_.tally, running_.info) &&
      (rating_xs_.empty() || rating_xs_.back().as_int64() != int64_t(shown_)))
    sample_ratings(shown_);
  if (shown_ > 0 && (xs_.empty() || xs_.back().as_int64() != int64_t(shown_))) sample_pairings(shown_);
  bj::object series;
  series.emplace("games", std::move(xs_));
  bj::array pairing_series;
  const auto& engines = running_.tally.engines();
  for (size_t p = 0; p < elo_.size(); ++p) {
    const auto& pr = running_.tally.pairings()[p];
    bj::object s;
    s.emplace("name", engines[size_t(pr.pairing.first)].name + " vs " + engines[size_t(pr.pairing.second)].name);
    s.emplace("elo", std::move(elo_[p]));
    s.emplace("lower", std::move(lower_[p]));
    s.emplace("upper", std::move(upper_[p]));
    pairing_series.push_back(std::move(s));
  }
  series.emplace("pairings", std::move(pairing_series));
  if (!rating_.empty()) {
    bj::array list;
    for (size_t e = 0; e < rating_.size(); ++e)
      list.emplace_back(bj::object{{"name", engines[e].name}, {"elo", std::move(rating_[e])}});
    series.emplace("ratings", bj::object{{"games", std::move(rating_xs_)}, {"engines", std::move(list)}});
  } else {
    series.emplace("ratings", nullptr);
  }
  if (sprt_) {
    const stats::SprtBounds bounds = stats::sprt_bounds(*sprt_);
    series.emplace("llr", std::move(llr_));
    series.emplace("bounds", bj::array{bounds.lower, bounds.upper});
  } else {
    series.emplace("llr", nullptr);
    series.emplace("bounds", nullptr);
  }
  return series;
}

// "terminations": a row per termination, the most frequent first; "engine_terminations": per engine.
bj::object ReportBuilder::terminations_json() {
  std::vector<std::pair<std::string, std::array<int64_t, 4>>> terminations(by_termination_.begin(),
                                                                           by_termination_.end());
  std::stable_sort(terminations.begin(), terminations.end(), [](const auto& a, const auto& b) {
    auto total = [](const auto& c) { return c[0] + c[1] + c[2] + c[3]; };
    return total(a.second) > total(b.second);
  });
  bj::array rows;
  for (const auto& [t, c] : terminations)
    rows.push_back(
        bj::object{{"termination", t}, {"black", c[0]}, {"white", c[1]}, {"draw", c[2]}, {"unscored", c[3]}});
  bj::object per_engine;
  for (const auto& [name, counts] : by_engine_) {
    bj::object o;
    for (const auto& [t, c] : counts) o.emplace(t, bj::array{c[0], c[1], c[2]});
    per_engine.emplace(name, std::move(o));
  }
  return bj::object{{"terminations", std::move(rows)}, {"engine_terminations", std::move(per_engine)}};
}

ReportData ReportBuilder::finish() {
  data_.games = int64_t(shown_);
  sink_("],\"replays\":[");
  sink_(replays_);
  sink_("]");
  replays_.clear();

  standings::Summary summary;
  summary.info = running_.info;
  summary.journal = source_;
  if (sprt_ && sprt_status(running_.tally, *sprt_).verdict != stats::SprtVerdict::Continue)
    summary.end = run::RunEnd::SprtDecided;
  const auto& header = header_only_.header;
  bj::object out;
  out.emplace("title", title_of(header));
  out.emplace("source", source_);
  out.emplace("created", header ? header->created : std::string());
  out.emplace("type", header ? header->type : std::string());
  bj::array engines;
  for (const auto& e : running_.tally.engines()) engines.emplace_back(e.name);
  out.emplace("engines", std::move(engines));
  out.emplace("summary", standings::summary_value(running_.tally, summary));
  out.emplace("series", series_json());
  for (auto& [key, value] : terminations_json()) out.emplace(key, std::move(value));
  bj::array time_rows;
  for (const std::string& name : time_order_) time_rows.push_back(times_[name].json(name, options_.max_time_points));
  out.emplace("times", std::move(time_rows));
  if (columns_.empty())
    for (const auto& [key, value] : game_row(journal::JournalGame{})) columns_.emplace_back(key);
  out.emplace("game_columns", std::move(columns_));
  out.emplace("max_replays", int64_t(options_.max_replays));
  // An SPSA run: theta over its pairs, the charts the live page drew.
  out.emplace("spsa", spsa_ ? spsa_->json() : bj::value(nullptr));
  if (analysis_) {
    auto section = json::parse(analysis_->section_json());
    out.emplace("analysis", section ? std::move(*section) : bj::value(nullptr));
  } else {
    out.emplace("analysis", nullptr);
  }
  const std::string rest = json::serialize(out);
  sink_(",");
  sink_(std::string_view(rest).substr(1));  // the object's members after the rows and replays, and its '}'
  return std::move(data_);
}

}  // namespace

ReportData report_data(journal::JournalContents contents, const std::string& source, const ReportOptions& options) {
  const bool have_lines = contents.lines.size() == contents.games.size();
  ReportPlan plan;
  if (contents.header) plan.header(*contents.header);
  for (const journal::JournalGame& g : contents.games) plan.count(g);
  std::string json;
  ReportBuilder builder(plan, source, options, [&json](std::string_view text) { json += text; });
  for (size_t i = 0; i < contents.games.size(); ++i)
    builder.game(std::move(contents.games[i]), have_lines ? std::move(contents.lines[i]) : std::string());
  for (journal::SpsaPair& pair : contents.spsa_pairs) builder.spsa_pair(std::move(pair));
  ReportData data = builder.finish();
  data.json = std::move(json);
  return data;
}

std::expected<ReportData, std::string> write_report(const std::string& journal_path, const std::string& html_path,
                                                    const ReportOptions& options) {
  ReportPlan plan;
  auto planned = journal::scan_games(journal_path, plan);
  if (!planned) return std::unexpected(planned.error());
  auto analysis = ReportAnalysis::load(journal_path, options.analysis);
  if (!analysis) return std::unexpected(analysis.error());
  auto file = output::AtomicFileWriter::open(html_path, "the report");
  if (!file) return std::unexpected(file.error());
  const ReportPageParts page = report_page_parts();
  std::optional<std::string> write_error;
  auto write = [&](std::string_view text) {
    if (write_error) return;
    if (auto written = file->write(text); !written) write_error = written.error();
  };
  write(page.before);
  std::string escaped;
  ReportBuilder builder(
      plan, journal_path, options,
      [&](std::string_view text) {
        escaped.clear();
        append_script_json(escaped, text);
        write(escaped);
      },
      *analysis ? &**analysis : nullptr);
  auto scanned = journal::scan_games(journal_path, builder, true);
  if (!scanned) return std::unexpected(scanned.error());
  ReportData data = builder.finish();
  write(page.after);
  if (write_error) return std::unexpected(*write_error);
  if (auto committed = file->commit(); !committed) return std::unexpected(committed.error());
  data.bytes = int64_t(file->bytes());
  return data;
}

}  // namespace arena::web

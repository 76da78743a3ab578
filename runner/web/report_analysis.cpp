#include "web/report_analysis.h"

#include <boost/json.hpp>
#include <filesystem>

#include "analysis/analysis_file.h"
#include "analysis/summary.h"
#include "output/json.h"

namespace arena::web {

namespace bj = boost::json;

namespace {

bj::object stats_json(std::string_view label, const analysis::MoveStats& s) {
  return bj::object{{"label", label},
                    {"moves", s.moves},
                    {"avg_loss", s.average_loss()},
                    {"blunders", s.blunders},
                    {"mistakes", s.mistakes},
                    {"inaccuracies", s.inaccuracies},
                    {"agreement", s.agreement()}};
}

bj::value ms_or_null(std::int64_t ms) { return ms < 0 ? bj::value(nullptr) : bj::value(ms); }

}  // namespace

std::expected<std::optional<ReportAnalysis>, std::string> ReportAnalysis::load(const std::string& journal_path,
                                                                               const std::string& analysis_path) {
  namespace fs = std::filesystem;
  std::string path = analysis_path;
  if (path.empty()) {
    std::error_code ec;
    const fs::path base =
        fs::is_directory(journal_path, ec) ? fs::path(journal_path) : fs::path(journal_path).parent_path();
    path = (base / "analysis.jsonl").string();
    if (!fs::exists(path, ec)) return std::nullopt;
  }
  auto contents = analysis::read_analysis(path);
  if (!contents) return std::unexpected(contents.error());
  ReportAnalysis out;
  std::vector<analysis::GameAnalysis> journal_games;
  for (analysis::GameAnalysis& g : contents->games) {
    if (!g.source.empty()) continue;  // a record's analysis: not this journal's game
    AnalysedGame& a = out.games_[g.game];
    a.plies.clear();
    for (const analysis::MoveAnalysis& m : g.moves) {
      AnalysedPly p;
      p.ply = m.ply;
      p.mate = m.after.is_mate();
      p.value = m.mover == shogi::BLACK ? m.after.value : -m.after.value;
      p.mate_sign = m.mover == shogi::BLACK ? m.after.mate_sign : -m.after.mate_sign;
      switch (m.judged.judgement) {
        case analysis::Judgement::Blunder:
          p.judgement = 'b';
          break;
        case analysis::Judgement::Mistake:
          p.judgement = 'm';
          break;
        case analysis::Judgement::Inaccuracy:
          p.judgement = 'i';
          break;
        default:
          break;
      }
      a.plies.push_back(p);
    }
    a.decisive_ply = g.decisive ? g.decisive->ply : 0;
    journal_games.push_back(std::move(g));
  }
  bj::object section;
  section.emplace("path", path);
  if (contents->header) {
    const analysis::AnalysisHeader& h = *contents->header;
    section.emplace("referee", h.referee_name);
    section.emplace("budget", h.nodes         ? std::to_string(*h.nodes) + " nodes"
                              : h.movetime_ms ? std::to_string(*h.movetime_ms) + " ms"
                                              : std::string());
  }
  bj::array engines, lost;
  for (const analysis::EngineSummary& e : analysis::summarise(journal_games)) {
    bj::array phases, times;
    for (int p = 0; p < analysis::PHASE_COUNT; ++p)
      if (e.by_phase[size_t(p)].moves) phases.push_back(stats_json(analysis::phase_name(p), e.by_phase[size_t(p)]));
    for (int b = 0; b < analysis::TIME_BUCKET_COUNT; ++b)
      if (e.by_time[size_t(b)].moves) times.push_back(stats_json(analysis::time_bucket_name(b), e.by_time[size_t(b)]));
    bj::object row = stats_json(e.engine, e.all);
    row.emplace("games", e.games);
    row.emplace("phases", std::move(phases));
    row.emplace("times", std::move(times));
    engines.push_back(std::move(row));
    for (const analysis::LostGame& l : e.lost) {
      bj::object o{{"game", l.game}, {"engine", e.engine}, {"opponent", l.opponent}};
      if (l.decisive) {
        o.emplace("ply", l.decisive->ply);
        o.emplace("move", l.move);
        o.emplace("best", l.best);
        o.emplace("loss", l.loss_cp);
        o.emplace("time_left_ms", bj::array{ms_or_null(l.decisive->time_left_ms[shogi::BLACK]),
                                            ms_or_null(l.decisive->time_left_ms[shogi::WHITE])});
        bj::array own;
        for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
          const auto& s = l.decisive->own[c];
          std::string text = !s ? "-" : s->is_mate() ? "mate " + std::to_string(s->value) : std::to_string(s->value);
          own.emplace_back(text);
        }
        o.emplace("own", std::move(own));
      } else {
        o.emplace("ply", nullptr);
      }
      lost.push_back(std::move(o));
    }
  }
  section.emplace("engines", std::move(engines));
  section.emplace("lost", std::move(lost));
  out.section_ = json::serialize(section);
  return out;
}

const AnalysedGame* ReportAnalysis::game(std::int64_t game) const {
  auto it = games_.find(game);
  return it == games_.end() ? nullptr : &it->second;
}

}  // namespace arena::web

#include "analysis/analyze.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>
#include <utility>

#include "analysis/analysis_file.h"
#include "analysis/game_analysis.h"
#include "journal/run_start.h"
#include "rules/game_end.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace arena::analysis {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

// The evaluations of one game's positions, from the one after its opening moves to the last.
std::expected<std::vector<Evaluation>, RefereeError> evaluate_game(Referee& referee, const PlayedGame& game,
                                                                   bool fresh_positions,
                                                                   std::atomic<std::int64_t>& positions,
                                                                   const std::atomic<bool>* interrupt) {
  shogi::GameRecord record;
  if (auto r = record.start("sfen " + game.start_sfen); !r)
    return std::unexpected(RefereeError{RefereeError::Kind::NoScore, "the game's start position: " + r.error()});
  if (auto r = referee.new_game(); !r) return std::unexpected(r.error());
  std::vector<Evaluation> out;
  // Positions with a single legal move that the referee answered without a score (engines play a forced move at
  // once): each takes the score of the position after it, where the referee did search.
  std::vector<size_t> forced;
  for (size_t i = 0;; ++i) {
    const bool analysed = i >= game.moves.size() || !game.moves[i].opening;
    if (analysed) {
      if (interrupt && interrupt->load()) return out;
      if (record.status(0).end == shogi::GameEnd::NoLegalMoves) {
        out.push_back(mated_now());
      } else {
        if (fresh_positions && !out.empty())
          if (auto r = referee.new_game(); !r) return std::unexpected(r.error());
        auto e = referee.evaluate(record.usi_position_command());
        if (!e && e.error().kind == RefereeError::Kind::NoScore) {
          const shogi::MoveList<shogi::LEGAL> legal(record.position());
          if (legal.size() == 1) {
            forced.push_back(out.size());
            e = Evaluation{};
            e->best = shogi::to_usi(*legal.begin());
          }
        }
        if (!e) return std::unexpected(e.error());
        out.push_back(std::move(*e));
      }
      ++positions;
    }
    if (i == game.moves.size()) break;
    record.play(game.moves[i].move);
  }
  for (size_t k = forced.size(); k-- > 0;) {
    const size_t at = forced[k];
    if (at + 1 >= out.size())
      return std::unexpected(
          RefereeError{RefereeError::Kind::NoScore,
                       "referee '" + referee.name() + "' gave no score for the game's last position, a forced move"});
    out[at].score = flipped(out[at + 1].score);
  }
  return out;
}

}  // namespace

std::expected<AnalyzeReport, std::string> analyze_games(const std::vector<SourceGame>& games,
                                                        const AnalyzeOptions& options) {
  const int concurrency = std::max(1, options.concurrency);
  AnalysisHeader header;
  header.referee_command = options.referee.command;
  header.referee_options = options.referee.options;
  header.nodes = options.budget.nodes;
  header.movetime_ms = options.budget.movetime_ms;
  header.fresh_positions = options.budget.fresh_positions;
  header.judge = options.judge;
  header.created = journal::created_now();

  // The referees first: one that cannot start is reported before anything is written.
  std::vector<std::unique_ptr<Referee>> referees;
  for (int i = 0; i < concurrency; ++i) {
    referees.push_back(std::make_unique<Referee>(options.referee, options.budget));
    if (auto r = referees.back()->start(); !r) return std::unexpected(r.error().what);
  }
  header.referee_name = referees.front()->name();

  std::set<std::string> done;
  std::optional<AnalysisWriter> writer;
  AnalyzeReport report;
  if (std::filesystem::exists(options.out_path)) {
    if (!options.resume)
      return std::unexpected(options.out_path + " exists: --resume to go on with it, or remove it to start again");
    auto existing = read_analysis(options.out_path);
    if (!existing) return std::unexpected(existing.error());
    if (!existing->header) return std::unexpected(options.out_path + ": no analysis header");
    if (std::string m = analysis_mismatch(*existing->header, header); !m.empty())
      return std::unexpected(options.out_path + ": another analysis: " + m);
    for (const GameAnalysis& g : existing->games) done.insert(game_key(g.game, g.source));
    auto w = AnalysisWriter::append_to(options.out_path, existing->valid_size);
    if (!w) return std::unexpected(w.error());
    writer.emplace(std::move(*w));
  } else {
    auto w = AnalysisWriter::create(options.out_path, header);
    if (!w) return std::unexpected(w.error());
    writer.emplace(std::move(*w));
  }

  std::vector<const SourceGame*> todo;
  std::int64_t total_positions = 0;
  for (const SourceGame& g : games) {
    if (done.contains(game_key(g.game, g.source))) {
      ++report.skipped;
      continue;
    }
    todo.push_back(&g);
    std::int64_t opening = 0;
    for (const MoveRecord& m : g.played.moves) opening += m.opening ? 1 : 0;
    total_positions += std::int64_t(g.played.moves.size()) - opening + 1;
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::map<size_t, GameAnalysis> finished;  // by place in `todo`, until every earlier one is written
  std::string fatal;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> positions{0};
  std::atomic<int> restarts{0};
  size_t running = size_t(concurrency);
  const auto interrupted = [&] { return stop.load() || (options.interrupt && options.interrupt->load()); };

  auto work = [&](Referee& referee) {
    for (size_t i; !interrupted() && (i = next.fetch_add(1)) < todo.size();) {
      const SourceGame& game = *todo[i];
      std::expected<std::vector<Evaluation>, RefereeError> evaluations;
      for (int attempt = 0;; ++attempt) {
        // A game is evaluated whole by one referee from usinewgame on, so that a restart changes nothing.
        evaluations = evaluate_game(referee, game.played, options.budget.fresh_positions, positions, options.interrupt);
        if (evaluations || evaluations.error().kind != RefereeError::Kind::Lost || attempt == 2 || interrupted()) break;
        ++restarts;
        if (options.progress) {
          std::lock_guard lock(mutex);
          *options.progress << "analyze: " << evaluations.error().what << "; restarting it for game " << game.game + 1
                            << std::endl;
        }
        if (auto r = referee.start(); !r) {
          evaluations = std::unexpected(r.error());
          break;
        }
      }
      std::lock_guard lock(mutex);
      if (!evaluations) {
        if (fatal.empty()) fatal = evaluations.error().what;
        stop = true;
        break;
      }
      if (interrupted()) break;
      GameAnalysis a = analyse_game(game.played, *evaluations, options.judge);
      a.game = game.game;
      a.source = game.source;
      finished.emplace(i, std::move(a));
      changed.notify_all();
    }
    std::lock_guard lock(mutex);
    --running;
    changed.notify_all();
  };

  const auto started = SteadyClock::now();
  std::vector<std::thread> threads;
  for (auto& r : referees) threads.emplace_back(work, std::ref(*r));

  size_t written = 0;
  std::string write_error;
  auto last_progress = started;
  {
    std::unique_lock lock(mutex);
    while (true) {
      while (finished.contains(written)) {
        GameAnalysis a = std::move(finished.at(written));
        finished.erase(written);
        lock.unlock();
        auto r = writer->append(a);
        lock.lock();
        if (!r) {
          write_error = r.error();
          stop = true;
          break;
        }
        ++written;
      }
      if (running == 0 || !write_error.empty()) break;
      changed.wait_for(lock, std::chrono::seconds(1));
      const auto now = SteadyClock::now();
      if (options.progress && now - last_progress >= std::chrono::seconds(5)) {
        last_progress = now;
        const double seconds = std::chrono::duration<double>(now - started).count();
        const double rate = double(positions.load()) / std::max(seconds, 1e-3);
        const double left = rate > 0 ? double(total_positions - positions.load()) / rate : 0;
        *options.progress << "analyze: " << written << " of " << todo.size() << " games, " << positions.load() << " of "
                          << total_positions << " positions, " << static_cast<long long>(rate) << " positions/s, "
                          << duration_text(left) << " left" << std::endl;
      }
    }
  }
  stop = stop.load() || !write_error.empty();
  for (std::thread& t : threads) t.join();
  for (auto& r : referees) r->quit();

  report.analysed = std::int64_t(written);
  report.positions = positions.load();
  report.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  report.referee_restarts = restarts.load();
  report.interrupted = options.interrupt && options.interrupt->load();
  if (!write_error.empty()) return std::unexpected(write_error);
  if (!fatal.empty()) return std::unexpected(fatal);
  return report;
}

}  // namespace arena::analysis

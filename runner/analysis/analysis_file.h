#pragma once
// analysis.jsonl: what `shogi-arena analyze` found, one line per analysed game, written whole with one write(2) and
// synced (as the journal is), so that a kill -9 loses at most the games being analysed and a resumed run goes on
// from the last whole line. Games are written in the order of the analysed list, so that a resumed or a parallel
// analysis at a node budget writes the same file as one run.
//
// Line 1, the header: {"analysis":1,"referee":{"name":"...","command":"...","options":{"Hash":"64"}},
//   "budget":{"nodes":N}|{"movetime_ms":T},"clear_hash":"game"|"position","deterministic":true|false,
//   "judge":{"scale":600,"inaccuracy":0.05,"mistake":0.1,"blunder":0.15,"loss_cap_cp":2000,"decisive_margin":0.1},
//   "created":"2026-11-29T10:00:00Z"}
// Each game line: {"game":12,"source":"x.csa"|null,"black":"A","white":"B","result":"black"|"white"|"draw"|"none",
//   "termination":"resign","plies":N,"opening_plies":K,
//   "moves":[{"ply":K+1,"side":"black","mover":"A","move":"7g7f","score":{"cp":35},"best":"2g2f","after":{"cp":-20},
//             "loss":55,"win_before":0.5146,"win_after":0.4917,"judgement":"good","missed_mate":true (only when),
//             "win_to_loss":true (only when),"own":{"cp":30}|null,"given_ms":10100|null,"used_ms":312|null},...],
//   "decisive":{"ply":21,"side":"white","mover":"B","time_left_ms":{"black":5120|null,"white":4410|null},
//               "own":{"black":{"cp":40}|null,"white":{"cp":-35}|null}}|null}
// A score is the mover's view: {"cp":N}, or {"mate":N} with N plies, positive when the mover mates (0: it has
// mated), negative when it is mated. "score" and "best" are the referee's before the move, "after" its score after
// the move (the mover's view), "loss" the capped centipawns given up, "own" the mover's own score from its last
// info line. "given_ms" is what the mover's clock allowed before the move (main time left plus increment or
// byoyomi), reconstructed from the game's time control.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/game_analysis.h"
#include "analysis/judgement.h"
#include "journal/journal.h"

namespace arena::analysis {

struct AnalysisHeader {
  std::string referee_name, referee_command;
  std::vector<std::pair<std::string, std::string>> referee_options;
  std::optional<std::int64_t> nodes, movetime_ms;
  bool fresh_positions = false;  // usinewgame before every position (referee.h), not only every game
  JudgeOptions judge;
  std::string created;

  bool deterministic() const { return nodes.has_value() && !movetime_ms.has_value(); }
};
std::string to_json(const AnalysisHeader& header);
std::expected<AnalysisHeader, std::string> parse_analysis_header(std::string_view line);
// What makes `resumed` a different analysis from `existing` ("the referee's budget differs: nodes 20000 in the file,
// 50000 asked"), or "" when it is the same one (the creation time aside).
std::string analysis_mismatch(const AnalysisHeader& existing, const AnalysisHeader& resumed);

std::string to_json(const GameAnalysis& game);
std::expected<GameAnalysis, std::string> parse_game_analysis(std::string_view line);

struct AnalysisContents {
  std::optional<AnalysisHeader> header;
  std::vector<GameAnalysis> games;
  std::vector<std::string> lines;  // each game's line as written
  std::uint64_t valid_size = 0;    // bytes up to the end of the last whole line
  bool torn = false;               // a last line cut by a kill, left out
};
// The whole file. A line that is not an analysis line is an error naming the file and line, except a last line
// without its newline, which is torn and left out.
std::expected<AnalysisContents, std::string> read_analysis(const std::string& path);

// Appends games to an analysis file: a new one with its header, or an existing one cut to its last whole line.
class AnalysisWriter {
 public:
  static std::expected<AnalysisWriter, std::string> create(const std::string& path, const AnalysisHeader& header);
  static std::expected<AnalysisWriter, std::string> append_to(const std::string& path, std::uint64_t valid_size);
  std::expected<void, std::string> append(const GameAnalysis& game);

 private:
  explicit AnalysisWriter(journal::JournalWriter writer) : writer_(std::move(writer)) {}
  journal::JournalWriter writer_;
};

}  // namespace arena::analysis

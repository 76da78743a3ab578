#pragma once
// A run's analysis (analysis.jsonl, `shogi-arena analyze`) as its report shows it: per replayed game the referee's
// score over the plies and the plies it judged, and the section of per-engine figures and lost games with their
// decisive mistakes. Held compactly: a few bytes a ply, not the analysis lines.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace arena::web {

struct AnalysedPly {
  int ply = 0;         // 1-based: the position after this move
  bool mate = false;   // `value` is a mate distance in plies, else centipawns
  int value = 0;       // the referee's score after the move, black's view; for a mate, its distance
  int mate_sign = 0;   // +1 black mates, -1 black is mated (0 plies: the move just mated)
  char judgement = 0;  // 'b' blunder, 'm' mistake, 'i' inaccuracy, 0 otherwise
};

struct AnalysedGame {
  std::vector<AnalysedPly> plies;  // the analysed moves, in order
  int decisive_ply = 0;            // 0: none
};

class ReportAnalysis {
 public:
  // The analysis of the journal at `journal_path`: `analysis_path` when given, else analysis.jsonl beside the journal
  // (in the run's directory). Nullopt when there is none; an error (naming the file and line) when it cannot be read.
  static std::expected<std::optional<ReportAnalysis>, std::string> load(const std::string& journal_path,
                                                                        const std::string& analysis_path);

  // The analysis of the journal's game `game` (its number), nullptr if it was not analysed.
  const AnalysedGame* game(std::int64_t game) const;
  // The page's "analysis" member: {"path","referee","budget","engines":[...],"lost":[...]}.
  const std::string& section_json() const { return section_; }

 private:
  std::unordered_map<std::int64_t, AnalysedGame> games_;
  std::string section_;
};

}  // namespace arena::web

#include "analysis/annotated_records.h"

#include <cstdio>
#include <filesystem>

#include "output/atomic_file.h"
#include "output/csa_record.h"
#include "output/kif_record.h"

namespace arena::analysis {

namespace {

// A file name's characters: letters, digits, '.', '_' and '-' kept, anything else '_'.
std::string file_safe(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? char(c) : '_';
  return out.empty() ? "_" : out;
}

}  // namespace

PlayedGame annotated_game(const PlayedGame& source, const GameAnalysis& analysis) {
  PlayedGame out = source;
  for (MoveRecord& m : out.moves) m.info = SearchInfo{};
  for (size_t k = 0; k < analysis.moves.size(); ++k) {
    const MoveAnalysis& m = analysis.moves[k];
    if (m.ply < 1 || size_t(m.ply) > out.moves.size()) continue;
    SearchInfo& info = out.moves[size_t(m.ply - 1)].info;
    if (m.after.is_mate())
      info.score_mate = m.after.value;
    else
      info.score_cp = m.after.value;
    info.pv.push_back(m.move);
    // The referee's best reply is its best move in the next position: the next move's "best".
    if (k + 1 < analysis.moves.size() && analysis.moves[k + 1].ply == m.ply + 1 && !analysis.moves[k + 1].best.empty())
      info.pv.push_back(analysis.moves[k + 1].best);
  }
  return out;
}

std::string annotated_record_stem(const GameAnalysis& analysis) {
  // A record's name with its number in the analysed list: a CSA file of several games gives a pair per game.
  if (!analysis.source.empty())
    return file_safe(std::filesystem::path(analysis.source).stem().string() + "-" + std::to_string(analysis.game + 1));
  char number[32];
  std::snprintf(number, sizeof number, "%06lld", static_cast<long long>(analysis.game + 1));
  return std::string(number) + "-" + file_safe(analysis.names[shogi::BLACK]) + "-vs-" +
         file_safe(analysis.names[shogi::WHITE]);
}

std::expected<void, std::string> write_annotated_records(const std::string& dir, const PlayedGame& source,
                                                         const GameAnalysis& analysis) {
  const PlayedGame game = annotated_game(source, analysis);
  const std::filesystem::path stem = std::filesystem::path(dir) / annotated_record_stem(analysis);
  auto csa = to_csa_record(game);
  if (!csa) return std::unexpected(stem.string() + ".csa: " + csa.error());
  auto kif = to_kif_record(game);
  if (!kif) return std::unexpected(stem.string() + ".kif: " + kif.error());
  for (auto [ext, text] : {std::pair{".csa", &*csa}, {".kif", &*kif}})
    if (auto r = output::write_file_atomically(stem.string() + ext, *text, "the annotated record",
                                               output::Durability::Process);
        !r)
      return std::unexpected(r.error());
  return {};
}

}  // namespace arena::analysis

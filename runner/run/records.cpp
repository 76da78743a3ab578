#include "run/records.h"

#include <cstdio>
#include <fstream>

#include "output/csa_record.h"
#include "output/kif_record.h"
#include "run/engines.h"

namespace arena::run {

std::string safe_file_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

std::string record_base_name(const ScheduledGame& s, int attempt, const PlayedGame& game) {
  char number[24];
  std::snprintf(number, sizeof number, "%06lld", static_cast<long long>(s.index + 1));
  std::string name = std::string(number) + "-" + safe_file_name(game.names[shogi::BLACK]) + "-vs-" +
                     safe_file_name(game.names[shogi::WHITE]);
  if (attempt > 0) name += "-a" + std::to_string(attempt);
  return name;
}

std::vector<std::string> write_records(const RecordSettings& settings, const ScheduledGame& s, int attempt,
                                       const PlayedGame& game, std::vector<std::string>& warnings) {
  std::vector<std::string> written;
  if (settings.dir.empty()) return written;
  const std::string base = settings.dir + "/" + record_base_name(s, attempt, game);
  auto write = [&](const std::string& path, std::expected<std::string, std::string> text) {
    if (!text) {
      warnings.push_back(path + ": record not written: " + text.error());
      return;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << *text;
    out.close();
    if (!out)
      warnings.push_back(path + ": cannot write the record");
    else
      written.push_back(path);
  };
  if (settings.csa) write(base + ".csa", to_csa_record(game));
  if (settings.kif) write(base + ".kif", to_kif_record(game));
  return written;
}

}  // namespace arena::run

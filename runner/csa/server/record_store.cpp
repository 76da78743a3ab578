#include "csa/server/record_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "csa/league/results_list.h"
#include "csa/server/record.h"
#include "output/atomic_file.h"
#include "output/local_time.h"

namespace arena::csa {

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The rest of the first line (after the record's first) starting with `key`, empty if none.
std::string line_value(const std::string& text, const std::string& key) {
  size_t at = text.find("\n" + key);
  if (at == std::string::npos) return "";
  at += 1 + key.size();
  return text.substr(at, text.find('\n', at) - at);
}

std::string move_lines(const ServerMove& m) {
  std::string out = m.csa + "\nT" + std::to_string(m.time_s) + "\n";
  if (!m.comment.empty()) out += m.comment + "\n";
  return out;
}

}  // namespace

RecordStore::RecordStore(std::filesystem::path output_dir, std::filesystem::path results_file, Log log)
    : output_dir_(std::move(output_dir)),
      results_file_(results_file.empty() ? output_dir_ / "00LIST" : std::move(results_file)),
      log_(std::move(log)) {}

RecordStore::~RecordStore() {
  for (auto& [id, open] : open_)
    if (open.fd >= 0) ::close(open.fd);
}

void RecordStore::progress(const ServerGame& game) {
  const std::string& id = game.setup().game_id;
  auto it = open_.find(id);
  std::string text;
  if (it == open_.end()) {
    const std::filesystem::path path = output_dir_ / record_relative_path(game);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    Open open;
    open.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (open.fd < 0) log_("cannot write the record " + path.string() + ": " + std::strerror(errno));
    text = server_csa_record(game);  // the header and the moves so far
    open.moves_written = game.moves().size();
    it = open_.emplace(id, open).first;
  } else {
    for (size_t i = it->second.moves_written; i < game.moves().size(); ++i) text += move_lines(game.moves()[i]);
    it->second.moves_written = game.moves().size();
  }
  // One write, unbuffered: what was played is in the file (the kernel's) even if the process dies next.
  if (it->second.fd >= 0 && ::write(it->second.fd, text.data(), text.size()) != ssize_t(text.size()))
    log_("cannot write the record of " + id + ": " + std::strerror(errno));
}

std::filesystem::path RecordStore::finish(const ServerGame& game) {
  if (auto it = open_.find(game.setup().game_id); it != open_.end()) {
    if (it->second.fd >= 0) ::close(it->second.fd);
    open_.erase(it);
  }
  const std::filesystem::path path = output_dir_ / record_relative_path(game);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::filesystem::path written = path;
  if (auto ok = output::write_file_atomically(path.string(), server_csa_record(game), "the record",
                                              output::Durability::Process);
      !ok) {
    log_(ok.error());
    written.clear();
  }
  append_result_line(results_list_line(game, path.string()));
  return written;
}

void RecordStore::append_result_line(const std::string& line) {
  std::ofstream results(results_file_, std::ios::app);
  results << line;
  if (!results) log_("cannot append to the results list " + results_file_.string());
}

int RecordStore::recover(SystemTime now, int days) {
  int closed = 0;
  for (int d = days - 1; d >= 0; --d) {
    const std::filesystem::path dir =
        output_dir_ / output::format_local_time(now - std::chrono::hours(24) * d, "%Y/%m/%d");
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    std::vector<std::filesystem::path> records;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".csa") records.push_back(entry.path());
    std::sort(records.begin(), records.end());
    for (const std::filesystem::path& path : records) {
      std::string text = read_text(path);
      if (text.find("\n'summary:") != std::string::npos) continue;
      // The moves written so far stay; the ending says what happened.
      // Counted as the ratings count an abnormal game's length (a move line cut by the kill is not a move).
      const int moves = league::record_move_count(path).value_or(0);
      const std::string rating = line_value(text, "'rating:");
      const size_t colon = rating.find(':');
      const bool rated = colon != std::string::npos;
      const std::string names[2] = {line_value(text, "N+"), line_value(text, "N-")};
      const std::string ids[2] = {rated ? rating.substr(0, colon) : names[0],
                                  rated ? rating.substr(colon + 1) : names[1]};
      const std::string mark = rated ? "draw" : "none";
      const std::string type = rated ? "abnormal" : "chudan";
      const auto modified = std::filesystem::last_write_time(path, ec);
      const SystemTime end = ec ? now : std::chrono::file_clock::to_sys(modified);
      if (!text.empty() && text.back() != '\n') text += '\n';  // a line cut by the kill
      text += "'the server stopped during the game; closed when it started again\n%CHUDAN\n";
      text += "'summary:" + type + ":" + names[0] + " " + mark + ":" + names[1] + " " + mark + "\n";
      text += "'$END_TIME:" + output::record_time_text(end) + "\n";
      if (auto ok = output::write_file_atomically(path.string(), text, "the record"); !ok) {
        log_(ok.error());
        continue;
      }
      append_result_line(output::record_time_text(end) + "\t" + type + "\t" + mark + "\t" + ids[0] + "\t" + ids[1] +
                         "\t" + mark + "\t" + path.string() + "\t" + std::to_string(moves) + "\n");
      log_("record " + path.string() + " had no ending (the server was stopped during its game): closed as " + type +
           " after " + std::to_string(moves) + " moves");
      ++closed;
    }
  }
  return closed;
}

}  // namespace arena::csa

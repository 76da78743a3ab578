#include "csa/league/results_list.h"

#include <charconv>
#include <ctime>
#include <fstream>
#include <sstream>

namespace arena::csa::league {

namespace {

std::optional<WallTime> parse_end_time(std::string_view s) {
  std::tm tm{};
  int fields[6];
  const char separators[] = {'/', '/', ' ', ':', ':'};
  const char* p = s.data();
  const char* end = s.data() + s.size();
  for (int i = 0; i < 6; ++i) {
    auto [next, ec] = std::from_chars(p, end, fields[i]);
    if (ec != std::errc() || next == p) return std::nullopt;
    p = next;
    if (i < 5) {
      if (p == end || *p != separators[i]) return std::nullopt;
      ++p;
    }
  }
  if (p != end) return std::nullopt;
  tm.tm_year = fields[0] - 1900;
  tm.tm_mon = fields[1] - 1;
  tm.tm_mday = fields[2];
  tm.tm_hour = fields[3];
  tm.tm_min = fields[4];
  tm.tm_sec = fields[5];
  tm.tm_isdst = -1;
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 60)
    return std::nullopt;
  return std::chrono::system_clock::from_time_t(std::mktime(&tm));
}

}  // namespace

std::string ListedGame::game_name() const {
  const std::string stem = record.stem().string();
  const size_t first = stem.find('+');
  if (first == std::string::npos) return "";
  const size_t second = stem.find('+', first + 1);
  if (second == std::string::npos) return "";
  return stem.substr(first + 1, second - first - 1);
}

std::vector<std::string_view> split_fields(std::string_view line, char separator) {
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    const size_t end = line.find(separator, start);
    fields.push_back(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return fields;
    start = end + 1;
  }
}

ResultsList parse_results_list(std::string_view text, const std::string& file) {
  ResultsList list;
  int line_no = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<std::string_view> cols = split_fields(line, '\t');
    const std::string where = file + ":" + std::to_string(line_no) + ": ";
    if (cols.size() < 7) {
      list.warnings.push_back(where + "expected 7 or 8 tab-separated columns, got " + std::to_string(cols.size()));
      continue;
    }
    ListedGame g;
    auto when = parse_end_time(cols[0]);
    if (!when) {
      list.warnings.push_back(where + "expected an end time YYYY/MM/DD HH:MM:SS, got '" + std::string(cols[0]) + "'");
      continue;
    }
    g.end_time = *when;
    g.type = cols[1];
    g.marks[0] = cols[2];
    g.players[0] = cols[3];
    g.players[1] = cols[4];
    g.marks[1] = cols[5];
    g.record = std::string(cols[6]);
    if (cols.size() >= 8) {
      int moves = 0;
      auto [p, ec] = std::from_chars(cols[7].data(), cols[7].data() + cols[7].size(), moves);
      if (ec == std::errc() && p == cols[7].data() + cols[7].size()) g.moves = moves;
    }
    g.line = line_no;
    list.games.push_back(std::move(g));
  }
  return list;
}

ResultsList read_results_list(const std::filesystem::path& file, bool complete_lines_only) {
  std::ifstream in(file);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = std::move(buffer).str();
  if (complete_lines_only) {
    const size_t last_newline = text.rfind('\n');
    text.resize(last_newline == std::string::npos ? 0 : last_newline + 1);
  }
  return parse_results_list(text, file.string());
}

std::optional<int> record_move_count(const std::filesystem::path& record) {
  std::ifstream in(record);
  if (!in) return std::nullopt;
  int moves = 0;
  for (std::string line; std::getline(in, line);) {
    auto digit = [&](size_t i) { return line[i] >= '0' && line[i] <= '9'; };
    auto upper = [&](size_t i) { return line[i] >= 'A' && line[i] <= 'Z'; };
    if (line.size() >= 7 && (line[0] == '+' || line[0] == '-') && digit(1) && digit(2) && digit(3) && digit(4) &&
        upper(5) && upper(6))
      ++moves;
  }
  return moves;
}

}  // namespace arena::csa::league

#include "openings/openings.h"

#include <iconv.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "output/utf8.h"
#include "openings/book_openings.h"
#include "openings/opening_text.h"

namespace arena::openings {

namespace {

std::string lower_extension(const std::string& path) {
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

std::expected<std::string, std::string> to_utf8(const std::string& text) {
  if (utf8::is_valid(text)) return text;
  iconv_t cd = iconv_open("UTF-8", "CP932");
  if (cd == iconv_t(-1)) return std::unexpected("not UTF-8, and Shift_JIS conversion is unavailable");
  std::string out(text.size() * 3 + 16, '\0');
  char* in_ptr = const_cast<char*>(text.data());
  size_t in_left = text.size();
  char* out_ptr = out.data();
  size_t out_left = out.size();
  size_t r = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
  iconv_close(cd);
  if (r == size_t(-1)) return std::unexpected("neither UTF-8 nor Shift_JIS text");
  out.resize(out.size() - out_left);
  return out;
}

std::expected<Opening, std::string> parse_opening_line(std::string_view line, int plies) {
  auto position = opening_position(line, {}, plies);
  if (!position) return std::unexpected(position.error());
  return Opening{*position, {}};
}

std::expected<std::vector<Opening>, std::string> load_openings(const std::string& path, int plies) {
  config::OpeningSettings settings;
  settings.file = path;
  settings.plies = plies;
  return load_openings(settings);
}

std::expected<std::vector<Opening>, std::string> load_openings(const config::OpeningSettings& settings) {
  const std::string& path = settings.file;
  const int plies = settings.plies;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot read the openings file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  std::vector<Opening> openings;
  const std::string ext = lower_extension(path);
  const bool book = is_yaneuraou_book(path, text);
  if (!book && (settings.eval_window || settings.balance))
    return std::unexpected(path + ": eval_window= and balance= are for a YaneuraOu book (#YANEURAOU-DB2016)");
  if (book) {
    BookWalk walk;
    walk.plies = plies > 0 ? plies : 8;
    walk.eval_window = settings.eval_window;
    walk.balance = settings.balance;
    auto r = parse_yaneuraou_book(text, path, walk);
    if (!r) return std::unexpected(r.error());
    openings = std::move(*r);
  } else if (ext == "csa") {
    auto r = parse_csa_openings(text, path, plies);
    if (!r) return std::unexpected(r.error());
    openings = std::move(*r);
  } else if (ext == "kif" || ext == "kifu") {
    auto decoded = to_utf8(text);
    if (!decoded) return std::unexpected(path + ": " + decoded.error());
    auto r = parse_kif_opening(*decoded, path, plies);
    if (!r) return std::unexpected(r.error());
    openings.push_back(std::move(*r));
  } else {
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') continue;
      auto o = parse_opening_line(line, plies);
      const std::string where = path + ":" + std::to_string(number);
      if (!o) return std::unexpected(where + ": " + o.error());
      o->source = where;
      openings.push_back(std::move(*o));
    }
  }
  if (openings.empty()) return std::unexpected(path + ": no openings in the file");
  return openings;
}

std::expected<std::vector<Opening>, std::string> run_openings(const config::OpeningSettings& settings) {
  if (!settings.position.empty()) {
    auto o = parse_opening_line(settings.position, settings.plies);
    if (!o) return std::unexpected("--position: " + o.error());
    o->source = "--position";
    return std::vector<Opening>{*o};
  }
  if (!settings.file.empty()) return load_openings(settings);
  return std::vector<Opening>{Opening{"startpos", "the start position"}};
}

}  // namespace arena::openings

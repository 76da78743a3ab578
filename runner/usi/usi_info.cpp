#include "usi_info.h"

#include <charconv>
#include <initializer_list>

namespace arena::usi {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  for (WordCursor cursor(text); !cursor.at_end();) words.push_back(cursor.next());
  return words;
}

void WordCursor::advance() {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  const std::size_t start = pos_;
  while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '\t') ++pos_;
  word_ = text_.substr(start, pos_ - start);
}

namespace {

template <typename T>
std::optional<T> to_number(std::string_view word) {
  T value{};
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

// Keys that end a pv (everything after `pv` is moves until one of these appears).
bool is_info_key(std::string_view w) {
  for (std::string_view key : {"depth", "seldepth", "time", "nodes", "pv", "multipv", "score", "currmove",
                               "currmovenumber", "hashfull", "nps", "string", "cpuload", "refutation", "currline",
                               "sbhits", "tbhits", "wdl", "hashhits"})
    if (w == key) return true;
  return false;
}

}  // namespace

bool parse_info(std::string_view line, SearchInfo& info, std::string* error) {
  auto fail = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  info.clear();
  WordCursor words(line);
  if (words.peek() == "info") words.next();
  while (!words.at_end()) {
    const std::string_view key = words.next();
    if (key == "string") {
      // Free text to the end of the line, spacing kept.
      std::size_t pos = std::size_t(key.data() - line.data()) + key.size();
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      info.string.emplace(line.substr(pos));
      break;
    }
    if (key == "pv") {
      while (!words.at_end() && !is_info_key(words.peek())) info.pv.emplace_back(words.next());
      continue;
    }
    if (key == "score") {
      const std::string_view kind = words.next(), v = words.next();
      if (v.empty()) return fail("score without kind and value");
      Score score;
      if (kind == "cp") {
        auto n = to_number<int>(v);
        if (!n) return fail("bad cp score '" + std::string(v) + "'");
        score.value = *n;
      } else if (kind == "mate") {
        score.kind = Score::Kind::Mate;
        if (v == "+" || v == "-") {
          score.mate_sign = v == "+" ? 1 : -1;
        } else {
          auto n = to_number<int>(v);
          if (!n) return fail("bad mate score '" + std::string(v) + "'");
          score.value = *n;
          score.mate_sign = (*n < 0 || v.front() == '-') ? -1 : 1;
        }
      } else {
        return fail("unknown score kind '" + std::string(kind) + "'");
      }
      while (words.peek() == "lowerbound" || words.peek() == "upperbound")
        (words.next() == "lowerbound" ? score.lowerbound : score.upperbound) = true;
      info.score = score;
      continue;
    }
    auto int_field = [&](auto& field) -> bool {
      using T = typename std::remove_reference_t<decltype(field)>::value_type;
      auto n = to_number<T>(words.next());
      if (!n) return false;
      field = *n;
      return true;
    };
    bool ok = true;
    if (key == "depth") ok = int_field(info.depth);
    else if (key == "seldepth") ok = int_field(info.seldepth);
    else if (key == "nodes") ok = int_field(info.nodes);
    else if (key == "nps") ok = int_field(info.nps);
    else if (key == "time") ok = int_field(info.time_ms);
    else if (key == "hashfull") ok = int_field(info.hashfull);
    else if (key == "multipv") ok = int_field(info.multipv);
    else if (key == "currmove" || key == "currmovenumber" || key == "cpuload" || key == "sbhits" ||
             key == "tbhits")
      words.next();  // known keys with one value we do not keep
    // else: an extension we do not know; its key is skipped and the words after it are read as keys
    if (!ok) return fail("bad or missing value for '" + std::string(key) + "'");
  }
  if (error) error->clear();
  return true;
}

std::optional<SearchInfo> parse_info(std::string_view line, std::string* error) {
  SearchInfo info;
  if (!parse_info(line, info, error)) return std::nullopt;
  return info;
}

void SearchInfo::clear() {
  // Every field back to its default, except that the pv keeps its buffer (the moves in it are short enough for
  // no allocation of their own).
  std::vector<std::string> pv_buffer = std::move(pv);
  pv_buffer.clear();
  *this = SearchInfo{};
  pv = std::move(pv_buffer);
}

namespace {

// SearchInfo::merge for a copied (const&) or a moved (&&) later line.
template <typename Later>
void merge_into(SearchInfo& info, Later&& later) {
  if (later.score) {
    info.score = later.score;
    info.pv = std::forward<Later>(later).pv;
  } else if (!later.pv.empty()) {
    info.pv = std::forward<Later>(later).pv;
  }
  if (later.depth) info.depth = later.depth;
  if (later.seldepth) info.seldepth = later.seldepth;
  if (later.nodes) info.nodes = later.nodes;
  if (later.nps) info.nps = later.nps;
  if (later.time_ms) info.time_ms = later.time_ms;
  if (later.hashfull) info.hashfull = later.hashfull;
  if (later.multipv) info.multipv = later.multipv;
  if (later.string) info.string = std::forward<Later>(later).string;
}

}  // namespace

void SearchInfo::merge(const SearchInfo& later) { merge_into(*this, later); }
void SearchInfo::merge(SearchInfo&& later) { merge_into(*this, std::move(later)); }

std::optional<BestMove> parse_bestmove(std::string_view line, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<BestMove> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  WordCursor words(line);
  if (words.next() != "bestmove") return fail("not a bestmove line");
  if (words.at_end()) return fail("bestmove without a move");
  BestMove best;
  best.move = words.next();
  if (words.at_end()) return best;
  if (const std::string_view word = words.next(); word != "ponder")
    return fail("unexpected '" + std::string(word) + "' after the move");
  if (words.at_end()) return best;  // "ponder" with nothing after it: the move itself is clear
  best.ponder = words.next();
  if (!words.at_end()) return fail("unexpected '" + std::string(words.peek()) + "' after the ponder move");
  return best;
}

}  // namespace arena::usi

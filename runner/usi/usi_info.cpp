#include "usi_info.h"

#include <charconv>
#include <initializer_list>

namespace arena::usi {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  words.reserve(32);  // an info line with a short pv in one allocation, not five
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
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

std::optional<SearchInfo> parse_info(std::string_view line, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<SearchInfo> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  auto words = split_words(line);
  std::size_t i = 0;
  if (i < words.size() && words[i] == "info") ++i;
  SearchInfo info;
  // The value after key `k` at words[i]; advances i past it.
  auto value = [&]() -> std::optional<std::string_view> {
    if (i + 1 >= words.size()) return std::nullopt;
    i += 2;
    return words[i - 1];
  };
  while (i < words.size()) {
    std::string_view key = words[i];
    if (key == "string") {
      // Free text to the end of the line, spacing kept.
      std::size_t pos = std::size_t(words[i].data() - line.data()) + key.size();
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      info.string = std::string(line.substr(pos));
      break;
    }
    if (key == "pv") {
      ++i;
      while (i < words.size() && !is_info_key(words[i])) info.pv.emplace_back(words[i++]);
      continue;
    }
    if (key == "score") {
      if (i + 2 >= words.size()) return fail("score without kind and value");
      std::string_view kind = words[i + 1], v = words[i + 2];
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
      i += 3;
      while (i < words.size() && (words[i] == "lowerbound" || words[i] == "upperbound")) {
        (words[i] == "lowerbound" ? score.lowerbound : score.upperbound) = true;
        ++i;
      }
      info.score = score;
      continue;
    }
    auto int_field = [&](auto& field) -> bool {
      using T = typename std::remove_reference_t<decltype(field)>::value_type;
      auto v = value();
      if (!v) return false;
      auto n = to_number<T>(*v);
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
      i += 2;  // known keys with one value we do not keep
    else
      ++i;  // an extension we do not know: skip the word and go on
    if (!ok) return fail("bad or missing value for '" + std::string(key) + "'");
  }
  if (error) error->clear();
  return info;
}

void SearchInfo::merge(SearchInfo&& later) {
  if (later.score) {
    score = later.score;
    pv = std::move(later.pv);
  } else if (!later.pv.empty()) {
    pv = std::move(later.pv);
  }
  if (later.depth) depth = later.depth;
  if (later.seldepth) seldepth = later.seldepth;
  if (later.nodes) nodes = later.nodes;
  if (later.nps) nps = later.nps;
  if (later.time_ms) time_ms = later.time_ms;
  if (later.hashfull) hashfull = later.hashfull;
  if (later.multipv) multipv = later.multipv;
  if (later.string) string = std::move(later.string);
}

std::optional<BestMove> parse_bestmove(std::string_view line, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<BestMove> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  auto words = split_words(line);
  if (words.empty() || words[0] != "bestmove") return fail("not a bestmove line");
  if (words.size() < 2) return fail("bestmove without a move");
  BestMove best;
  best.move = std::string(words[1]);
  best.raw = std::string(line);
  if (words.size() == 2) return best;
  if (words[2] != "ponder") return fail("unexpected '" + std::string(words[2]) + "' after the move");
  if (words.size() < 4) return best;  // "ponder" with nothing after it: the move itself is clear
  if (words.size() > 4) return fail("unexpected '" + std::string(words[4]) + "' after the ponder move");
  best.ponder = std::string(words[3]);
  return best;
}

}  // namespace arena::usi

#pragma once
// Parsing of what a USI engine says about its search: `info` lines and `bestmove`. Pure functions over text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::usi {

struct Score {
  enum class Kind { Cp, Mate };
  Kind kind = Kind::Cp;
  // Centipawns, or for mate the distance in plies with the sign of the side that mates (positive: the engine).
  // `score mate +` / `score mate -` (distance unknown, a YaneuraOu extension) give 0 with mate_sign set.
  int value = 0;
  int mate_sign = 0;  // +1 / -1 for a mate score, 0 for cp
  bool lowerbound = false;
  bool upperbound = false;

  bool is_mate() const { return kind == Kind::Mate; }
};

struct SearchInfo {
  std::optional<Score> score;
  std::optional<int> depth;
  std::optional<int> seldepth;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> nps;
  std::optional<std::int64_t> time_ms;
  std::optional<int> hashfull;
  std::optional<int> multipv;
  std::vector<std::string> pv;
  std::optional<std::string> string;  // `info string ...`, the rest of the line

  // Fields the line carries overwrite ours; a score line also replaces the pv (a pv belongs to its score).
  // Copying reuses the capacity this info already has.
  void merge(const SearchInfo& later);
  // The same, taking `later`'s pv and string instead of copying them.
  void merge(SearchInfo&& later);
  // Empties every field and keeps the pv's capacity, so that a reused info allocates nothing.
  void clear();
};

// Parses the line after "info" (or a whole "info ..." line). Unknown keys are skipped, so engine extensions
// do not hide the fields we know; a known key with a malformed value is an error.
std::optional<SearchInfo> parse_info(std::string_view line, std::string* error = nullptr);
// The same into `out`, which is cleared first and keeps its capacity: the client parses every info line of a
// search into one reused SearchInfo. On false, `out` holds what was parsed before the error.
bool parse_info(std::string_view line, SearchInfo& out, std::string* error = nullptr);

struct BestMove {
  std::string move;    // a USI move, "resign" or "win" — legality is the game's business
  std::string ponder;  // empty when the engine gave none

  bool is_resign() const { return move == "resign"; }
  bool is_win() const { return move == "win"; }
};

// "bestmove <move> [ponder <move>]". Nullopt for anything else (missing move, trailing junk); `error` explains.
std::optional<BestMove> parse_bestmove(std::string_view line, std::string* error = nullptr);

// Splits on runs of spaces and tabs.
std::vector<std::string_view> split_words(std::string_view text);

// The words of a line one at a time, as split_words has them, without building a vector: the runner reads every
// info and bestmove line of every game through it.
class WordCursor {
 public:
  explicit WordCursor(std::string_view text) : text_(text) { advance(); }
  bool at_end() const { return word_.empty(); }
  // The current word without taking it; empty at the end.
  std::string_view peek() const { return word_; }
  // The current word, then moves to the next one; empty at the end.
  std::string_view next() {
    std::string_view word = word_;
    advance();
    return word;
  }

 private:
  void advance();

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string_view word_;
};

}  // namespace arena::usi

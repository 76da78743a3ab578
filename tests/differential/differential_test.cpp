// Differential test of the rules library against shogiops (see README.md): reads the oracle file written by
// oracle.mjs and, for every position, compares our legal move set and perft(1..3) with shogiops's figures.
//
//   differential_test FILE [--min-positions N]
//
// Exit 0 only when every line matches and at least N (default 1000) positions were compared, so an empty or
// truncated oracle file cannot pass.

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/perft.h"
#include "rules/position.h"

namespace {

// Detailed reports stop after this many positions: one generator bug tends to show up in hundreds of them, and
// the first few say everything. Every failing SFEN is still printed on its own line.
constexpr int MAX_DETAILED = 20;

struct OracleLine {
  std::string sfen;
  std::string perft[3];  // "-" where the oracle skipped the count
  std::vector<std::string> moves;
};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return out;
    start = pos + 1;
  }
}

bool parse_line(std::string_view text, OracleLine& line, std::string& error) {
  auto fields = split(text, '\t');
  if (fields.size() != 5) {
    error = "expected 5 tab-separated fields, got " + std::to_string(fields.size());
    return false;
  }
  line.sfen = fields[0];
  for (int d = 0; d < 3; ++d) {
    line.perft[d] = fields[1 + d];
    const std::string& f = line.perft[d];
    if (f != "-" && (f.empty() || !std::all_of(f.begin(), f.end(), [](char c) { return c >= '0' && c <= '9'; }))) {
      error = "perft" + std::to_string(d + 1) + " field is neither a number nor '-': \"" + f + "\"";
      return false;
    }
  }
  line.moves.clear();
  for (std::string_view m : split(fields[4], ' '))
    if (!m.empty()) line.moves.emplace_back(m);
  if (line.perft[0] != "-" && std::stoull(line.perft[0]) != line.moves.size()) {
    error = "perft1 " + line.perft[0] + " disagrees with the " + std::to_string(line.moves.size()) + " moves listed";
    return false;
  }
  return true;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& m : v) s += (s.empty() ? "" : " ") + m;
  return s;
}

class Checker {
 public:
  // Returns true when the position matches in every respect.
  bool check(const OracleLine& line, size_t line_no) {
    problems_.clear();
    shogi::StateInfo si;
    if (auto r = pos_.set(line.sfen, &si); !r) {
      problems_.push_back("our Position::set rejects it: " + r.error());
      return report(line, line_no);
    }
    // The oracle writes canonical SFEN, so our output must reproduce it byte for byte.
    const std::string ours_sfen = pos_.sfen();
    if (ours_sfen != line.sfen) problems_.push_back("SFEN round trip differs: we write \"" + ours_sfen + "\"");

    std::vector<std::string> ours;
    for (const shogi::ExtMove& em : shogi::MoveList<shogi::LEGAL>(pos_)) ours.push_back(shogi::to_usi(em.move));
    std::sort(ours.begin(), ours.end());
    if (std::adjacent_find(ours.begin(), ours.end()) != ours.end()) {
      std::vector<std::string> dups;
      for (auto it = ours.begin(); (it = std::adjacent_find(it, ours.end())) != ours.end(); ++it) dups.push_back(*it);
      problems_.push_back("we generate duplicates: " + join(dups));
    }
    std::vector<std::string> theirs = line.moves;
    std::sort(theirs.begin(), theirs.end());
    std::vector<std::string> missing, extra;
    std::set<std::string> ours_set(ours.begin(), ours.end()), theirs_set(theirs.begin(), theirs.end());
    std::set_difference(theirs_set.begin(), theirs_set.end(), ours_set.begin(), ours_set.end(),
                        std::back_inserter(missing));
    std::set_difference(ours_set.begin(), ours_set.end(), theirs_set.begin(), theirs_set.end(),
                        std::back_inserter(extra));
    if (!missing.empty()) problems_.push_back("missing (shogiops has, we do not): " + join(missing));
    if (!extra.empty()) problems_.push_back("extra (we have, shogiops does not): " + join(extra));
    moves_compared_ += theirs.size();

    for (int d = 1; d <= 3; ++d) {
      if (line.perft[d - 1] == "-") continue;
      const uint64_t expected = std::stoull(line.perft[d - 1]);
      const uint64_t got = shogi::perft(pos_, d);
      ++perfts_compared_;
      if (got != expected) {
        std::ostringstream os;
        os << "perft(" << d << ") = " << got << ", shogiops says " << expected;
        if (d >= 2) {
          // Our divide next to the command that prints shogiops's finds the root move that differs.
          os << "\n    our divide:";
          std::vector<std::string> parts;
          shogi::perft_divide(
              pos_, d, [&](shogi::Move m, uint64_t n) { parts.push_back(shogi::to_usi(m) + ":" + std::to_string(n)); });
          std::sort(parts.begin(), parts.end());
          os << ' ' << join(parts) << "\n    shogiops's divide: node tests/differential/oracle.mjs --divide '"
             << line.sfen << "' " << d;
        }
        problems_.push_back(os.str());
      }
    }
    // perft must leave the position exactly as it found it.
    if (pos_.sfen() != ours_sfen) problems_.push_back("position changed by perft: now \"" + pos_.sfen() + "\"");
    return report(line, line_no);
  }

  uint64_t moves_compared() const { return moves_compared_; }
  uint64_t perfts_compared() const { return perfts_compared_; }

 private:
  bool report(const OracleLine& line, size_t line_no) {
    if (problems_.empty()) return true;
    ++failed_positions_;
    std::cout << "MISMATCH line " << line_no << ": " << line.sfen << '\n';
    if (failed_positions_ <= MAX_DETAILED) {
      for (const auto& p : problems_) std::cout << "  " << p << '\n';
    } else if (failed_positions_ == MAX_DETAILED + 1) {
      std::cout << "  (details of further mismatches are omitted; their SFENs follow)\n";
    }
    return false;
  }

  shogi::Position pos_;
  std::vector<std::string> problems_;
  int failed_positions_ = 0;
  uint64_t moves_compared_ = 0;
  uint64_t perfts_compared_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  size_t min_positions = 1000;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--min-positions" && i + 1 < argc) {
      std::string_view v = argv[++i];
      if (std::from_chars(v.data(), v.data() + v.size(), min_positions).ec != std::errc{}) {
        std::cerr << "differential_test: bad --min-positions value\n";
        return 2;
      }
    } else if (path.empty() && !a.starts_with("-")) {
      path = a;
    } else {
      std::cerr << "usage: differential_test FILE [--min-positions N]\n";
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << "usage: differential_test FILE [--min-positions N]\n";
    return 2;
  }
  std::ifstream in(path);
  if (!in) {
    std::cerr << "differential_test: cannot open " << path << '\n';
    return 2;
  }

  shogi::Position::init();
  Checker checker;
  // Mismatches count positions (and bad oracle lines), however many differences each one has.
  size_t positions = 0, mismatches = 0, line_no = 0;
  std::string text;
  while (std::getline(in, text)) {
    ++line_no;
    if (text.empty() || text[0] == '#') continue;
    OracleLine line;
    std::string error;
    if (!parse_line(text, line, error)) {
      // A malformed oracle line is a broken test, not a generator difference, but it must not pass either.
      std::cout << "BAD ORACLE LINE " << line_no << ": " << error << '\n';
      ++mismatches;
      continue;
    }
    ++positions;
    if (!checker.check(line, line_no)) ++mismatches;
  }

  std::cout << "differential: " << positions << " positions, " << checker.moves_compared() << " moves compared, "
            << mismatches << " mismatches (" << checker.perfts_compared() << " perft counts compared)\n";
  if (positions < min_positions) {
    std::cout << "differential: FAIL: fewer than " << min_positions << " positions compared\n";
    return 1;
  }
  return mismatches == 0 ? 0 : 1;
}

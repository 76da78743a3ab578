#pragma once
// Training data from self-play: the engine plays itself at a fixed node (or depth) limit, one game per thread, and
// writes every quiet position of every finished game as a TrainingRecord with the search's score and best move and
// the game's result. Games start from an opening suite (or the start position) and get a few random near-best moves
// early on, so that no two games are alike.

#include <atomic>
#include <cstdint>
#include <expected>
#include <iosfwd>
#include <string>
#include <vector>

namespace shogi::learn {

struct GensfenOptions {
  std::string output;  // records are appended; the run ends when the file holds `positions` records
  uint64_t positions = 1'000'000;
  int threads = 1;
  uint64_t nodes = 5000;  // search limit per move (0 = none, then depth must be set)
  int depth = 0;
  int hash_mb = 16;         // per thread
  std::string eval_file;    // learned weights to play with, as EvalFile names them: empty = the built-in weights,
                            // "none" = the hand-written evaluation alone; loaded once, shared by the run's players
  std::string openings;     // one start position a line ("startpos moves ...", "sfen ..."); empty = startpos
  int random_moves = 4;     // near-best random moves per game, at random plies of the first random_max_ply
  int random_max_ply = 24;  // counted from the end of the opening
  int random_multipv = 6;   // candidates for a random move: the best this many ...
  int random_margin = 100;  // ... within this many centipawns of the best
  int write_min_ply = 16;   // positions before this SFEN move number are not written
  int eval_limit = 3000;    // |score| at or beyond this ends the game for the side ahead (mates too)
  int max_plies = 320;      // a game this long is a draw
  uint64_t seed = 1;
  double progress_seconds = 10;  // between progress lines (0 = none)
};

struct GensfenSummary {
  uint64_t positions_before = 0;  // records already in the file
  uint64_t positions_written = 0;
  uint64_t games = 0;
  uint64_t wins_black = 0, wins_white = 0, draws = 0;
  uint64_t torn_bytes_dropped = 0;  // a partial last record of an earlier, killed run
  double seconds = 0;
  bool interrupted = false;
};

// Runs until the output holds `positions` records or `stop` is set (a finished game is written whole, a game in
// progress is dropped). Progress lines go to `log`. Errors: the output cannot be opened or written, the openings
// file cannot be read or has a bad line (named with its line number), or the options make no sense.
std::expected<GensfenSummary, std::string> run_gensfen(const GensfenOptions& options, std::ostream& log,
                                                       const std::atomic<bool>& stop);

// Reads an opening suite: blank lines and lines starting with '#' are skipped; every other line must be a position
// the rules accept (error: "FILE:LINE: ..."). Positions come back as "sfen ... moves ..." / "startpos moves ...".
std::expected<std::vector<std::string>, std::string> load_start_positions(const std::string& path);

}  // namespace shogi::learn

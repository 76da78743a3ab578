#pragma once
// The journal: an append-only JSONL file, one line per finished game, written with a single write(2) per line and
// nothing buffered in the runner, so a kill -9 loses at most the games still running (a line cut by the kill is
// detected on reading and cut off when the run resumes).
//
// Line 1 is a header: {"journal":1,"type":"gauntlet","engines":[...],"games":N,"games_per_pair":2,
//   "schedule":"<schedule_id>","sprt":{...}|null,"created":"...", then what identifies the run (run_identity.h):
//   "settings":{...},"settings_sha256":"...","files":[{"role":"new","path":"/x/new","sha256":"..."},...],
//   and "host":"...","pid":N; in a segment of a sharded run "shard":{"index":I,"count":N}, and in a journal that
//   `merge` wrote "merged_segments":K}.
// Journals written before the identity existed lack those members and are still read.
// Each game line is the game's result JSON (runner/output/result_json.h) with the schedule's fields first:
//   {"game":12,"pair":6,"game_in_pair":0,"round":3,"attempt":0,"opening":3,"replay":false,"version":1,...}
// "replay":true marks a game that broke its pair (an engine crash or a runner-side error) when the pair is played
// again: every game of that pair attempt is void, and the pair's next attempt counts instead.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_result.h"
#include "journal/run_identity.h"
#include "journal/shard.h"
#include "stats/sprt.h"
#include "stats/spsa.h"

namespace arena::journal {

// What an SPSA run tunes (journal/spsa_pair.h has its lines).
struct SpsaSpec {
  std::string engine;  // the tuned engine's name
  std::vector<stats::SpsaParam> params;
  stats::SpsaSchedule schedule;
  uint64_t seed = 1;
  // Per parameter: sent to the engine as a whole number (any parameter of a spin option) rather than a decimal.
  // Empty in the journals of older versions: int parameters were, floats were not.
  std::vector<bool> sent_whole;

  bool whole(size_t param) const { return param < sent_whole.size() ? sent_whole[param] : params[param].integer; }
  std::vector<bool> whole_all() const {
    std::vector<bool> out;
    for (size_t i = 0; i < params.size(); ++i) out.push_back(whole(i));
    return out;
  }
};

// One finished pair of an SPSA run (journal/spsa_pair.h has its line).
struct SpsaPair {
  int64_t k = 0;                             // the iteration, 1-based
  std::vector<int> delta;                    // +1 / -1 per parameter
  std::vector<double> plus, minus;           // the values each side was sent
  double result = 0;                         // wins(plus) - wins(minus) over the pair
  std::optional<std::vector<double>> theta;  // after this pair's update, when the writer applied it
};

// An engine built from a git ref, or one whose bench signature was checked (runner/provision).
struct EngineBuild {
  std::string engine;
  std::string repo, ref, commit;  // empty for an engine given by cmd
  bool dirty = false;             // built from a repository's uncommitted state (@WORKTREE)
  std::optional<int64_t> bench;   // the bench node count checked before the first game
};

// The time controls scaled to the machine (--scale-tc): the written ones are in the settings, the played ones in
// each game's line.
struct TimeScale {
  double nps = 0;           // the speed the time controls are written for
  std::string engine;       // whose bench measured the machine
  double measured_nps = 0;  // its speed here
  double factor = 1;        // nps / measured_nps
};

struct JournalHeader {
  std::string type;
  std::vector<std::string> engines;
  int64_t games = 0;
  int games_per_pair = 2;
  std::string schedule;
  std::optional<stats::SprtConfig> sprt;
  std::string created;
  std::optional<RunIdentity> identity;  // absent in older journals
  std::string host;
  int64_t pid = 0;
  std::optional<Shard> shard;    // a segment of a sharded run (segments.h)
  int64_t merged_segments = 0;   // written by `merge` from this many segments; 0 for a journal a run wrote
  std::optional<SpsaSpec> spsa;  // an SPSA run's ("type":"spsa")
  // The rating list's anchor (config::Config::rating_anchor), so that stats and report rate as the run did.
  std::string rating_anchor;
  double rating_anchor_elo = 0;
  std::vector<EngineBuild> builds;  // absent in older journals and in runs without git engines or bench checks
  std::optional<TimeScale> scale_tc;
};
std::string to_json(const JournalHeader& header);
// A header line back (a line with "journal":1, as the first line of every journal).
std::expected<JournalHeader, std::string> parse_journal_header(std::string_view line);

// Where a game stands in its run: the schedule's fields a journal line begins with.
struct GameKey {
  int64_t game = 0;  // 0-based game number: the journal's key
  int64_t pair = 0;
  int game_in_pair = 0;  // 0: the pairing's first engine is black; 1: colours swapped
  int round = 0;
  int attempt = 0;      // of its pair: games of earlier attempts are void
  int opening = 0;      // index into the run's opening list
  bool replay = false;  // this game voided its pair attempt: the pair is played again
};

// What the tournament and the stats command need of a journaled game.
struct JournalGame : GameKey {
  std::string black, white;
  Outcome outcome = Outcome::None;
  Termination termination = Termination::None;
  std::string detail;
  int plies = 0;  // moves in the record, opening moves included
};

// One journal line (no newline) for a finished game.
std::string journal_line(const GameKey& key, const PlayedGame& game);

// A finished game as everything that follows a run gets it (the journal writer, the standings, the console, the
// live page): its line, serialized once, and what the line says.
struct JournaledGame {
  std::string line;
  JournalGame summary;
};
JournaledGame journaled(const GameKey& key, const PlayedGame& game);
// A game line back (the header is not a game: use read_journal).
std::expected<JournalGame, std::string> parse_journal_game(std::string_view line);
// What makes `game` a line no run under `header` writes (an engine it does not name, the same engine on both sides,
// a game past its count: a hand-edited or spliced journal), or "" when nothing does; `header` may be null (a
// journal without one: only the sides are checked). read_journal and the SPSA coordinator refuse such a line; a
// reader that goes on (the live page) leaves it out.
std::string foreign_game(const JournalGame& game, const JournalHeader* header);

struct JournalContents {
  std::optional<JournalHeader> header;
  std::vector<JournalGame> games;
  std::vector<std::string> lines;     // each game's line as written, when read with keep_lines
  std::vector<std::string> warnings;  // lines skipped, with their numbers
  // An SPSA run's pairs, in the order read (their games are in `games`, two a pair, in the same order).
  std::vector<SpsaPair> spsa_pairs;
  uint64_t valid_size = 0;  // bytes up to the end of the last complete line
  bool torn = false;        // the file ends inside a line (a write cut short by kill -9)
};
// Reads a whole journal. A line that is not valid JSON is an error, except a final line without its newline,
// which is reported as torn and left out. An SPSA pair's line gives its pair and its two games.
std::expected<JournalContents, std::string> read_journal(const std::string& path, bool keep_lines = false);

// A journal read a line at a time, for a reader that must not hold a long run whole (the report of 100,000 games):
// read_journal's rules and errors, each line handed over as it is read.
class JournalVisitor {
 public:
  virtual ~JournalVisitor() = default;
  virtual void header(const JournalHeader&) {}
  // A game, with its line as written when lines are asked for (else empty).
  virtual void game(JournalGame&& game, std::string&& line) = 0;
  // An SPSA pair's line, after its two games.
  virtual void spsa_pair(SpsaPair&&) {}
};
// What a scan found besides the lines: read_journal's fields of the same names.
struct JournalScan {
  std::vector<std::string> warnings;
  uint64_t valid_size = 0;
  bool torn = false;
};
std::expected<JournalScan, std::string> scan_journal(const std::string& path, JournalVisitor& visitor,
                                                     bool with_lines = false);

// A visitor that keeps everything handed to it: read_journal is scan_journal with one (merge.h's read_games,
// scan_games with one).
class JournalCollector final : public JournalVisitor {
 public:
  explicit JournalCollector(bool keep_lines) : keep_lines_(keep_lines) {}
  void header(const JournalHeader& h) override { contents_.header = h; }
  void game(JournalGame&& g, std::string&& line) override;
  void spsa_pair(SpsaPair&& pair) override { contents_.spsa_pairs.push_back(std::move(pair)); }
  // What was kept, with what the scan found besides the lines.
  JournalContents finish(JournalScan&& scan) &&;

 private:
  JournalContents contents_;
  bool keep_lines_;
};

class JournalWriter {
 public:
  JournalWriter() = default;
  ~JournalWriter();
  JournalWriter(JournalWriter&& other) noexcept;
  JournalWriter& operator=(JournalWriter&& other) noexcept;

  // Starts a new journal (replacing any file there) with its header line. `exclusive`: fail if the file exists
  // (a segment's name is unique to its process; an existing file is another process's).
  static std::expected<JournalWriter, std::string> create(const std::string& path, const JournalHeader& header,
                                                          bool exclusive = false);
  // Opens an existing journal for appending, first cutting it to `valid_size` bytes (dropping a torn line).
  static std::expected<JournalWriter, std::string> append_to(const std::string& path, uint64_t valid_size);

  // Writes the line and a newline with one write(2) on an O_APPEND descriptor, then fdatasync(2): on a shared
  // filesystem (NFS) other nodes see nothing before that, and a node that dies loses no journaled game.
  std::expected<void, std::string> append(std::string_view line);
  bool is_open() const { return fd_ >= 0; }

 private:
  std::expected<void, std::string> sync();

  int fd_ = -1;
  std::string path_;
};

}  // namespace arena::journal

#pragma once
// The server's records on disk, kept so that a crash loses nothing finished: each game's record is written as it
// is played (the header when it starts, then every move appended, as shogi-server writes its records), replaced
// whole by the finished record at the end, when its line joins the results list. A record that a killed server
// left without an ending is closed when the server starts again, and listed: as an abnormal game without a
// winner when both players had a trip (mk_rate then counts it as a draw beyond 30 moves, like its other abnormal
// games), else as a stopped one.

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "csa/server/game.h"

namespace arena::csa {

class RecordStore {
 public:
  using Log = std::function<void(const std::string&)>;
  RecordStore(std::filesystem::path output_dir, std::filesystem::path results_file, Log log);
  ~RecordStore();
  RecordStore(const RecordStore&) = delete;
  RecordStore& operator=(const RecordStore&) = delete;

  // The game started or played a move: its record so far is on disk.
  void progress(const ServerGame& game);
  // The game ended: the whole record replaces the one written so far, and its results line is appended. The
  // record's path, empty when it could not be written.
  std::filesystem::path finish(const ServerGame& game);
  // At start, before any game: closes the records of the last `days` days that have no ending, and lists them.
  // How many it closed.
  int recover(SystemTime now, int days = 3);

  const std::filesystem::path& results_file() const { return results_file_; }

 private:
  void append_result_line(const std::string& line);

  std::filesystem::path output_dir_;
  std::filesystem::path results_file_;
  Log log_;
  // The records being played, by Game_ID: kept open (a descriptor each) so that a move costs one write.
  struct Open {
    int fd = -1;
    size_t moves_written = 0;
  };
  std::map<std::string, Open> open_;
};

}  // namespace arena::csa

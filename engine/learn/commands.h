#pragma once
// The learning commands of shogi-arena-engine, run from its command line:
//   gensfen --output FILE --positions N [--threads N] [--nodes N | --depth D] [--openings FILE] [--eval-file W] ...
//   rescore --output FILE [--nodes N | --depth D] [--threads N] [--eval-file W] INPUT   a deeper teacher's labels
//   shuffle --train FILE --validation FILE [--validation-fraction F] [--seed S] INPUT...
//   records FILE [--first N] [--count N]          one line a record: sfen, score, move, result
//   learn --output WEIGHTS [--validation FILE] [--init WEIGHTS | --base hand|none] [--epochs N] [--lambda L] ...
//   TRAIN...
// Each returns the process exit code: 0 done, 1 failed (one line on `err`), 2 usage error, 130 interrupted.
// `--help` (or `-h`) prints the command's whole usage on `out` and returns 0.

#include <iosfwd>
#include <string>
#include <vector>

namespace shogi::learn {

// True for the names above.
bool is_learn_command(const std::string& name);
int run_learn_command(const std::string& name, const std::vector<std::string>& args, std::ostream& out,
                      std::ostream& err);

}  // namespace shogi::learn

#pragma once
// A file replaced whole or not at all: written to a temporary file beside it, synced, renamed over it, and the
// folder synced, so that a reader (a shard polling OUT/STOP, a coordinator's theta, a merged journal) never sees
// half of it and a crash of the machine leaves the old file or the new one. On a failure the temporary file is
// removed and the old file is left as it was.

#include <expected>
#include <string>
#include <string_view>

namespace arena::output {

// The error is one line: "<path>: cannot write <what>: <reason>" ("the report", "the tuned params file").
std::expected<void, std::string> write_file_atomically(const std::string& path, std::string_view text,
                                                       std::string_view what = "it");

}  // namespace arena::output

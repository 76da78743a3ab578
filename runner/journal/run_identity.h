#pragma once
// What a run's results depend on besides its schedule: the settings that decide the games, and the exact files
// played, each engine's binary and the openings file, by SHA-256 (libcrypto). Every journal header records it,
// so that resuming with a rebuilt engine, or merging shards that ran different builds, is refused with one line
// instead of silently mixing the results of two programs.
//
// The settings are canonical JSON of what changes a game: the tournament type, rounds, opening order/seed/plies,
// the game rules and adjudication, replay policy, the SPRT bounds, and per engine its name, arguments, USI
// options, time control and quirk switches. Not in it: paths (the digests say what was played, wherever it lay),
// concurrency, output settings and the shard, which may differ between the shards of one run.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace arena::journal {

struct FileDigest {
  std::string role;    // the engine's name, or "openings"
  std::string path;    // as played (absolute for engines)
  std::string sha256;  // lower-case hex
  bool operator==(const FileDigest&) const = default;
};

struct RunIdentity {
  std::string settings;         // canonical JSON object text
  std::string settings_sha256;  // of `settings`
  std::vector<FileDigest> files;
};

// Lower-case hex SHA-256 of a file's bytes, or of a string.
std::expected<std::string, std::string> sha256_file(const std::string& path);
std::string sha256_hex(std::string_view data);

// Hashes the engine binaries and the openings file. `written`: each engine's time control as the user wrote it,
// when the config holds clocks scaled to this machine (provision/findings.h); empty: the config's. Error: one
// line naming the engine and the file.
std::expected<RunIdentity, std::string> make_run_identity(const config::Config& config,
                                                          const std::vector<game::TimeControl>& written = {});

// The first difference between a recorded identity (a journal's, named `recorded_name`) and another (this run's,
// or another segment's), as one line, e.g.
//   engine 'new': its binary /x/new has sha256 1b2c3d4e5f60... but the journal's was 9a8b7c6d5e4f... (/x/new)
//   the settings differ at engines[1].tc: "10+0.1" now, "5+0.05" in the journal
// Empty when they agree.
std::string identity_difference(const RunIdentity& recorded, const RunIdentity& now,
                                const std::string& recorded_name = "the journal");

}  // namespace arena::journal

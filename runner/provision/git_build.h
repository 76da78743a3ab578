#pragma once
// Engines built from a git ref: the commit is resolved, checked out into a build cache keyed by repository, commit
// and build command, built there once, and played from there. A second run of the same commit builds nothing.
//
//   CACHE/repos/<key>.git                   a mirror of a repository given by URL (fetched again on each resolve)
//   CACHE/<repo>-<commit12>-<key8>/src      the checkout (for WORKTREE: a copy of the working tree's files)
//   CACHE/<repo>-<commit12>-<key8>/build.log  the build's output
//   CACHE/<repo>-<commit12>-<key8>/built    "sha256 bin" once the build succeeded: the cache hit
// A lock file beside them lets two runners (two shards, two terminals) share the cache: the second waits and finds
// the first's build.

#include <expected>
#include <iosfwd>
#include <string>

#include "config/config.h"

namespace arena::provision {

// $XDG_CACHE_HOME/shogi-arena/builds, else $HOME/.cache/shogi-arena/builds, else ./.shogi-arena-builds.
std::string default_build_cache();

// What a ref resolved to. For WORKTREE, `commit` is HEAD and `content_key` digests the uncommitted files.
struct ResolvedRef {
  std::string commit;
  bool dirty = false;
  std::string content_key;  // WORKTREE only
  std::string source;       // the repository to check out from: the local path, or the URL's mirror
};
std::expected<ResolvedRef, std::string> resolve_ref(const config::EngineSource& source, const std::string& cache);

struct BuiltEngine {
  std::string binary;  // absolute
  std::string sha256;
  std::string commit;
  bool dirty = false;
  bool built_now = false;  // false: found in the cache
  double seconds = 0;      // the build's time (0 for a cache hit)
  std::string log;         // the build's log
};

// Resolves, checks out and builds (or finds the build in the cache). Progress lines go to `progress`; the error is
// one line: the engine's name, what failed, the log's path and its last lines.
std::expected<BuiltEngine, std::string> build_engine(const std::string& name, const config::EngineSource& source,
                                                     const std::string& cache, std::ostream& progress);

// The last `n` non-empty lines of a file, joined by " | " (for a one-line error).
std::string last_lines(const std::string& path, int n);

}  // namespace arena::provision

#pragma once
// Engines made ready before the first game: built from their git refs (git_build.h) or taken from the list of
// prebuilt binaries a `slurm` submission wrote, their bench signatures checked (bench.h), and every time control
// scaled to this machine's speed (--scale-tc). The config's engines get their commands and scaled clocks; what
// was found (commits, digests, bench nodes, the measured speed) is returned apart (findings.h), for the journal
// header.

#include <expected>
#include <iosfwd>
#include <string>

#include "config/config.h"
#include "provision/findings.h"

namespace arena::provision {

// Does all of it, in that order, once per run. Progress lines go to `progress`; an error is one line naming the
// engine.
std::expected<Findings, std::string> provision_engines(config::Config& config, std::ostream& progress);

// Builds the git engines only (what `slurm` does once before it submits), filling in their commands; the findings
// hold their commits and digests.
std::expected<Findings, std::string> build_git_engines(config::Config& config, std::ostream& progress);

// The list of the git engines' binaries, for shards that must play exactly these builds: one line per engine,
// "NAME<TAB>COMMIT<TAB>DIRTY<TAB>SHA256<TAB>BINARY". Written after build_git_engines, with the digest each binary had
// when it was built (or found in the cache), so that a binary changed since is refused by the shards.
std::string prebuilt_text(const config::Config& config, const Findings& built);

// A time control multiplied by `factor`: clocks and movetime (in whole ms, at least 1 where set); nodes and depth
// limits unchanged.
game::TimeControl scaled(const game::TimeControl& tc, double factor);

}  // namespace arena::provision

#pragma once
// What provisioning (provision.h) finds before the first game, kept apart from the settings the user wrote
// (config::Config): the commit and digest of each engine built from a git ref, the bench node counts measured,
// and the machine's speed behind scaled clocks. A run carries it to its journal header (run/run_journal.h) and
// to its summary, as the header's records of builds and scaling (journal::EngineBuild, journal::TimeScale).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "game/time_control.h"
#include "journal/journal.h"

namespace arena::provision {

struct EngineFindings {
  std::string commit;                  // git_ref resolved (for WORKTREE, the HEAD the changes are on)
  bool dirty = false;                  // built from the repository's uncommitted state
  std::string sha256;                  // the built binary's digest, taken when it was built (git engines)
  std::optional<int64_t> bench_nodes;  // the bench node count measured (when bench or scale_tc asked for it)
};

// The clocks scaled to this machine (config::ScaleTc): the config's engines now hold the scaled time controls.
struct ClockScaling {
  double measured_nps = 0;                 // the reference engine's bench here
  double factor = 1;                       // ScaleTc::nps / measured_nps
  std::vector<game::TimeControl> written;  // each engine's time control as written, before the scaling
};

struct Findings {
  std::vector<EngineFindings> engines;  // one per engine of the config, in its order
  std::optional<ClockScaling> scaling;  // set when the time controls were scaled

  // The header's records: one build per engine from git or with a bench checked, and the scaling with the
  // reference engine's name (the first engine when ScaleTc::engine is empty).
  std::vector<journal::EngineBuild> builds(const config::Config& config) const;
  std::optional<journal::TimeScale> time_scale(const config::Config& config) const;
  // The time controls as the user wrote them, which identify the run whatever a machine measured (empty: the
  // config's own, unscaled).
  const std::vector<game::TimeControl>& written_time_controls() const;
};

}  // namespace arena::provision

#include "provision/findings.h"

namespace arena::provision {

std::vector<journal::EngineBuild> Findings::builds(const config::Config& config) const {
  std::vector<journal::EngineBuild> out;
  for (size_t i = 0; i < engines.size() && i < config.engines.size() && i < config.sources.size(); ++i) {
    const config::EngineSource& s = config.sources[i];
    const EngineFindings& f = engines[i];
    if (!s.from_git() && !f.bench_nodes) continue;
    out.push_back(
        {config.engines[i].name, s.git_repo, s.from_git() ? s.git_ref : "", f.commit, f.dirty, f.bench_nodes});
  }
  return out;
}

std::optional<journal::TimeScale> Findings::time_scale(const config::Config& config) const {
  if (!scaling || !config.scale_tc) return std::nullopt;
  const config::ScaleTc& t = *config.scale_tc;
  const std::string engine = t.engine.empty() && !config.engines.empty() ? config.engines[0].name : t.engine;
  return journal::TimeScale{t.nps, engine, scaling->measured_nps, scaling->factor};
}

const std::vector<game::TimeControl>& Findings::written_time_controls() const {
  static const std::vector<game::TimeControl> none;
  return scaling ? scaling->written : none;
}

}  // namespace arena::provision

#include "csa/league/floodgate_group.h"

#include "csa/league/results_list.h"
#include "output/local_time.h"

namespace arena::csa::league {

FloodgateGroup::FloodgateGroup(FloodgateGroupConfig config) : config_(std::move(config)) {}

void FloodgateGroup::arm(WallTime now) { next_ = config_.schedule.next_after(now); }

RoundPlan FloodgateGroup::pair_round(std::vector<Candidate> waiting, const std::map<std::string, double>& rates,
                                     WallTime now, std::mt19937_64& rng, std::vector<std::string>& log) {
  if (!config_.conf_file.empty()) {
    // shogi-server re-reads the file at each round, so a league's organiser can change it while it runs.
    if (auto reread = Schedule::load(config_.conf_file.string()))
      config_.schedule = std::move(*reread);
    else
      log.push_back(reread.error() + " (the schedule and settings it had are kept)");
  }
  RoundPlan plan = plan_round(std::move(waiting), history_, settings(), rates, rounds_, rng);
  for (const LeftOut& l : plan.left_out) history_.record_bye(l.player.id, rounds_);
  ++rounds_;
  arm(now);
  return plan;
}

bool FloodgateGroup::restore_round(std::string_view line) {
  const std::vector<std::string_view> fields = split_fields(line, '\t');
  if (fields.size() < 4) return false;
  if (!fields[2].empty())
    for (std::string_view id : split_fields(fields[2], ',')) history_.record_bye(std::string(id), rounds_);
  ++rounds_;
  return true;
}

std::string FloodgateGroup::rounds_log_line(const RoundPlan& plan, WallTime now) const {
  std::string line = output::record_time_text(now) + "\t" + std::to_string(rounds_) + "\t";
  for (size_t i = 0; i < plan.left_out.size(); ++i) line += (i ? "," : "") + plan.left_out[i].player.id;
  line += "\t";
  for (size_t i = 0; i < plan.pairs.size(); ++i)
    line += (i ? "," : "") + plan.pairs[i].black.id + " " + plan.pairs[i].white.id;
  return line;
}

void FloodgateGroup::record_game(const std::string& black, const std::string& white, std::optional<bool> black_won) {
  history_.record_game(black, white, black_won);
}

}  // namespace arena::csa::league

#include "spsa/console.h"

#include <boost/json.hpp>
#include <cmath>
#include <cstdio>

#include "config/engine_text.h"
#include "config/spsa_params.h"
#include "config/values.h"
#include "output/json.h"
#include "standings/status_display.h"

namespace arena::spsa {

namespace bj = boost::json;

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : v);
  return buf;
}

std::string signed_fixed(double v, int decimals) {
  std::string s = fixed(v, decimals);
  if (v > 0) s.insert(s.begin(), '+');
  return s;
}

std::string faults_text(const standings::EngineRecord& f) {
  return "crash " + std::to_string(f.crashes) + " stall " + std::to_string(f.stalls) + " time " +
         std::to_string(f.time_losses) + " illegal " + std::to_string(f.illegal_moves);
}


// The engine as it would be played with the tuned values: its configured options, the tuned ones set over them.
game::EngineConfig tuned_engine(game::EngineConfig e, const Tuner& tuner) {
  config::merge_options(e.options, tuner.options(tuner.final_values()));
  return e;
}

}  // namespace

std::string status_line(const Progress& p, const std::vector<stats::SpsaParam>& params) {
  std::string s = "SPSA " + std::to_string(p.pairs_done) + "/" + std::to_string(p.pairs_total) + " pairs |";
  // The first few parameters: a long list does not fit a status line (the live page and the end show them all).
  for (size_t i = 0; i < params.size() && i < 4; ++i) s += " " + params[i].name + " " + fixed(p.theta[i], 1);
  if (params.size() > 4) s += " (+" + std::to_string(params.size() - 4) + ")";
  s += " | last " + std::to_string(p.recent_pairs) + ": " + (p.recent_pairs ? signed_fixed(p.recent_mean, 2) : "-");
  s += " | " + faults_text(p.faults);
  return s;
}

Console::Console(std::vector<stats::SpsaParam> params, standings::StatusDisplay::Options options)
    : params_(std::move(params)), display_(options) {}

void Console::pair_finished(const journal::SpsaPair&, const journal::JournaledGame& first,
                            const journal::JournaledGame& second, const Progress&) {
  display_.changed();
  if (display_.options().quiet) return;
  for (const journal::JournaledGame* g : {&first, &second})
    if (standings::is_fault(g->summary.termination)) display_.print(standings::game_event_text(g->summary));
}

void Console::tick(const Progress& progress) {
  display_.show([&] { return status_line(progress, params_); });
}

void Console::warning(const std::string& text) { display_.warning(text); }
void Console::note(const std::string& text) { display_.note(text); }

void Console::finish(const Progress& progress) { display_.finish(status_line(progress, params_)); }

std::string tuned_params_file(const Tuner& tuner) {
  std::string out = "# Tuned by shogi-arena spsa: START is the tuned value (name,type,start,min,max,c_end,r_end)\n";
  const std::vector<double> values = tuner.final_values();
  for (size_t i = 0; i < tuner.params().size(); ++i) {
    // The value the engine is sent: whole for an int parameter and for any parameter of a spin option (a float
    // theta there would be a decimal the spin refuses when params=FILE sets it), theta as it is otherwise.
    out += config::spsa_param_line(tuner.params()[i], values[i]) + "\n";
  }
  return out;
}

std::string theta_text(const Tuner& t) {
  std::string out;
  size_t width = 4;
  for (const stats::SpsaParam& q : t.params()) width = std::max(width, q.name.size());
  const std::vector<double> final_values = t.final_values();
  for (size_t i = 0; i < t.params().size(); ++i) {
    const stats::SpsaParam& q = t.params()[i];
    out += "  " + q.name + std::string(width - q.name.size(), ' ') + "  start " + config::number_text(q.start) +
           "  ->  " + fixed(t.theta()[i], 2) + "  (sent as " + config::number_text(final_values[i]) + "; range " +
           config::number_text(q.min) + ".." + config::number_text(q.max) + ")\n";
  }
  return out;
}

std::string tuned_engine_text(const game::EngineConfig& engine, const Tuner& tuner) {
  const game::EngineConfig tuned = tuned_engine(engine, tuner);
  std::string out = "\nThe tuned engine:\n  --engine";
  for (const std::string& token : config::engine_tokens(tuned)) out.append(" ").append(config::shell_quote(token));
  out += "\n\nIn a YAML config (under engines:):\n";
  const std::string yaml = config::engine_yaml_entry(tuned);
  for (size_t at = 0; at < yaml.size();) {
    const size_t nl = yaml.find('\n', at);
    out += "  " + yaml.substr(at, nl - at) + "\n";
    at = nl == std::string::npos ? yaml.size() : nl + 1;
  }
  return out;
}

std::string applied_text(const journal::JournalContents& contents, const game::EngineConfig& engine) {
  if (!contents.header || !contents.header->spsa) return {};
  const journal::SpsaSpec& spec = *contents.header->spsa;
  Tuner tuner(spec.params, spec.schedule, spec.seed, spec.whole_all());
  for (const journal::SpsaPair& p : contents.spsa_pairs)
    if (p.theta) tuner.restore(*p.theta);
  return "\nSPSA of " + spec.engine + ": " + std::to_string(contents.spsa_pairs.size()) + " of " +
         std::to_string(spec.schedule.iterations) + " pairs applied\n" + theta_text(tuner) +
         tuned_engine_text(engine, tuner);
}

std::string summary_text(const Run& run, const Summary& sum) {
  const Progress p = run.progress();
  const Tuner& t = run.tuner();
  std::string out = "\nSPSA of " + run.config().engines[0].name + ": " + std::to_string(p.pairs_done) + " of " +
                    std::to_string(p.pairs_total) + " pairs (" + std::to_string(sum.pairs_played) + " this run, " +
                    std::to_string(sum.resumed_pairs) + " resumed), " + run::to_string(sum.end) + "\n";
  out += theta_text(t);
  out += "Mean result of the last " + std::to_string(p.recent_pairs) +
         " pairs (theta+ wins minus theta- wins): " + (p.recent_pairs ? signed_fixed(p.recent_mean, 3) : "-") + "\n";
  out += "Faults: " + faults_text(p.faults) + "\n";
  if (sum.elapsed_s > 0 && sum.pairs_played > 0) {
    out += "Speed: " + fixed(3600.0 * double(sum.pairs_played) / sum.elapsed_s, 0) + " pairs an hour";
    if (sum.runner_cpu_s >= 0)
      out += "; the runner's own CPU " + fixed(1000.0 * sum.runner_cpu_s / double(sum.pairs_played), 2) + " ms a pair";
    out += "\n";
  }
  out += tuned_engine_text(run.config().engines[0], t);
  if (!sum.params_file.empty())
    out += "\nParams file with the tuned values as START: " + sum.params_file + " (as an engine's options: " +
           config::shell_quote("params=" + sum.params_file) + ")\n";
  out += "Journal: " + sum.journal + "\n";
  if (sum.end == RunEnd::Interrupted) out += "Interrupted: continue with the same command and --resume.\n";
  return out;
}

std::string summary_json(const Run& run, const Summary& sum) {
  const Progress p = run.progress();
  const Tuner& t = run.tuner();
  bj::array params;
  const std::vector<double> final_values = t.final_values();
  for (size_t i = 0; i < t.params().size(); ++i)
    params.emplace_back(bj::object{{"name", t.params()[i].name},
                                   {"start", t.params()[i].start},
                                   {"theta", t.theta()[i]},
                                   {"value", final_values[i]}});
  bj::object o;
  o.emplace("type", "spsa");
  o.emplace("end", run::to_string(sum.end));
  o.emplace("error", sum.error);
  o.emplace("exit_code", sum.exit_code);
  o.emplace("pairs_done", p.pairs_done);
  o.emplace("pairs_total", p.pairs_total);
  o.emplace("pairs_played", sum.pairs_played);
  o.emplace("resumed_pairs", sum.resumed_pairs);
  o.emplace("params", std::move(params));
  o.emplace("recent_mean", p.recent_mean);
  o.emplace("recent_pairs", p.recent_pairs);
  o.emplace("faults", bj::object{{"crashes", p.faults.crashes},
                                 {"stalls", p.faults.stalls},
                                 {"time_losses", p.faults.time_losses},
                                 {"illegal_moves", p.faults.illegal_moves}});
  bj::array tokens;
  for (const std::string& token : config::engine_tokens(tuned_engine(run.config().engines[0], t)))
    tokens.emplace_back(token);
  o.emplace("engine_tokens", std::move(tokens));
  o.emplace("params_file", sum.params_file);
  o.emplace("journal", sum.journal);
  o.emplace("elapsed_s", sum.elapsed_s);
  o.emplace("runner_cpu_s", sum.runner_cpu_s);
  return json::serialize(o);
}

}  // namespace arena::spsa

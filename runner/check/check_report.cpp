#include "check/check_report.h"

#include <boost/json.hpp>
#include <cstdio>

#include "config/engine_text.h"
#include "output/json.h"
#include "usi/usi_option.h"

namespace arena::check {

namespace {

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace

std::string item_text(const CheckItem& item) {
  std::string line =
      "  " + pad(std::string(to_string(item.verdict)), 6) + pad(item.id, 24) + pad(item.title, 34) + item.figure;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  line += "\n";
  if (!item.detail.empty() && item.verdict != Verdict::Pass) line += "        -> " + item.detail + "\n";
  return line;
}

game::EngineConfig recommended_config(const game::EngineConfig& engine, const Recommendation& keys) {
  game::EngineConfig c = engine;
  if (keys.send_inc) c.send_increments = *keys.send_inc;
  if (keys.swap_btime_wtime) c.swap_btime_wtime = *keys.swap_btime_wtime;
  if (keys.startup_timeout_ms) c.startup_timeout = std::chrono::milliseconds(*keys.startup_timeout_ms);
  if (keys.margin_ms) c.margin_ms = *keys.margin_ms;
  for (const auto& [name, value] : keys.options) {
    bool replaced = false;
    for (auto& o : c.options)
      if (usi::iequals(o.first, name)) o.second = value, replaced = true;
    if (!replaced) c.options.push_back({name, value});
  }
  return c;
}

std::string summary_text(const CheckReport& r, const game::EngineConfig& engine) {
  const game::EngineConfig rec = recommended_config(engine, r.keys);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", r.seconds);
  std::string s = "\n";
  s += std::to_string(r.items.size()) + " checks in " + seconds + " s: ";
  s += std::to_string(r.failures()) + " failed, " + std::to_string(r.warnings()) + " warnings.\n";
  const std::string who = r.engine_name.empty() ? engine.command : r.engine_name;
  std::string safe, unsafe;  // the kinds of clock measured, by whether it keeps its time there
  for (const TimeProfile& p : r.profiles) {
    const bool keeps = p.verdict == ProfileVerdict::Safe || p.verdict == ProfileVerdict::UnderUses;
    std::string& list = keeps ? safe : unsafe;
    list += (list.empty() ? "" : ", ") + p.kind.name + " (" + p.kind.tc.to_string() + ")";
  }
  if (!r.profiles.empty()) {
    s += "\nTime profiles: the time used each move, as a share of the time it was allowed (! over it):\n";
    for (const TimeProfile& p : r.profiles)
      s += "  " + pad(p.kind.name + " " + p.kind.tc.to_string(), 44) + pad(std::string(to_string(p.verdict)), 11) +
           time_curve(p) + "\n";
    s += "\n";
  }
  if (r.exit_code() == 0 && !unsafe.empty())
    s += who + (safe.empty() ? " loses on time at every clock measured: " + unsafe + ".\n"
                             : " keeps its time only at " + safe + "; it loses on time at " + unsafe + ".\n");
  else if (r.exit_code() == 0)
    s += who + " can play timed games reliably" + std::string(r.warnings() ? " with the settings below" : "") + ".\n";
  else if (r.exit_code() == 2)
    s += "Interrupted: the checks that did not run decide nothing; run the check again to the end.\n";
  else
    s += who + " cannot play timed games reliably, even with the settings below (see FAIL above).\n";
  std::string line = "--engine";
  for (const std::string& t : config::engine_tokens(rec)) line.append(" ").append(config::shell_quote(t));
  s += "\nRecommended engine settings:\n  ";
  s += line;
  s += "\n\nIn a YAML config (under engines:):\n";
  std::string yaml = config::engine_yaml_entry(rec);
  size_t at = 0;
  while (at < yaml.size()) {
    size_t nl = yaml.find('\n', at);
    s += "  " + yaml.substr(at, nl - at + 1);
    at = nl + 1;
  }
  if (!r.keys.avoid.empty()) {
    std::string avoid;
    for (const std::string& a : r.keys.avoid)
      if (avoid.find(a) == std::string::npos) avoid += (avoid.empty() ? "" : ", ") + a;
    s += "\nDo not use with it: " + avoid + "\n";
  }
  return s;
}

std::string report_json(const CheckReport& r, const game::EngineConfig& engine) {
  namespace bj = boost::json;
  const game::EngineConfig rec = recommended_config(engine, r.keys);
  bj::object o;
  o["engine"] = r.engine_name;
  o["command"] = engine.command;
  o["id"] = bj::object{{"name", r.identity.name}, {"author", r.identity.author}};
  bj::array checks;
  for (const CheckItem& i : r.items)
    checks.push_back(bj::object{{"id", i.id},
                                {"title", i.title},
                                {"verdict", i.verdict == Verdict::Fail ? "fail" : to_string(i.verdict)},
                                {"figure", i.figure},
                                {"detail", i.detail}});
  o["checks"] = std::move(checks);
  bj::object keys;
  if (r.keys.send_inc) keys["send_inc"] = *r.keys.send_inc;
  if (r.keys.swap_btime_wtime) keys["swap_btime_wtime"] = *r.keys.swap_btime_wtime;
  if (r.keys.startup_timeout_ms) keys["startup_timeout_ms"] = *r.keys.startup_timeout_ms;
  if (r.keys.margin_ms) keys["margin_ms"] = *r.keys.margin_ms;
  bj::object options;
  for (const auto& [name, value] : r.keys.options) options[name] = value;
  if (!options.empty()) keys["options"] = std::move(options);
  o["recommended_keys"] = std::move(keys);
  bj::array tokens, avoid;
  for (const std::string& t : config::engine_tokens(rec)) tokens.push_back(bj::string(t));
  for (const std::string& a : r.keys.avoid) avoid.push_back(bj::string(a));
  o["engine_tokens"] = std::move(tokens);
  o["yaml"] = config::engine_yaml_entry(rec);
  o["avoid"] = std::move(avoid);
  bj::array profiles;
  for (const TimeProfile& p : r.profiles) {
    bj::array moves;
    for (const ProfileMove& m : p.moves) moves.push_back(bj::array{m.remaining_ms, m.allowed_ms, m.used_ms});
    bj::object one{{"id", p.kind.id},
                   {"kind", p.kind.name},
                   {"tc", p.kind.tc.to_string()},
                   {"verdict", to_string(p.verdict)},
                   {"flag_move", p.flag_move ? bj::value(*p.flag_move) : bj::value(nullptr)},
                   {"left_ms", p.left_ms},
                   {"mean_share", p.mean_share},
                   {"least_spare_ms", p.least_spare_ms},
                   {"byoyomi_used_ms", p.byoyomi_used_ms},
                   {"margin_ms", p.margin_ms},
                   {"seconds", p.seconds},
                   {"moves_fields", bj::array{"remaining_ms", "allowed_ms", "used_ms"}},
                   {"moves", std::move(moves)}};
    profiles.push_back(std::move(one));
  }
  o["time_profiles"] = std::move(profiles);
  o["failures"] = r.failures();
  o["warnings"] = r.warnings();
  o["seconds"] = r.seconds;
  o["exit_code"] = r.exit_code();
  return json::serialize(o);
}

}  // namespace arena::check

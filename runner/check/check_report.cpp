#include "check/check_report.h"

#include <boost/json.hpp>
#include <cstdio>

#include "output/json.h"
#include "usi/usi_option.h"

namespace arena::check {

namespace {

std::string pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

bool plain(const std::string& text, std::string_view extra) {
  if (text.empty()) return false;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("_./-+").find(c) != std::string_view::npos ||
                    extra.find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// A YAML scalar: plain when it cannot be misread (not a bool, number-looking text is fine as a string value for
// our keys), else double-quoted.
std::string yaml_scalar(const std::string& text) {
  if (plain(text, "") && text != "true" && text != "false" && text != "null" && text.front() != '-') return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string bool_text(bool b) { return b ? "true" : "false"; }

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

std::string shell_quote(const std::string& token) {
  if (plain(token, "=:,@%")) return token;
  std::string out = "'";
  for (char c : token) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::vector<std::string> engine_tokens(const game::EngineConfig& e) {
  const game::EngineConfig defaults;
  std::vector<std::string> t;
  t.push_back("cmd=" + e.command);
  if (!e.name.empty()) t.push_back("name=" + e.name);
  for (const std::string& a : e.args) t.push_back("arg=" + a);
  if (!e.working_dir.empty()) t.push_back("dir=" + e.working_dir);
  for (const auto& [name, value] : e.options) t.push_back("option." + name + "=" + value);
  if (e.ponder) t.push_back("ponder");
  if (e.send_increments != defaults.send_increments) t.push_back("send_inc=" + bool_text(e.send_increments));
  if (e.swap_btime_wtime != defaults.swap_btime_wtime) t.push_back("swap_btime_wtime=" + bool_text(e.swap_btime_wtime));
  if (e.startup_timeout != defaults.startup_timeout)
    t.push_back("startup_timeout_ms=" + std::to_string(e.startup_timeout.count()));
  if (e.margin_ms) t.push_back("margin_ms=" + std::to_string(*e.margin_ms));
  return t;
}

std::string yaml_entry(const game::EngineConfig& e) {
  const game::EngineConfig defaults;
  std::string y;
  auto key = [&](const std::string& k, const std::string& v) { y += (y.empty() ? "- " : "  ") + k + ": " + v + "\n"; };
  if (!e.name.empty()) key("name", yaml_scalar(e.name));
  key("cmd", yaml_scalar(e.command));
  if (!e.args.empty()) {
    std::string list;
    for (const std::string& a : e.args) list += (list.empty() ? "" : ", ") + yaml_scalar(a);
    key("args", "[" + list + "]");
  }
  if (!e.working_dir.empty()) key("dir", yaml_scalar(e.working_dir));
  if (e.ponder) key("ponder", "true");
  if (e.send_increments != defaults.send_increments) key("send_inc", bool_text(e.send_increments));
  if (e.swap_btime_wtime != defaults.swap_btime_wtime) key("swap_btime_wtime", bool_text(e.swap_btime_wtime));
  if (e.startup_timeout != defaults.startup_timeout)
    key("startup_timeout_ms", std::to_string(e.startup_timeout.count()));
  if (e.margin_ms) key("margin_ms", std::to_string(*e.margin_ms));
  if (!e.options.empty()) {
    key("options", "");
    y.pop_back();
    while (!y.empty() && y.back() == ' ') y.pop_back();
    y += "\n";
    for (const auto& [name, value] : e.options) y += "    " + yaml_scalar(name) + ": " + yaml_scalar(value) + "\n";
  }
  return y;
}

std::string summary_text(const CheckReport& r, const game::EngineConfig& engine) {
  const game::EngineConfig rec = recommended_config(engine, r.keys);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", r.seconds);
  std::string s = "\n";
  s += std::to_string(r.items.size()) + " checks in " + seconds + " s: ";
  s += std::to_string(r.failures()) + " failed, " + std::to_string(r.warnings()) + " warnings.\n";
  const std::string who = r.engine_name.empty() ? engine.command : r.engine_name;
  if (r.exit_code() == 0)
    s += who + " can play timed games reliably" + std::string(r.warnings() ? " with the settings below" : "") + ".\n";
  else
    s += who + " cannot play timed games reliably, even with the settings below (see FAIL above).\n";
  std::string line = "--engine";
  for (const std::string& t : engine_tokens(rec)) line.append(" ").append(shell_quote(t));
  s += "\nRecommended engine settings:\n  ";
  s += line;
  s += "\n\nIn a YAML config (under engines:):\n";
  std::string yaml = yaml_entry(rec);
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
  for (const std::string& t : engine_tokens(rec)) tokens.push_back(bj::string(t));
  for (const std::string& a : r.keys.avoid) avoid.push_back(bj::string(a));
  o["engine_tokens"] = std::move(tokens);
  o["yaml"] = yaml_entry(rec);
  o["avoid"] = std::move(avoid);
  o["failures"] = r.failures();
  o["warnings"] = r.warnings();
  o["seconds"] = r.seconds;
  o["exit_code"] = r.exit_code();
  return json::serialize(o);
}

}  // namespace arena::check

#include "config/engine_text.h"

#include <string_view>

namespace arena::config {

namespace {

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

std::string engine_yaml_entry(const game::EngineConfig& e) {
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

}  // namespace arena::config

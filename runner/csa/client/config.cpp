#include "csa/client/config.h"

#include <unistd.h>

#include <charconv>
#include <cstring>
#include <fstream>
#include <set>

#include <yaml-cpp/yaml.h>

#include "config/engine_keys.h"

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

std::expected<int64_t, std::string> parse_int(std::string_view key, std::string_view text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    return Error(std::string(key) + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                 ", got '" + std::string(text) + "'");
  return v;
}

// Seconds with an optional decimal part, returned in milliseconds.
std::expected<std::chrono::milliseconds, std::string> parse_seconds(std::string_view key, std::string_view text,
                                                                    double lo, double hi) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !(v >= lo && v <= hi))
    return Error(std::string(key) + ": expected seconds from " + std::to_string(int64_t(lo)) + " to " +
                 std::to_string(int64_t(hi)) + ", got '" + std::string(text) + "'");
  return std::chrono::milliseconds(int64_t(v * 1000 + 0.5));
}

std::expected<bool, std::string> parse_bool(std::string_view key, std::string_view text) {
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  return Error(std::string(key) + ": expected true or false, got '" + std::string(text) + "'");
}

// shogi-server accepts identifiers of letters, digits, _ @ - . (login.rb); the CSA text allows fewer.
bool good_identifier(std::string_view s) {
  if (s.empty() || s.size() > 32) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '@' || c == '.')) return false;
  return true;
}

bool has_space(std::string_view s) { return s.find_first_of(" \t\r\n") != std::string_view::npos; }

}  // namespace

std::expected<void, std::string> set_config_value(CsaClientConfig& c, std::string_view key, std::string_view value,
                                                  const std::string& base_dir) {
  auto str = [&](std::string& dst) -> std::expected<void, std::string> {
    dst = std::string(value);
    return {};
  };
  auto integer = [&](auto& dst, int64_t lo, int64_t hi) -> std::expected<void, std::string> {
    auto v = parse_int(key, value, lo, hi);
    if (!v) return Error(v.error());
    dst = static_cast<std::remove_reference_t<decltype(dst)>>(*v);
    return {};
  };
  auto boolean = [&](bool& dst) -> std::expected<void, std::string> {
    auto v = parse_bool(key, value);
    if (!v) return Error(v.error());
    dst = *v;
    return {};
  };
  auto seconds = [&](std::chrono::milliseconds& dst, double lo, double hi) -> std::expected<void, std::string> {
    auto v = parse_seconds(key, value, lo, hi);
    if (!v) return Error(v.error());
    dst = *v;
    return {};
  };

  if (key == "server.host") return str(c.host);
  if (key == "server.port") return integer(c.port, 1, 65535);
  if (key == "server.mode") {
    if (value == "csa")
      c.mode = LoginMode::Csa;
    else if (value == "x1")
      c.mode = LoginMode::X1;
    else
      return Error("server.mode: expected csa or x1, got '" + std::string(value) + "'");
    return {};
  }
  if (key == "server.user") return str(c.user);
  if (key == "server.password") return str(c.password);
  if (key == "server.game_name") return str(c.game_name);
  if (key == "server.trip") return str(c.trip);
  if (key == "server.turn") {
    if (value == "+" || value == "black")
      c.turn = '+';
    else if (value == "-" || value == "white")
      c.turn = '-';
    else if (value == "*" || value == "any")
      c.turn = '*';
    else
      return Error("server.turn: expected + (black), - (white) or * (any), got '" + std::string(value) + "'");
    return {};
  }
  if (key == "server.challenge") return boolean(c.challenge);
  if (key == "server.connect_timeout_s") return seconds(c.connect_timeout, 0.1, 600);
  if (key == "server.keep_alive_s") return integer(c.keep_alive_s, 0, 3600);  // validate() names the minimum
  if (key == "server.reconnect_attempts") return integer(c.reconnect_attempts, 0, 1000000);
  if (key == "server.reconnect_initial_s") return seconds(c.reconnect_initial, 0, 3600);
  if (key == "server.reconnect_max_s") return seconds(c.reconnect_max, 0, 86400);

  if (key.starts_with("engine.")) {
    // One table of engine keys for the tournaments and this client (config/engine_keys.h).
    std::string engine_key(key.substr(7));
    if (engine_key.starts_with("options.")) engine_key = "option." + engine_key.substr(8);
    config::EngineSettings settings;
    if (auto ok = config::set_engine_key(settings, engine_key, value, config::InCsaClient, base_dir); !ok)
      return Error(std::string(key) + ": " + ok.error());
    config::apply_engine_settings(settings, c.engine);
    return {};
  }

  if (key == "play.games") return integer(c.games, 0, 1000000000);
  if (key == "play.margin_ms") return integer(c.margin_ms, 0, 600000);
  if (key == "play.restart_engine") return boolean(c.restart_engine);
  if (key == "play.floodgate_comments") return boolean(c.floodgate_comments);
  if (key == "play.resign_on_stop") return boolean(c.resign_on_stop);

  if (key == "output.dir") return str(c.output_dir);
  if (key == "output.log") return str(c.log_file);
  if (key == "output.status_line") return boolean(c.status_line);

  return Error("unknown key '" + std::string(key) + "'");
}

std::expected<void, std::string> validate(const CsaClientConfig& c) {
  if (c.host.empty()) return Error("server.host: missing");
  if (!good_identifier(c.user))
    return Error("server.user: expected 1-32 letters, digits, _ - @ . (got '" + c.user + "')");
  if (c.password.empty() && c.game_name.empty()) return Error("server: give game_name (and trip) or password");
  if (c.mode == LoginMode::X1 && c.game_name.empty())
    return Error("server.game_name: x1 mode needs the game to ask for");
  if (c.mode == LoginMode::X1 && c.password.empty() && c.trip.empty())
    return Error("server.password: x1 mode needs a password (or a trip)");
  if (!c.game_name.empty() && !good_identifier(c.game_name))
    return Error("server.game_name: expected 1-32 letters, digits, _ - @ . (got '" + c.game_name + "')");
  if (has_space(c.password) || has_space(c.trip) || c.trip.find(',') != std::string::npos)
    return Error("server.password / server.trip: no spaces (and no comma in the trip)");
  if (login_password(c).size() > 64) return Error("server: the login password is too long");
  if (c.keep_alive_s < 30)
    return Error("server.keep_alive_s: must be at least 30 (the protocol forbids empty lines within 30 s), got " +
                 std::to_string(c.keep_alive_s));
  if (c.reconnect_max < c.reconnect_initial) return Error("server.reconnect_max_s: must be >= reconnect_initial_s");
  if (c.margin_ms < 0) return Error("play.margin_ms: must be >= 0");
  if (c.games < 0) return Error("play.games: must be >= 0 (0 = until stopped)");
  if (c.output_dir.empty()) return Error("output.dir: missing");
  for (const auto& [name, value] : c.engine.options)
    if (name.empty()) return Error("engine.options: an option needs a name");
  return {};
}

std::expected<void, std::string> load_config_file(CsaClientConfig& c, const std::filesystem::path& path) {
  std::string file = path.string();
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    return Error(file + ": cannot read the file");
  } catch (const YAML::Exception& e) {
    return Error(file + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML (" + e.msg + ")");
  }
  auto at = [&](const YAML::Node& n) { return file + ":" + std::to_string(n.Mark().line + 1) + ": "; };
  std::set<std::string> set_in_file;  // only paths given in this file are taken relative to it
  const std::string base = std::filesystem::absolute(path).parent_path().string();
  if (!root.IsNull() && !root.IsMap()) return Error(at(root) + "expected sections server:, engine:, play:, output:");

  if (root.IsMap())
    for (const auto& section : root) {
      std::string name = section.first.as<std::string>();
      if (name != "server" && name != "engine" && name != "play" && name != "output")
        return Error(at(section.first) + "unknown key '" + name + "' (expected server, engine, play or output)");
      if (section.second.IsNull()) continue;
      if (!section.second.IsMap()) return Error(at(section.second) + name + ": expected a map of settings");
      for (const auto& item : section.second) {
        std::string key = name + "." + item.first.as<std::string>();
        const YAML::Node& v = item.second;
        if (key == "engine.args") {
          if (v.IsNull()) {
            c.engine.args.clear();
            continue;
          }
          if (!v.IsSequence()) return Error(at(v) + "engine.args: expected a list of arguments");
          c.engine.args.clear();
          for (const auto& a : v) {
            if (!a.IsScalar()) return Error(at(a) + "engine.args: expected plain arguments");
            c.engine.args.push_back(a.Scalar());
          }
          continue;
        }
        if (key == "engine.options") {
          if (v.IsNull()) continue;
          if (!v.IsMap()) return Error(at(v) + "engine.options: expected a map of option name: value");
          for (const auto& o : v) {
            if (!o.second.IsScalar()) return Error(at(o.second) + "engine.options: expected a plain value");
            auto ok = set_config_value(c, "engine.options." + o.first.as<std::string>(), o.second.Scalar(), base);
            if (!ok) return Error(at(o.first) + ok.error());
          }
          continue;
        }
        if (!v.IsScalar()) return Error(at(v) + key + ": expected a single value");
        // Engine paths are taken relative to the file by the engine keys themselves; the others below.
        auto ok = set_config_value(c, key, v.Scalar(), key.starts_with("engine.") ? base : std::string());
        if (!ok) return Error(at(item.first) + ok.error());
        set_in_file.insert(key);
      }
    }
  // Paths in a file are relative to the file's directory, as in the tournament configs; a bare engine command
  // (no '/') is looked up on PATH when the engine starts.
  auto rebase = [&](std::string& p, std::string_view key) {
    if (!p.empty() && std::filesystem::path(p).is_relative() && set_in_file.count(std::string(key)))
      p = (std::filesystem::path(base) / p).lexically_normal().string();
  };
  rebase(c.output_dir, "output.dir");
  rebase(c.log_file, "output.log");
  return {};
}

std::expected<CsaClientConfig, std::string> load_csa_client_config(const std::filesystem::path& path) {
  CsaClientConfig c;
  if (auto ok = load_config_file(c, path); !ok) return Error(ok.error());
  if (auto ok = validate(c); !ok) return Error(path.string() + ": " + ok.error());
  return c;
}

std::string login_password(const CsaClientConfig& c) {
  if (c.mode == LoginMode::X1) return (c.password.empty() ? c.trip : c.password) + " x1";
  if (!c.password.empty()) return c.password;
  std::string p = c.game_name;
  if (c.turn == '+') p += "-B";
  if (c.turn == '-') p += "-W";
  if (!c.trip.empty()) p += "," + c.trip;
  return p;
}

std::string login_secret(const CsaClientConfig& c) {
  if (!c.password.empty()) return c.password;
  return c.trip;
}

std::string x1_game_command(const CsaClientConfig& c) {
  return std::string(c.challenge ? "%%CHALLENGE " : "%%GAME ") + c.game_name + " " + c.turn;
}

std::expected<std::string, std::string> builtin_engine_path() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return Error("cannot locate the running binary to find the built-in engine; set engine.command");
  std::filesystem::path dir = self.parent_path();
  std::filesystem::path candidates[] = {dir / "shogi-arena-engine", dir.parent_path() / "bin" / "shogi-arena-engine"};
  for (const auto& p : candidates)
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  return Error("the built-in engine was not found (looked for " + candidates[0].string() + " and " +
               candidates[1].string() + "); build it or set engine.command");
}

}  // namespace arena::csa

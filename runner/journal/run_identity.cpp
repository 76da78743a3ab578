#include "journal/run_identity.h"

#include <openssl/evp.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "output/json.h"
#include "rules/game_end.h"

namespace arena::journal {

namespace bj = boost::json;

namespace {

struct MdContextFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using MdContext = std::unique_ptr<EVP_MD_CTX, MdContextFree>;

std::string hex(const unsigned char* bytes, unsigned size) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (unsigned i = 0; i < size; ++i) out += digits[bytes[i] >> 4], out += digits[bytes[i] & 15];
  return out;
}

bj::object engine_settings(const game::EngineConfig& e) {
  bj::object o;
  o.emplace("name", e.name);
  bj::array args;
  for (const std::string& a : e.args) args.emplace_back(a);
  o.emplace("args", std::move(args));
  bj::array options;
  for (const auto& [name, value] : e.options) options.emplace_back(bj::array{bj::string(name), bj::string(value)});
  o.emplace("options", std::move(options));
  o.emplace("tc", e.time_control.to_string());
  o.emplace("ponder", e.ponder);
  o.emplace("send_inc", e.send_increments);
  o.emplace("swap_btime_wtime", e.swap_btime_wtime);
  // Only when set: the settings of runs without it (and their hashes) stay as they were.
  if (e.margin_ms) o.emplace("margin_ms", *e.margin_ms);
  return o;
}

bj::object settings_of(const config::Config& c, const std::vector<game::TimeControl>& written) {
  bj::object o;  // members in a fixed order: the text is hashed
  o.emplace("type", config::to_string(c.type));
  o.emplace("rounds", c.rounds);
  o.emplace("pair", c.pair);
  bj::object openings;
  openings.emplace("position", c.openings.position);
  openings.emplace("order", config::to_string(c.openings.order));
  openings.emplace("seed", c.openings.seed);
  openings.emplace("plies", c.openings.plies);
  // Only when given, so that the runs of earlier versions keep their settings hash (and stay resumable).
  if (c.openings.eval_window) openings.emplace("eval_window", *c.openings.eval_window);
  if (c.openings.balance) openings.emplace("balance", *c.openings.balance);
  o.emplace("openings", std::move(openings));
  const game::GameOptions& g = c.game;
  bj::object game;
  game.emplace("max_plies", g.max_plies);
  game.emplace("margin_ms", g.margin_ms);
  game.emplace("stall_timeout_ms", g.stall_timeout_ms);
  game.emplace("untimed_move_limit_ms", g.untimed_move_limit_ms);
  game.emplace("entering_king", shogi::to_string(g.entering_king));
  const game::Adjudication& a = g.adjudication;
  bj::object adjudication;
  adjudication.emplace("resign", a.resign_enabled ? bj::value(bj::array{a.resign_score_cp, a.resign_moves}) : nullptr);
  adjudication.emplace("draw",
                       a.draw_enabled ? bj::value(bj::array{a.draw_score_cp, a.draw_moves, a.draw_min_ply}) : nullptr);
  game.emplace("adjudication", std::move(adjudication));
  o.emplace("game", std::move(game));
  o.emplace("restart", config::to_string(c.restart));
  o.emplace("replay_broken_pairs", c.replay_broken_pairs);
  o.emplace("max_replays", c.max_replays);
  o.emplace("via_csa_server", c.via_csa_server);
  if (c.type == config::TournamentType::Sprt)
    o.emplace("sprt", bj::array{c.sprt.elo0, c.sprt.elo1, c.sprt.alpha, c.sprt.beta,
                                c.sprt.model == stats::EloModel::Logistic ? "logistic" : "normalized"});
  if (c.type == config::TournamentType::Spsa) {
    // What the tuning depends on: a resumed run with other parameters or another seed is another run.
    bj::array params;
    for (const stats::SpsaParam& p : c.spsa.params)
      params.emplace_back(bj::array{p.name, p.integer ? "int" : "float", p.start, p.min, p.max, p.c_end, p.r_end});
    const stats::SpsaSchedule& s = c.spsa.schedule;
    o.emplace("spsa", bj::object{{"params", std::move(params)},
                                 {"pairs", s.iterations},
                                 {"alpha", s.alpha},
                                 {"gamma", s.gamma},
                                 {"a_ratio", s.a_ratio},
                                 {"seed", c.spsa.seed}});
  }
  bj::array engines;
  for (size_t i = 0; i < c.engines.size(); ++i) {
    bj::object e = engine_settings(c.engines[i]);
    // Scaled to the machine: the time control as written is what the run is, whatever a node measured.
    if (i < written.size()) e["tc"] = written[i].to_string();
    engines.emplace_back(std::move(e));
  }
  if (c.scale_tc) o.emplace("scale_tc_nps", c.scale_tc->nps);
  o.emplace("engines", std::move(engines));
  return o;
}

// The path to the first place where two JSON values differ, with both values: "engines[1].tc: "10+0.1" now,
// "5+0.05" in the journal".
std::string first_difference(const bj::value& was, const bj::value& now, const std::string& path,
                             const std::string& was_name) {
  if (was.is_object() && now.is_object()) {
    for (const auto& member : now.get_object()) {
      const std::string key = path.empty() ? std::string(member.key()) : path + "." + std::string(member.key());
      const bj::value* old = was.get_object().if_contains(member.key());
      if (!old) return key + ": set now, absent in " + was_name;
      if (std::string d = first_difference(*old, member.value(), key, was_name); !d.empty()) return d;
    }
    for (const auto& member : was.get_object())
      if (!now.get_object().contains(member.key()))
        return (path.empty() ? "" : path + ".") + std::string(member.key()) + ": in " + was_name + ", absent now";
    return {};
  }
  if (was.is_array() && now.is_array() && was.get_array().size() == now.get_array().size()) {
    for (size_t i = 0; i < now.get_array().size(); ++i)
      if (std::string d =
              first_difference(was.get_array()[i], now.get_array()[i], path + "[" + std::to_string(i) + "]", was_name);
          !d.empty())
        return d;
    return {};
  }
  if (was == now) return {};
  return (path.empty() ? "the settings" : path) + ": " + json::serialize(now) + " now, " + json::serialize(was) +
         " in " + was_name;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) return {};
  return hex(digest, size);
}

std::expected<std::string, std::string> sha256_file(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) return std::unexpected(path + ": cannot read it to take its sha256: " + std::strerror(errno));
  MdContext ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    return std::unexpected(path + ": libcrypto cannot compute sha256");
  std::array<unsigned char, 1 << 16> buffer;
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0)
    if (EVP_DigestUpdate(ctx.get(), buffer.data(), n) != 1) return std::unexpected(path + ": sha256 failed");
  if (std::ferror(file.get())) return std::unexpected(path + ": read error while taking its sha256");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) return std::unexpected(path + ": sha256 failed");
  return hex(digest, size);
}

std::expected<RunIdentity, std::string> make_run_identity(const config::Config& c,
                                                          const std::vector<game::TimeControl>& written) {
  RunIdentity id;
  id.settings = json::serialize(settings_of(c, written));
  id.settings_sha256 = sha256_hex(id.settings);
  for (const game::EngineConfig& e : c.engines) {
    auto digest = sha256_file(e.command);
    if (!digest) return std::unexpected("engine '" + e.name + "': " + digest.error());
    id.files.push_back({e.name, e.command, *digest});
  }
  if (!c.openings.file.empty() && c.openings.position.empty()) {
    auto digest = sha256_file(c.openings.file);
    if (!digest) return std::unexpected("openings: " + digest.error());
    id.files.push_back({"openings", c.openings.file, *digest});
  }
  return id;
}

std::string identity_difference(const RunIdentity& recorded, const RunIdentity& now, const std::string& recorded_name) {
  for (const FileDigest& f : now.files) {
    const std::string what = f.role == "openings" ? "the openings file" : "engine '" + f.role + "': its binary";
    const FileDigest* old = nullptr;
    for (const FileDigest& r : recorded.files)
      if (r.role == f.role) old = &r;
    if (!old) return what + " " + f.path + " is not in the header of " + recorded_name + " (another engine list?)";
    if (old->sha256 != f.sha256)
      return what + " " + f.path + " has sha256 " + f.sha256.substr(0, 12) + "... but " + recorded_name + "'s was " +
             old->sha256.substr(0, 12) + "... (" + old->path + "): another build";
  }
  if (recorded.settings_sha256 != now.settings_sha256) {
    auto was = json::parse(recorded.settings), is = json::parse(now.settings);
    std::string where = was && is ? first_difference(*was, *is, "", recorded_name) : std::string();
    return "the settings differ" + (where.empty() ? std::string() : " at " + where);
  }
  return {};
}

}  // namespace arena::journal

// The YAML form of the configuration. Every key is checked: an unknown key, a wrong type or a bad value is an
// error naming file:line:column, the key's path and what was expected.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

#include "config/engine_keys.h"
#include "config/load.h"
#include "config/spsa_params.h"
#include "config/values.h"

namespace arena::config {

namespace {

// The key in `keys` closest to `key` by edit distance, if it is close enough to be a likely typo.
std::string suggestion(const std::string& key, const std::vector<std::string>& keys) {
  std::string best;
  size_t best_d = 3;
  for (const std::string& k : keys) {
    std::vector<size_t> prev(k.size() + 1), cur(k.size() + 1);
    for (size_t j = 0; j <= k.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= key.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= k.size(); ++j)
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (key[i - 1] == k[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    if (prev[k.size()] < best_d) best_d = prev[k.size()], best = k;
  }
  return best;
}

class Reader {
 public:
  Reader(std::string name, std::string base_dir, ConfigDraft& draft)
      : name_(std::move(name)), base_dir_(std::move(base_dir)), draft_(draft) {}

  void read(const YAML::Node& root) {
    if (!root || root.IsNull()) throw ConfigError(name_ + ": the file is empty (expected a map of settings)");
    if (!root.IsMap()) fail(root, "", "expected a map of settings at the top level");
    Config& c = draft_.config;
    for_each_key(root, "", top_keys(), [&](const std::string& key, const YAML::Node& v, const std::string& path) {
      if (key == "tournament") {
        draft_.file_type = get(v, path, parse_tournament_type);
        draft_.file_type_where = where(v) + ": " + path;
      } else if (key == "event") {
        c.game.event = scalar(v, path);
      } else if (key == "rounds") {
        c.rounds = int(integer(v, path, 1, 100000000));
        draft_.rounds_set = true;
      } else if (key == "games") {
        int64_t games = integer(v, path, 2, 200000000);
        if (games % 2) fail(v, path, "expected an even number (every opening is played twice, colours swapped)");
        c.rounds = int(games / 2);
        draft_.rounds_set = true;
      } else if (key == "pair") {
        c.pair = boolean(v, path);
      } else if (key == "concurrency") {
        c.concurrency = int(integer(v, path, 1, 4096));
        draft_.concurrency_set = true;
      } else if (key == "engines") {
        if (!v.IsSequence()) fail(v, path, "expected a list of engines (each a map with cmd, name, tc, ...)");
        for (size_t i = 0; i < v.size(); ++i) {
          std::string p = path + "[" + std::to_string(i) + "]";
          draft_.file_engines.push_back(engine(v[i], p, true));
        }
      } else if (key == "each") {
        draft_.file_each = engine(v, path, false);
      } else if (key == "openings") {
        openings(v, path);
      } else if (key == "game") {
        game(v, path);
      } else if (key == "adjudication") {
        adjudication(v, path);
      } else if (key == "output") {
        output(v, path);
      } else if (key == "restart") {
        c.restart = get(v, path, parse_restart_policy);
      } else if (key == "replay_broken_pairs") {
        c.replay_broken_pairs = boolean(v, path);
        draft_.replay_where = path;
      } else if (key == "max_replays") {
        c.max_replays = int(integer(v, path, 0, 1000));
        draft_.replay_where = path;
      } else if (key == "resume") {
        c.resume = boolean(v, path);
      } else if (key == "overwrite") {
        c.overwrite = boolean(v, path);
      } else if (key == "quiet") {
        c.quiet = boolean(v, path);
      } else if (key == "json") {
        c.json = boolean(v, path);
      } else if (key == "status_interval_s") {
        c.status_interval_s = int(integer(v, path, 1, 86400));
      } else if (key == "sprt") {
        sprt(v, path, c.sprt);
      } else if (key == "spsa") {
        spsa(v, path);
      } else if (key == "rating") {
        for_each_key(v, path, {"anchor", "anchor_elo"},
                     [&](const std::string& k, const YAML::Node& value, const std::string& p) {
                       if (k == "anchor")
                         c.rating_anchor = scalar(value, p);
                       else
                         c.rating_anchor_elo = number(value, p);
                     });
      } else if (key == "build_cache") {
        c.build_cache = resolve_path(scalar(v, path), base_dir_);
      } else if (key == "scale_tc") {
        ScaleTc scale;
        for_each_key(v, path, {"nps", "engine"}, [&](const std::string& k, const YAML::Node& value, const std::string& p) {
          if (k == "nps")
            scale.nps = double(integer(value, p, 1, int64_t(1) << 50));
          else
            scale.engine = scalar(value, p);
        });
        if (scale.nps <= 0) fail(v, path, "expected nps: N (the nodes per second the time controls are written for)");
        c.scale_tc = scale;
      } else if (key == "via_csa_server") {
        c.via_csa_server = boolean(v, path);
      } else if (key == "shard") {
        c.shard = scalar(v, path);
      } else if (key == "web") {
        c.web = scalar(v, path);
        if (c.web == "off") {
          c.web.clear();
        } else if (auto address = parse_listen_address(c.web, DEFAULT_WEB_PORT); !address) {
          fail(v, path, address.error());
        }
      }
    });
  }

 private:
  static const std::vector<std::string>& top_keys() {
    static const std::vector<std::string> keys = {
        "tournament",     "event",    "rounds",    "games",        "pair",   "concurrency",       "engines",
        "each",           "openings", "game",      "adjudication", "output", "restart",           "replay_broken_pairs",
        "max_replays",    "resume",   "overwrite", "quiet",        "json",   "status_interval_s", "sprt",
        "spsa",           "via_csa_server", "shard", "web", "rating", "build_cache", "scale_tc"};
    return keys;
  }

  std::string where(const YAML::Node& node) const {
    const YAML::Mark m = node.Mark();
    if (m.is_null()) return name_;
    return name_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }

  [[noreturn]] void fail(const YAML::Node& node, const std::string& path, const std::string& what) const {
    throw ConfigError(where(node) + ": " + (path.empty() ? "" : path + ": ") + what);
  }

  // Calls f(key, value, path) for each entry of the map, rejecting unknown and repeated keys.
  void for_each_key(const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys,
                    const std::function<void(const std::string&, const YAML::Node&, const std::string&)>& f) {
    if (!map.IsMap()) fail(map, path, "expected a map with keys " + join(keys));
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) fail(it->first, path, "expected a plain key");
      std::string key = it->first.Scalar();
      std::string sub = path.empty() ? key : path + "." + key;
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string hint = suggestion(key, keys);
        fail(it->first, "",
             "unknown key '" + sub + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                 "; expected one of: " + join(keys));
      }
      if (!seen.insert(key).second) fail(it->first, sub, "the key is given twice");
      f(key, it->second, sub);
    }
  }

  static std::string join(const std::vector<std::string>& keys) {
    std::string s;
    for (const std::string& k : keys) s += (s.empty() ? "" : ", ") + k;
    return s;
  }

  std::string scalar(const YAML::Node& v, const std::string& path) const {
    if (!v.IsScalar()) fail(v, path, "expected a single value, not a list or a map");
    return v.Scalar();
  }

  template <typename Parse>
  auto get(const YAML::Node& v, const std::string& path, Parse parse) const ->
      typename std::invoke_result_t<Parse, std::string_view>::value_type {
    auto r = parse(scalar(v, path));
    if (!r) fail(v, path, r.error());
    return *r;
  }

  int64_t integer(const YAML::Node& v, const std::string& path, int64_t min, int64_t max) const {
    auto r = parse_int(scalar(v, path), min, max);
    if (!r) fail(v, path, r.error());
    return *r;
  }
  bool boolean(const YAML::Node& v, const std::string& path) const { return get(v, path, parse_bool); }
  double number(const YAML::Node& v, const std::string& path) const { return get(v, path, parse_double); }
  std::string path_value(const YAML::Node& v, const std::string& path) const {
    std::string s = scalar(v, path);
    if (s.empty()) fail(v, path, "expected a path, got an empty value");
    return resolve_path(s, base_dir_);
  }

  EngineSettings engine(const YAML::Node& node, const std::string& path, bool named) {
    static const std::vector<std::string> engine_keys = engine_yaml_keys(InTournament, true);
    static const std::vector<std::string> each_keys = engine_yaml_keys(InTournament, false);
    EngineSettings e;
    e.where = where(node) + ": " + path;
    auto set = [&](const std::string& key, const std::string& value, const YAML::Node& v, const std::string& p) {
      if (auto ok = set_engine_key(e, key, value, InTournament, base_dir_); !ok) fail(v, p, ok.error());
    };
    for_each_key(node, path, named ? engine_keys : each_keys,
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "args" && v.IsSequence()) {  // a list, one argument each (spaces kept)
                     e.args.emplace();
                     for (size_t i = 0; i < v.size(); ++i)
                       set("arg", scalar(v[i], p + "[" + std::to_string(i) + "]"), v[i], p);
                   } else if (key == "args" && !v.IsScalar()) {
                     fail(v, p, "expected a list of arguments");
                   } else if (key == "options") {
                     if (!v.IsMap()) fail(v, p, "expected a map of USI option names to values");
                     for (auto it = v.begin(); it != v.end(); ++it) {
                       std::string name = scalar(it->first, p);
                       std::string sub = p + "." + name;
                       if (!it->second.IsScalar()) fail(it->second, sub, "expected a single value");
                       set("option." + name, it->second.Scalar(), it->second, sub);
                     }
                   } else {
                     set(key, scalar(v, p), v, p);
                     if (key == "cmd") e.cmd_where = where(v) + ": " + p;
                   }
                 });
    return e;
  }

  void openings(const YAML::Node& node, const std::string& path) {
    OpeningSettings& o = draft_.config.openings;
    for_each_key(node, path, {"file", "position", "order", "seed", "plies", "eval_window", "balance"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "file")
                     o.file = path_value(v, p);
                   else if (key == "position")
                     o.position = scalar(v, p);
                   else if (key == "order")
                     o.order = get(v, p, parse_opening_order);
                   else if (key == "seed")
                     o.seed = uint64_t(integer(v, p, 0, INT64_MAX));
                   else if (key == "plies")
                     o.plies = int(integer(v, p, 0, 10000));
                   else if (key == "eval_window")
                     o.eval_window = int(integer(v, p, 0, 100000));
                   else if (key == "balance")
                     o.balance = int(integer(v, p, 0, 100000));
                 });
  }

  void game(const YAML::Node& node, const std::string& path) {
    game::GameOptions& g = draft_.config.game;
    for_each_key(node, path, {"max_plies", "margin_ms", "stall_timeout_ms", "entering_king"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "max_plies")
                     g.max_plies = int(integer(v, p, 0, 100000));
                   else if (key == "margin_ms")
                     g.margin_ms = integer(v, p, 0, 600000);
                   else if (key == "stall_timeout_ms")
                     g.stall_timeout_ms = integer(v, p, 1, 600000);
                   else if (key == "entering_king") {
                     auto r = shogi::parse_entering_king_rule(scalar(v, p));
                     if (!r) fail(v, p, "expected 27, 24 or off, got \"" + v.Scalar() + "\"");
                     g.entering_king = *r;
                   }
                 });
  }

  void adjudication(const YAML::Node& node, const std::string& path) {
    game::Adjudication& a = draft_.config.game.adjudication;
    for_each_key(node, path, {"resign", "draw"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   // `resign: off` or a map of its settings (which turns it on).
                   if (v.IsScalar()) {
                     bool on = boolean(v, p);
                     (key == "resign" ? a.resign_enabled : a.draw_enabled) = on;
                     return;
                   }
                   if (key == "resign") {
                     a.resign_enabled = true;
                     for_each_key(v, p, {"score", "moves"},
                                  [&](const std::string& k, const YAML::Node& x, const std::string& q) {
                                    if (k == "score")
                                      a.resign_score_cp = int(integer(x, q, 1, 100000));
                                    else
                                      a.resign_moves = int(integer(x, q, 1, 1000));
                                  });
                   } else {
                     a.draw_enabled = true;
                     for_each_key(v, p, {"score", "moves", "min_ply"},
                                  [&](const std::string& k, const YAML::Node& x, const std::string& q) {
                                    if (k == "score")
                                      a.draw_score_cp = int(integer(x, q, 0, 100000));
                                    else if (k == "moves")
                                      a.draw_moves = int(integer(x, q, 1, 1000));
                                    else
                                      a.draw_min_ply = int(integer(x, q, 0, 100000));
                                  });
                   }
                 });
  }

  void output(const YAML::Node& node, const std::string& path) {
    OutputSettings& o = draft_.config.output;
    for_each_key(node, path, {"dir", "journal", "kifu", "engine_logs", "io_logs"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "dir")
                     o.dir = path_value(v, p);
                   else if (key == "journal")
                     o.journal = path_value(v, p);
                   else if (key == "engine_logs")
                     o.engine_logs = boolean(v, p);
                   else if (key == "io_logs")
                     o.io_logs = boolean(v, p);
                   else if (key == "kifu") {
                     std::string text;
                     if (v.IsSequence()) {
                       for (size_t i = 0; i < v.size(); ++i) {
                         if (i) text += ',';
                         text += scalar(v[i], p);
                       }
                     } else {
                       text = scalar(v, p);
                     }
                     auto f = parse_kifu_formats(text);
                     if (!f) fail(v, p, f.error());
                     o.csa = f->csa, o.kif = f->kif;
                   }
                 });
  }

  void sprt(const YAML::Node& node, const std::string& path, stats::SprtConfig& s) {
    for_each_key(node, path, {"elo0", "elo1", "alpha", "beta", "model"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "elo0")
                     s.elo0 = number(v, p);
                   else if (key == "elo1")
                     s.elo1 = number(v, p);
                   else if (key == "alpha")
                     s.alpha = number(v, p);
                   else if (key == "beta")
                     s.beta = number(v, p);
                   else if (key == "model")
                     s.model = get(v, p, parse_elo_model);
                 });
    if (auto ok = stats::validate(s); !ok) fail(node, path, ok.error());
  }

  // spsa: {params: FILE | [lines], pairs: N, alpha: A, gamma: G, a_ratio: R, seed: S, then_sprt: {...},
  //        coordinator_timeout_s: S}
  void spsa(const YAML::Node& node, const std::string& path) {
    SpsaSettings& s = draft_.config.spsa;
    for_each_key(node, path,
                 {"params", "pairs", "alpha", "gamma", "a_ratio", "seed", "then_sprt", "coordinator_timeout_s"},
                 [&](const std::string& key, const YAML::Node& v, const std::string& p) {
                   if (key == "params") {
                     spsa_params(v, p, s);
                   } else if (key == "pairs") {
                     s.schedule.iterations = integer(v, p, 1, 100000000);
                   } else if (key == "alpha") {
                     s.schedule.alpha = number(v, p);
                   } else if (key == "gamma") {
                     s.schedule.gamma = number(v, p);
                   } else if (key == "a_ratio") {
                     s.schedule.a_ratio = number(v, p);
                   } else if (key == "seed") {
                     s.seed = uint64_t(integer(v, p, 0, INT64_MAX));
                   } else if (key == "coordinator_timeout_s") {
                     s.coordinator_timeout_s = int(integer(v, p, 1, 7 * 86400));
                   } else if (key == "then_sprt") {
                     s.then_sprt = stats::SprtConfig{};
                     sprt(v, p, *s.then_sprt);
                   }
                 });
  }

  // A params file (relative to this file's directory), or the file's lines as a list.
  void spsa_params(const YAML::Node& v, const std::string& path, SpsaSettings& s) {
    if (v.IsSequence()) {
      s.params.clear();
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        auto param = parse_spsa_param_line(scalar(v[i], p));
        if (!param) fail(v[i], p, param.error());
        s.params.push_back(std::move(*param));
        if (auto ok = check_spsa_params(s.params); !ok) fail(v[i], p, ok.error());
      }
      s.params_where = where(v);
      return;
    }
    const std::string file = resolve_path(scalar(v, path), base_dir_);
    auto params = load_spsa_params(file);
    if (!params) fail(v, path, params.error());
    s.params = std::move(*params);
    s.params_where = file;
  }

  std::string name_;
  std::string base_dir_;
  ConfigDraft& draft_;
};

void apply(const std::string& text, const std::string& name, const std::string& base_dir, ConfigDraft& draft) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": not valid YAML: " + e.msg);
  }
  Reader(name, base_dir, draft).read(root);
}

}  // namespace

void apply_yaml_text(std::string_view text, const std::string& name, const std::string& base_dir, ConfigDraft& draft) {
  apply(std::string(text), name, base_dir, draft);
}

void apply_yaml_file(const std::string& path, ConfigDraft& draft) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ConfigError(path + ": a directory, not a config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot read the config file");
  std::ostringstream text;
  text << in.rdbuf();
  std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  apply(text.str(), path, dir.string(), draft);
}

}  // namespace arena::config

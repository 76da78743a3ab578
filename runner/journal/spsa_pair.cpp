#include "journal/spsa_pair.h"

#include <boost/json.hpp>
#include <cmath>

#include "journal/journal_json.h"
#include "output/json.h"

namespace arena::journal {

namespace bj = boost::json;

namespace {

template <typename T>
bj::array array_of(const std::vector<T>& values) {
  bj::array a;
  a.reserve(values.size());
  for (const T& v : values) a.emplace_back(v);
  return a;
}

// Built piecewise: GCC 12 warns falsely (-Wrestrict) about literal + string + literal.
std::unexpected<std::string> bad(std::string_view field, std::string_view what) {
  std::string s = "\"";
  s += field;
  s += "\" ";
  s += what;
  return std::unexpected(std::move(s));
}

std::expected<double, std::string> number_of(const bj::value& v, std::string_view field) {
  if (const int64_t* i = v.if_int64()) return double(*i);
  if (const double* d = v.if_double(); d && std::isfinite(*d)) return *d;
  return bad(field, "must hold finite numbers");
}

std::expected<std::vector<double>, std::string> numbers(const bj::object& o, std::string_view field, size_t count) {
  const bj::value* v = o.if_contains(field);
  const bj::array* a = v ? v->if_array() : nullptr;
  if (!a || a->size() != count) return bad(field, "must be an array of " + std::to_string(count) + " numbers");
  std::vector<double> out;
  for (const bj::value& x : *a) {
    auto d = number_of(x, field);
    if (!d) return std::unexpected(d.error());
    out.push_back(*d);
  }
  return out;
}

}  // namespace

std::string spsa_pair_line(const SpsaPair& p, const std::string& first_game_line, const std::string& second_game_line) {
  bj::object o;  // members in the order written
  o.emplace("spsa_pair", p.k);
  o.emplace("delta", array_of(p.delta));
  o.emplace("plus", array_of(p.plus));
  o.emplace("minus", array_of(p.minus));
  o.emplace("result", p.result);
  if (p.theta) o.emplace("theta", array_of(*p.theta));
  // The games are objects of this line, not strings: the line stays one readable JSON value. Each game line is one
  // JSON object already, so it is spliced in as it is rather than parsed and written again.
  std::string line = json::serialize(o);
  line.pop_back();  // the object's '}'
  line.reserve(line.size() + first_game_line.size() + second_game_line.size() + 16);
  line += ",\"games\":[";
  line += first_game_line;
  line += ',';
  line += second_game_line;
  line += "]}";
  return line;
}

bool is_spsa_pair_line(std::string_view line) { return line.starts_with("{\"spsa_pair\":"); }

std::expected<ParsedSpsaPair, std::string> parse_spsa_pair_line(std::string_view line, size_t params,
                                                                bool game_lines) {
  auto doc = json::parse(line);
  if (!doc) return std::unexpected(doc.error());
  const bj::object* o = doc->if_object();
  if (!o) return std::unexpected("expected a JSON object");
  ParsedSpsaPair out;
  SpsaPair& p = out.pair;
  const bj::value* k = o->if_contains("spsa_pair");
  if (!k || !k->is_int64() || k->get_int64() < 1) return bad("spsa_pair", "must be an iteration number from 1");
  p.k = k->get_int64();
  const bj::value* d = o->if_contains("delta");
  const bj::array* delta = d ? d->if_array() : nullptr;
  if (!delta || delta->size() != params)
    return bad("delta", "must be an array of " + std::to_string(params) + " signs");
  for (const bj::value& s : *delta) {
    if (!s.is_int64() || (s.get_int64() != 1 && s.get_int64() != -1)) return bad("delta", "must hold 1 or -1");
    p.delta.push_back(int(s.get_int64()));
  }
  auto plus = numbers(*o, "plus", params), minus = numbers(*o, "minus", params);
  if (!plus) return std::unexpected(plus.error());
  if (!minus) return std::unexpected(minus.error());
  p.plus = std::move(*plus);
  p.minus = std::move(*minus);
  const bj::value* r = o->if_contains("result");
  auto result = r ? number_of(*r, "result") : bad("result", "is missing");
  if (!result || *result < -2 || *result > 2) return bad("result", "must be a number from -2 to 2");
  p.result = *result;
  if (o->contains("theta")) {
    auto theta = numbers(*o, "theta", params);
    if (!theta) return std::unexpected(theta.error());
    p.theta = std::move(*theta);
  }
  const bj::value* g = o->if_contains("games");
  const bj::array* games = g ? g->if_array() : nullptr;
  if (!games || games->size() != 2) return bad("games", "must hold the pair's two game lines");
  for (const bj::value& game : *games) {
    if (!game.is_object()) return bad("games", "must hold the pair's two game lines");
    auto parsed = journal_game_of(game);
    if (!parsed) return std::unexpected("\"games\": " + parsed.error());
    // The games of pair k are the schedule's pair k - 1, in order: a line spliced from another pair would tune theta
    // with games it did not play.
    const int64_t in_pair = int64_t(out.games.size()), number = 2 * (p.k - 1) + in_pair;
    if (parsed->pair != p.k - 1 || parsed->game_in_pair != in_pair || parsed->game != number)
      return bad("games", "must be the run's games " + std::to_string(2 * p.k - 1) + " and " +
                              std::to_string(2 * p.k) + ", in that order");
    out.games.push_back(std::move(*parsed));
    if (game_lines) out.game_lines.push_back(json::serialize(game));
  }
  return out;
}

std::string spsa_spec_json(const SpsaSpec& spec) {
  bj::array params;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const stats::SpsaParam& p = spec.params[i];
    params.emplace_back(bj::object{{"name", p.name},
                                   {"type", p.integer ? "int" : "float"},
                                   {"start", p.start},
                                   {"min", p.min},
                                   {"max", p.max},
                                   {"c_end", p.c_end},
                                   {"r_end", p.r_end},
                                   {"sent", spec.whole(i) ? "whole" : "decimal"}});
  }
  bj::object o;
  o.emplace("engine", spec.engine);
  o.emplace("params", std::move(params));
  o.emplace("pairs", spec.schedule.iterations);
  o.emplace("alpha", spec.schedule.alpha);
  o.emplace("gamma", spec.schedule.gamma);
  o.emplace("a_ratio", spec.schedule.a_ratio);
  o.emplace("seed", spec.seed);
  return json::serialize(o);
}

std::expected<SpsaSpec, std::string> parse_spsa_spec(std::string_view text) {
  auto doc = json::parse(text);
  const bj::object* o = doc ? doc->if_object() : nullptr;
  if (!o) return std::unexpected("\"spsa\" must be an object");
  SpsaSpec spec;
  auto number = [&](const bj::object& from, std::string_view key, double& into) -> bool {
    const bj::value* v = from.if_contains(key);
    auto d = v ? number_of(*v, key) : bad(key, "is missing");
    if (d) into = *d;
    return bool(d);
  };
  if (const bj::value* e = o->if_contains("engine"); e && e->is_string()) spec.engine = std::string(e->get_string());
  const bj::value* ps = o->if_contains("params");
  if (!ps || !ps->is_array() || ps->get_array().empty()) return std::unexpected("\"spsa\": \"params\" must list them");
  for (const bj::value& v : ps->get_array()) {
    const bj::object* p = v.if_object();
    if (!p || !p->contains("name") || !p->at("name").is_string())
      return std::unexpected("\"spsa\": each of \"params\" needs a name");
    stats::SpsaParam param;
    param.name = std::string(p->at("name").get_string());
    param.integer = !(p->contains("type") && p->at("type") == "float");
    for (auto [key, into] : {std::pair<const char*, double*>{"start", &param.start},
                             {"min", &param.min},
                             {"max", &param.max},
                             {"c_end", &param.c_end},
                             {"r_end", &param.r_end}})
      if (!number(*p, key, *into))
        return std::unexpected("\"spsa\": parameter " + param.name + ": \"" + key + "\" must be a number");
    spec.sent_whole.push_back(p->contains("sent") ? p->at("sent") == "whole" : param.integer);
    spec.params.push_back(std::move(param));
  }
  double pairs = 0;
  if (!number(*o, "pairs", pairs) || !number(*o, "alpha", spec.schedule.alpha) ||
      !number(*o, "gamma", spec.schedule.gamma) || !number(*o, "a_ratio", spec.schedule.a_ratio))
    return std::unexpected("\"spsa\" needs pairs, alpha, gamma and a_ratio as numbers");
  spec.schedule.iterations = int64_t(pairs);
  const bj::value* seed = o->if_contains("seed");
  if (seed && seed->is_uint64())
    spec.seed = seed->get_uint64();
  else if (seed && seed->is_int64() && seed->get_int64() >= 0)
    spec.seed = uint64_t(seed->get_int64());
  else
    return std::unexpected("\"spsa\": \"seed\" must be a whole number");
  return spec;
}

}  // namespace arena::journal

#include "analysis/analysis_file.h"

#include <boost/json.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "output/atomic_file.h"
#include "output/json.h"

namespace arena::analysis {

namespace bj = boost::json;

namespace {

const char* side_name(shogi::Color c) { return c == shogi::BLACK ? "black" : "white"; }

bj::value score_json(const usi::Score& s) {
  bj::object o;
  if (s.is_mate())
    o.emplace("mate", s.value);
  else
    o.emplace("cp", s.value);
  return o;
}

bj::value optional_ms(std::int64_t ms) { return ms < 0 ? bj::value(nullptr) : bj::value(ms); }

bj::value optional_score(const std::optional<usi::Score>& s) { return s ? score_json(*s) : bj::value(nullptr); }

double rounded(double x) { return std::round(x * 10000) / 10000; }

std::unexpected<std::string> bad(std::string_view what) { return std::unexpected(std::string(what)); }

// The pieces joined with append (GCC 12 warns falsely of overlapping copies in `"..." + std::string(x) + "..."`).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out.append(p);
  return out;
}

// The fields of one JSON object, each read with the error naming it.
class Fields {
 public:
  explicit Fields(const bj::object& o) : o_(o) {}
  const bj::value* find(std::string_view name) const { return o_.if_contains(name); }
  std::expected<std::string, std::string> text(std::string_view name) const {
    const bj::value* v = find(name);
    if (!v || !v->is_string()) return bad(cat({"\"", name, "\" must be a string"}));
    return std::string(v->as_string());
  }
  std::expected<std::int64_t, std::string> integer(std::string_view name) const {
    const bj::value* v = find(name);
    if (!v || !v->is_int64()) return bad(cat({"\"", name, "\" must be a whole number"}));
    return v->as_int64();
  }
  std::expected<double, std::string> number(std::string_view name) const {
    const bj::value* v = find(name);
    if (v && v->is_int64()) return double(v->as_int64());
    if (!v || !v->is_double()) return bad(cat({"\"", name, "\" must be a number"}));
    return v->as_double();
  }
  // -1 for null or absent.
  std::expected<std::int64_t, std::string> ms(std::string_view name) const {
    const bj::value* v = find(name);
    if (!v || v->is_null()) return -1;
    if (!v->is_int64()) return bad(cat({"\"", name, "\" must be a whole number or null"}));
    return v->as_int64();
  }
  bool flag(std::string_view name) const {
    const bj::value* v = find(name);
    return v && v->is_bool() && v->as_bool();
  }

 private:
  const bj::object& o_;
};

std::expected<usi::Score, std::string> parse_score(const bj::value* v, std::string_view name) {
  const bj::object* o = v ? v->if_object() : nullptr;
  usi::Score s;
  if (o && o->size() == 1) {
    if (const bj::value* cp = o->if_contains("cp"); cp && cp->is_int64()) {
      s.value = int(cp->as_int64());
      return s;
    }
    if (const bj::value* mate = o->if_contains("mate"); mate && mate->is_int64()) {
      s.kind = usi::Score::Kind::Mate;
      s.value = int(mate->as_int64());
      s.mate_sign = s.value < 0 ? -1 : 1;
      return s;
    }
  }
  return bad(cat({"\"", name, "\" must be {\"cp\":N} or {\"mate\":N}"}));
}

std::expected<shogi::Color, std::string> parse_side(const Fields& f) {
  auto side = f.text("side");
  if (!side) return std::unexpected(side.error());
  if (*side == "black") return shogi::BLACK;
  if (*side == "white") return shogi::WHITE;
  return bad("\"side\" must be \"black\" or \"white\"");
}

template <class E>
std::expected<E, std::string> enum_from(std::string_view name, std::string_view text, E first, E last) {
  for (int i = int(first); i <= int(last); ++i)
    if (to_string(E(i)) == text) return E(i);
  return bad(cat({"\"", name, "\" has an unknown value \"", text, "\""}));
}

std::expected<MoveAnalysis, std::string> parse_move(const bj::value& v) {
  if (!v.is_object()) return bad("a move must be an object");
  Fields f(v.as_object());
  MoveAnalysis m;
  auto ply = f.integer("ply");
  if (!ply) return std::unexpected(ply.error());
  m.ply = int(*ply);
  auto side = parse_side(f);
  if (!side) return std::unexpected(side.error());
  m.mover = *side;
  auto move = f.text("move");
  if (!move) return std::unexpected(move.error());
  m.move = std::move(*move);
  auto best = f.text("best");
  if (!best) return std::unexpected(best.error());
  m.best = std::move(*best);
  auto score = parse_score(f.find("score"), "score");
  if (!score) return std::unexpected(score.error());
  m.score = *score;
  auto after = parse_score(f.find("after"), "after");
  if (!after) return std::unexpected(after.error());
  m.after = *after;
  if (const bj::value* own = f.find("own"); own && !own->is_null()) {
    auto s = parse_score(own, "own");
    if (!s) return std::unexpected(s.error());
    m.own = *s;
  }
  auto loss = f.integer("loss");
  auto wb = f.number("win_before");
  auto wa = f.number("win_after");
  auto judgement = f.text("judgement");
  auto given = f.ms("given_ms");
  auto used = f.ms("used_ms");
  for (const std::string* e :
       {loss ? nullptr : &loss.error(), wb ? nullptr : &wb.error(), wa ? nullptr : &wa.error(),
        judgement ? nullptr : &judgement.error(), given ? nullptr : &given.error(), used ? nullptr : &used.error()})
    if (e) return bad(*e);
  auto j = enum_from("judgement", *judgement, Judgement::Best, Judgement::Blunder);
  if (!j) return std::unexpected(j.error());
  m.judged.loss_cp = int(*loss);
  m.judged.win_before = *wb;
  m.judged.win_after = *wa;
  m.judged.judgement = *j;
  m.judged.missed_mate = f.flag("missed_mate");
  m.judged.win_to_loss = f.flag("win_to_loss");
  m.given_ms = *given;
  m.used_ms = *used;
  return m;
}

}  // namespace

std::string to_json(const AnalysisHeader& header) {
  bj::object o;
  o.emplace("analysis", 1);
  bj::object referee;
  referee.emplace("name", header.referee_name);
  referee.emplace("command", header.referee_command);
  bj::object options;
  for (const auto& [name, value] : header.referee_options) options[name] = value;
  referee.emplace("options", std::move(options));
  o.emplace("referee", std::move(referee));
  bj::object budget;
  if (header.nodes) budget.emplace("nodes", *header.nodes);
  if (header.movetime_ms) budget.emplace("movetime_ms", *header.movetime_ms);
  o.emplace("budget", std::move(budget));
  o.emplace("clear_hash", header.fresh_positions ? "position" : "game");
  o.emplace("deterministic", header.deterministic());
  const JudgeOptions& j = header.judge;
  o.emplace("judge", bj::object{{"scale", j.scale},
                                {"inaccuracy", j.inaccuracy},
                                {"mistake", j.mistake},
                                {"blunder", j.blunder},
                                {"loss_cap_cp", j.loss_cap_cp},
                                {"decisive_margin", j.decisive_margin}});
  o.emplace("created", header.created);
  return json::serialize(o);
}

std::expected<AnalysisHeader, std::string> parse_analysis_header(std::string_view line) {
  auto doc = json::parse(line);
  if (!doc) return bad("the header is not JSON: " + doc.error());
  const bj::object* o = doc->if_object();
  if (!o || !o->if_contains("analysis")) return bad("the first line is not an analysis header (no \"analysis\")");
  Fields f(*o);
  AnalysisHeader h;
  if (auto version = f.integer("analysis"); !version || *version != 1)
    return bad("the analysis header's version is not 1");
  const bj::value* referee = f.find("referee");
  if (!referee || !referee->is_object()) return bad("the header's \"referee\" must be an object");
  Fields r(referee->as_object());
  auto name = r.text("name");
  auto command = r.text("command");
  if (!name || !command) return bad("the header's referee needs \"name\" and \"command\"");
  h.referee_name = *name;
  h.referee_command = *command;
  if (const bj::value* options = r.find("options"); options && options->is_object())
    for (const auto& kv : options->as_object())
      if (kv.value().is_string()) h.referee_options.emplace_back(kv.key(), kv.value().as_string());
  const bj::value* budget = f.find("budget");
  if (!budget || !budget->is_object()) return bad("the header's \"budget\" must be an object");
  Fields b(budget->as_object());
  if (b.find("nodes")) {
    auto n = b.integer("nodes");
    if (!n) return bad("the header's budget: " + n.error());
    h.nodes = *n;
  }
  if (b.find("movetime_ms")) {
    auto t = b.integer("movetime_ms");
    if (!t) return bad("the header's budget: " + t.error());
    h.movetime_ms = *t;
  }
  if (auto clear = f.text("clear_hash")) h.fresh_positions = *clear == "position";
  const bj::value* judge = f.find("judge");
  if (!judge || !judge->is_object()) return bad("the header's \"judge\" must be an object");
  Fields j(judge->as_object());
  auto scale = j.number("scale");
  auto inaccuracy = j.number("inaccuracy");
  auto mistake = j.number("mistake");
  auto blunder = j.number("blunder");
  auto cap = j.integer("loss_cap_cp");
  auto margin = j.number("decisive_margin");
  if (!scale || !inaccuracy || !mistake || !blunder || !cap || !margin)
    return bad("the header's \"judge\" needs scale, inaccuracy, mistake, blunder, loss_cap_cp, decisive_margin");
  h.judge = {*scale, *inaccuracy, *mistake, *blunder, int(*cap), *margin};
  if (auto created = f.text("created")) h.created = *created;
  return h;
}

std::string analysis_mismatch(const AnalysisHeader& existing, const AnalysisHeader& resumed) {
  auto budget = [](const AnalysisHeader& h) {
    if (h.nodes) return "nodes " + std::to_string(*h.nodes);
    if (h.movetime_ms) return "movetime " + std::to_string(*h.movetime_ms) + " ms";
    return std::string("none");
  };
  if (budget(existing) != budget(resumed))
    return "the referee's budget differs: " + budget(existing) + " in the file, " + budget(resumed) + " asked";
  if (existing.fresh_positions != resumed.fresh_positions)
    return "the referee's hash clearing (--clear-hash) differs from the file's";
  if (existing.referee_command != resumed.referee_command)
    return "the referee differs: '" + existing.referee_command + "' in the file, '" + resumed.referee_command +
           "' asked";
  if (existing.referee_options != resumed.referee_options) return "the referee's options differ from the file's";
  const JudgeOptions &a = existing.judge, &b = resumed.judge;
  if (a.scale != b.scale || a.inaccuracy != b.inaccuracy || a.mistake != b.mistake || a.blunder != b.blunder ||
      a.loss_cap_cp != b.loss_cap_cp || a.decisive_margin != b.decisive_margin)
    return "the judging options (scale, thresholds) differ from the file's";
  return "";
}

std::string to_json(const GameAnalysis& game) {
  bj::object o;
  o.emplace("game", game.game);
  o.emplace("source", game.source.empty() ? bj::value(nullptr) : bj::value(game.source));
  o.emplace("black", game.names[shogi::BLACK]);
  o.emplace("white", game.names[shogi::WHITE]);
  o.emplace("result", to_string(game.outcome));
  o.emplace("termination", to_string(game.termination));
  o.emplace("plies", game.plies);
  o.emplace("opening_plies", game.opening_plies);
  bj::array moves;
  moves.reserve(game.moves.size());
  for (const MoveAnalysis& m : game.moves) {
    bj::object e;
    e.emplace("ply", m.ply);
    e.emplace("side", side_name(m.mover));
    e.emplace("mover", game.names[m.mover]);
    e.emplace("move", m.move);
    e.emplace("score", score_json(m.score));
    e.emplace("best", m.best);
    e.emplace("after", score_json(m.after));
    e.emplace("loss", m.judged.loss_cp);
    e.emplace("win_before", rounded(m.judged.win_before));
    e.emplace("win_after", rounded(m.judged.win_after));
    e.emplace("judgement", to_string(m.judged.judgement));
    if (m.judged.missed_mate) e.emplace("missed_mate", true);
    if (m.judged.win_to_loss) e.emplace("win_to_loss", true);
    e.emplace("own", m.own ? score_json(*m.own) : bj::value(nullptr));
    e.emplace("given_ms", optional_ms(m.given_ms));
    e.emplace("used_ms", optional_ms(m.used_ms));
    moves.push_back(std::move(e));
  }
  o.emplace("moves", std::move(moves));
  if (game.decisive) {
    const DecisiveMistake& d = *game.decisive;
    o.emplace("decisive", bj::object{{"ply", d.ply},
                                     {"side", side_name(d.mover)},
                                     {"mover", game.names[d.mover]},
                                     {"time_left_ms", bj::object{{"black", optional_ms(d.time_left_ms[shogi::BLACK])},
                                                                 {"white", optional_ms(d.time_left_ms[shogi::WHITE])}}},
                                     {"own", bj::object{{"black", optional_score(d.own[shogi::BLACK])},
                                                        {"white", optional_score(d.own[shogi::WHITE])}}}});
  } else {
    o.emplace("decisive", nullptr);
  }
  return json::serialize(o);
}

std::expected<GameAnalysis, std::string> parse_game_analysis(std::string_view line) {
  auto doc = json::parse(line);
  if (!doc) return bad("not JSON: " + doc.error());
  const bj::object* o = doc->if_object();
  if (!o) return bad("not a JSON object");
  Fields f(*o);
  GameAnalysis g;
  auto game = f.integer("game");
  if (!game) return std::unexpected(game.error());
  g.game = *game;
  if (const bj::value* source = f.find("source"); source && source->is_string()) g.source = source->as_string();
  auto black = f.text("black");
  auto white = f.text("white");
  auto result = f.text("result");
  auto termination = f.text("termination");
  auto plies = f.integer("plies");
  auto opening = f.integer("opening_plies");
  for (const std::string* e : {black ? nullptr : &black.error(), white ? nullptr : &white.error(),
                               result ? nullptr : &result.error(), termination ? nullptr : &termination.error(),
                               plies ? nullptr : &plies.error(), opening ? nullptr : &opening.error()})
    if (e) return bad(*e);
  g.names[shogi::BLACK] = *black;
  g.names[shogi::WHITE] = *white;
  auto outcome = enum_from("result", *result, Outcome::None, Outcome::Draw);
  if (!outcome) return std::unexpected(outcome.error());
  auto term = enum_from("termination", *termination, Termination::None, Termination::Interrupted);
  if (!term) return std::unexpected(term.error());
  g.outcome = *outcome;
  g.termination = *term;
  g.plies = int(*plies);
  g.opening_plies = int(*opening);
  const bj::value* moves = f.find("moves");
  if (!moves || !moves->is_array()) return bad("\"moves\" must be an array");
  for (const bj::value& v : moves->as_array()) {
    auto m = parse_move(v);
    if (!m) return bad("move " + std::to_string(g.moves.size() + 1) + ": " + m.error());
    g.moves.push_back(std::move(*m));
  }
  if (const bj::value* d = f.find("decisive"); d && !d->is_null()) {
    if (!d->is_object()) return bad("\"decisive\" must be an object or null");
    Fields df(d->as_object());
    auto ply = df.integer("ply");
    auto side = parse_side(df);
    if (!ply || !side) return bad("\"decisive\" needs \"ply\" and \"side\"");
    DecisiveMistake dm;
    dm.ply = int(*ply);
    dm.mover = *side;
    if (const bj::value* left = df.find("time_left_ms"); left && left->is_object()) {
      Fields lf(left->as_object());
      auto b = lf.ms("black");
      auto w = lf.ms("white");
      if (b) dm.time_left_ms[shogi::BLACK] = *b;
      if (w) dm.time_left_ms[shogi::WHITE] = *w;
    }
    if (const bj::value* own = df.find("own"); own && own->is_object())
      for (shogi::Color c : {shogi::BLACK, shogi::WHITE})
        if (const bj::value* s = own->as_object().if_contains(side_name(c)); s && !s->is_null()) {
          auto score = parse_score(s, "own");
          if (!score) return bad("\"decisive\": " + score.error());
          dm.own[c] = *score;
        }
    g.decisive = dm;
  }
  return g;
}

std::expected<AnalysisContents, std::string> read_analysis(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return bad(path + ": cannot read the analysis file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  AnalysisContents out;
  size_t pos = 0;
  int64_t number = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    ++number;
    if (end == std::string::npos) {
      out.torn = true;  // a line the kill cut: the game is analysed again
      break;
    }
    std::string_view line(text.data() + pos, end - pos);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (number == 1) {
      auto h = parse_analysis_header(line);
      if (!h) return bad(where + h.error());
      out.header = std::move(*h);
    } else {
      auto g = parse_game_analysis(line);
      if (!g) return bad(where + g.error());
      out.games.push_back(std::move(*g));
      out.lines.emplace_back(line);
    }
    pos = end + 1;
    out.valid_size = pos;
  }
  return out;
}

std::expected<AnalysisWriter, std::string> AnalysisWriter::create(const std::string& path,
                                                                  const AnalysisHeader& header) {
  std::string text = to_json(header);
  text += '\n';
  if (auto r = output::write_file_atomically(path, text, "the analysis"); !r) return std::unexpected(r.error());
  auto w = journal::JournalWriter::append_to(path, text.size());
  if (!w) return std::unexpected(w.error());
  return AnalysisWriter(std::move(*w));
}

std::expected<AnalysisWriter, std::string> AnalysisWriter::append_to(const std::string& path,
                                                                     std::uint64_t valid_size) {
  auto w = journal::JournalWriter::append_to(path, valid_size);
  if (!w) return std::unexpected(w.error());
  return AnalysisWriter(std::move(*w));
}

std::expected<void, std::string> AnalysisWriter::append(const GameAnalysis& game) {
  return writer_.append(to_json(game));
}

}  // namespace arena::analysis

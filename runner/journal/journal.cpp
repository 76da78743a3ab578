#include "journal/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "journal/journal_json.h"
#include "journal/spsa_pair.h"
#include "output/json.h"
#include "output/result_json.h"

namespace arena::journal {

namespace bj = boost::json;

namespace {

std::unexpected<std::string> sys_error(const std::string& what, const std::string& path) {
  return std::unexpected(path + ": " + what + ": " + std::strerror(errno));
}

// "\"key\" what", built piecewise (GCC 12 warns falsely, -Wrestrict, about literal + string + literal).
std::string field(std::string_view key, std::string_view what) {
  std::string s = "\"";
  s += key;
  s += "\" ";
  s += what;
  return s;
}

std::expected<int64_t, std::string> get_int(const bj::object& doc, std::string_view key, bool required,
                                            int64_t fallback = 0) {
  const bj::value* v = doc.if_contains(key);
  if (!v || v->is_null()) {
    if (required) return std::unexpected(field(key, "is missing"));
    return fallback;
  }
  if (const int64_t* i = v->if_int64()) return *i;
  return std::unexpected(field(key, "must be an integer"));
}

std::expected<double, std::string> get_double(const bj::object& doc, std::string_view key) {
  const bj::value* v = doc.if_contains(key);
  if (!v) return std::unexpected(field(key, "is missing"));
  if (const int64_t* i = v->if_int64()) return double(*i);
  // Boost.JSON reads 1e400 as infinity; an SPRT with an infinite bound makes no sense.
  if (const double* d = v->if_double(); d && std::isfinite(*d)) return *d;
  return std::unexpected(field(key, "must be a finite number"));
}

std::string get_string(const bj::object& doc, std::string_view key) {
  const bj::value* v = doc.if_contains(key);
  const bj::string* s = v ? v->if_string() : nullptr;
  return s ? std::string(*s) : std::string();
}

template <typename E>
std::optional<E> enum_from(std::string_view text, E first, E last) {
  for (int i = int(first); i <= int(last); ++i)
    if (to_string(E(i)) == text) return E(i);
  return std::nullopt;
}

std::expected<JournalHeader, std::string> parse_header(const bj::value& line) {
  JournalHeader h;
  const bj::object* header = line.if_object();
  if (!header) return std::unexpected("unsupported journal version");
  const bj::object& doc = *header;
  if (auto v = get_int(doc, "journal", true); !v || *v != 1) return std::unexpected("unsupported journal version");
  h.type = get_string(doc, "type");
  if (const bj::value* e = doc.if_contains("engines"); e && e->is_array())
    for (const bj::value& n : e->get_array())
      if (const bj::string* s = n.if_string()) h.engines.emplace_back(*s);
  auto games = get_int(doc, "games", true);
  if (!games) return std::unexpected(games.error());
  if (*games < 0) return std::unexpected("\"games\" must be 0 or more, not " + std::to_string(*games));
  h.games = *games;
  auto gpp = get_int(doc, "games_per_pair", false, 2);
  if (!gpp || (*gpp != 1 && *gpp != 2)) return std::unexpected("\"games_per_pair\" must be 1 or 2");
  h.games_per_pair = int(*gpp);
  h.schedule = get_string(doc, "schedule");
  h.created = get_string(doc, "created");
  if (const bj::value* v = doc.if_contains("sprt"); v && v->is_object()) {
    const bj::object& s = v->get_object();
    stats::SprtConfig c;
    auto e0 = get_double(s, "elo0"), e1 = get_double(s, "elo1"), a = get_double(s, "alpha"), b = get_double(s, "beta");
    for (auto* r : {&e0, &e1, &a, &b})
      if (!*r) return std::unexpected("sprt: " + r->error());
    c.elo0 = *e0, c.elo1 = *e1, c.alpha = *a, c.beta = *b;
    c.model = get_string(s, "model") == "logistic" ? stats::EloModel::Logistic : stats::EloModel::Normalized;
    h.sprt = c;
  }
  if (const bj::value* v = doc.if_contains("settings"); v && v->is_object()) {
    RunIdentity id;
    id.settings = json::serialize(*v);
    id.settings_sha256 = get_string(doc, "settings_sha256");
    if (const bj::value* f = doc.if_contains("files"); f && f->is_array())
      for (const bj::value& file : f->get_array()) {
        const bj::object* o = file.if_object();
        if (!o) return std::unexpected("\"files\" must hold objects");
        id.files.push_back({get_string(*o, "role"), get_string(*o, "path"), get_string(*o, "sha256")});
      }
    h.identity = std::move(id);
  }
  h.host = get_string(doc, "host");
  auto pid = get_int(doc, "pid", false);
  if (!pid) return std::unexpected(pid.error());
  h.pid = *pid;
  auto merged = get_int(doc, "merged_segments", false);
  if (!merged) return std::unexpected(merged.error());
  h.merged_segments = *merged;
  if (const bj::value* v = doc.if_contains("spsa"); v && !v->is_null()) {
    auto spec = parse_spsa_spec(json::serialize(*v));
    if (!spec) return std::unexpected(spec.error());
    h.spsa = std::move(*spec);
  }
  if (const bj::value* v = doc.if_contains("rating_anchor"); v && v->is_object()) {
    h.rating_anchor = get_string(v->get_object(), "engine");
    auto elo = get_double(v->get_object(), "elo");
    if (!elo) return std::unexpected("rating_anchor: " + elo.error());
    h.rating_anchor_elo = *elo;
  }
  if (const bj::value* v = doc.if_contains("builds"); v && v->is_array())
    for (const bj::value& b : v->get_array()) {
      const bj::object* o = b.if_object();
      if (!o) return std::unexpected("\"builds\" must hold objects");
      EngineBuild build{get_string(*o, "engine"),
                        get_string(*o, "repo"),
                        get_string(*o, "ref"),
                        get_string(*o, "commit"),
                        false,
                        std::nullopt};
      if (const bj::value* d = o->if_contains("dirty"); d && d->is_bool()) build.dirty = d->get_bool();
      if (o->contains("bench") && !o->at("bench").is_null()) {
        auto bench = get_int(*o, "bench", true);
        if (!bench) return std::unexpected("builds: " + bench.error());
        build.bench = *bench;
      }
      h.builds.push_back(std::move(build));
    }
  if (const bj::value* v = doc.if_contains("scale_tc"); v && v->is_object()) {
    const bj::object& o = v->get_object();
    TimeScale t;
    t.engine = get_string(o, "engine");
    auto nps = get_double(o, "nps"), measured = get_double(o, "measured_nps"), factor = get_double(o, "factor");
    if (!nps || !measured || !factor) return std::unexpected("scale_tc: expected nps, measured_nps and factor");
    t.nps = *nps, t.measured_nps = *measured, t.factor = *factor;
    h.scale_tc = t;
  }
  if (const bj::value* v = doc.if_contains("shard"); v && v->is_object()) {
    auto index = get_int(v->get_object(), "index", true), count = get_int(v->get_object(), "count", true);
    if (!index || !count || *count < 1 || *index < 0 || *index >= *count)
      return std::unexpected("\"shard\" must be {\"index\":I,\"count\":N} with 0 <= I < N");
    h.shard = Shard{int(*index), int(*count)};
  }
  return h;
}

}  // namespace

std::string to_json(const JournalHeader& h) {
  bj::array engines;
  for (const std::string& e : h.engines) engines.emplace_back(e);
  bj::object doc;  // members in the order written
  doc.emplace("journal", 1);
  doc.emplace("type", h.type);
  doc.emplace("engines", std::move(engines));
  doc.emplace("games", h.games);
  doc.emplace("games_per_pair", h.games_per_pair);
  doc.emplace("schedule", h.schedule);
  if (h.sprt) {
    bj::object sprt;
    sprt.emplace("elo0", h.sprt->elo0);
    sprt.emplace("elo1", h.sprt->elo1);
    sprt.emplace("alpha", h.sprt->alpha);
    sprt.emplace("beta", h.sprt->beta);
    sprt.emplace("model", h.sprt->model == stats::EloModel::Logistic ? "logistic" : "normalized");
    doc.emplace("sprt", std::move(sprt));
  } else {
    doc.emplace("sprt", nullptr);
  }
  doc.emplace("created", h.created);
  if (h.identity) {
    // The settings as an object, not a string, so the header stays readable; re-serialized they hash the same.
    auto settings = json::parse(h.identity->settings);
    doc.emplace("settings", settings ? std::move(*settings) : bj::value(nullptr));
    doc.emplace("settings_sha256", h.identity->settings_sha256);
    bj::array files;
    for (const FileDigest& f : h.identity->files)
      files.emplace_back(bj::object{{"role", f.role}, {"path", f.path}, {"sha256", f.sha256}});
    doc.emplace("files", std::move(files));
  }
  if (!h.host.empty()) doc.emplace("host", h.host);
  if (h.pid != 0) doc.emplace("pid", h.pid);
  if (h.shard) doc.emplace("shard", bj::object{{"index", h.shard->index}, {"count", h.shard->count}});
  if (h.merged_segments > 0) doc.emplace("merged_segments", h.merged_segments);
  if (!h.rating_anchor.empty())
    doc.emplace("rating_anchor", bj::object{{"engine", h.rating_anchor}, {"elo", h.rating_anchor_elo}});
  if (!h.builds.empty()) doc.emplace("builds", builds_json(h.builds));
  if (h.scale_tc) doc.emplace("scale_tc", time_scale_json(h.scale_tc));
  if (h.spsa) {
    auto spec = json::parse(spsa_spec_json(*h.spsa));
    doc.emplace("spsa", spec ? std::move(*spec) : bj::value(nullptr));
  }
  return json::serialize(doc);
}

bj::value builds_json(const std::vector<EngineBuild>& builds) {
  bj::array out;
  for (const EngineBuild& b : builds) {
    bj::object o{{"engine", b.engine}};
    if (!b.repo.empty()) {
      o.emplace("repo", b.repo);
      o.emplace("ref", b.ref);
      o.emplace("commit", b.commit);
      o.emplace("dirty", b.dirty);
    }
    o.emplace("bench", b.bench ? bj::value(*b.bench) : bj::value(nullptr));
    out.emplace_back(std::move(o));
  }
  return out;
}

bj::value time_scale_json(const std::optional<TimeScale>& scale) {
  if (!scale) return nullptr;
  return bj::object{
      {"nps", scale->nps}, {"engine", scale->engine}, {"measured_nps", scale->measured_nps}, {"factor", scale->factor}};
}

std::string journal_line(const GameKey& key, const PlayedGame& game) {
  bj::object schedule;
  schedule.emplace("game", key.game);
  schedule.emplace("pair", key.pair);
  schedule.emplace("game_in_pair", key.game_in_pair);
  schedule.emplace("round", key.round);
  schedule.emplace("attempt", key.attempt);
  schedule.emplace("opening", key.opening);
  schedule.emplace("replay", key.replay);
  // The result object's members follow the schedule's: "{...schedule}" + "{...result}" -> "{...schedule,...result}".
  std::string out = json::serialize(schedule);
  out.back() = ',';
  std::string result = to_result_json(game);
  out.append(result, 1, std::string::npos);
  return out;
}

JournaledGame journaled(const GameKey& key, const PlayedGame& game) {
  JournaledGame j;
  j.line = journal_line(key, game);
  static_cast<GameKey&>(j.summary) = key;
  j.summary.black = game.names[shogi::BLACK];
  j.summary.white = game.names[shogi::WHITE];
  j.summary.outcome = game.result.outcome;
  j.summary.termination = game.result.termination;
  j.summary.detail = game.result.detail;
  j.summary.plies = int(game.moves.size());
  return j;
}

std::expected<JournalGame, std::string> parse_journal_game(std::string_view line) {
  auto parsed = json::parse(line);
  if (!parsed) return std::unexpected(parsed.error());
  return journal_game_of(*parsed);
}

std::expected<JournalGame, std::string> journal_game_of(const boost::json::value& line) {
  if (!line.is_object()) return std::unexpected("expected a JSON object");
  const bj::object& doc = line.get_object();
  JournalGame g;
  auto game = get_int(doc, "game", true), pair = get_int(doc, "pair", true),
       in_pair = get_int(doc, "game_in_pair", true), round = get_int(doc, "round", false),
       attempt = get_int(doc, "attempt", false), opening = get_int(doc, "opening", false);
  for (auto* r : {&game, &pair, &in_pair, &round, &attempt, &opening})
    if (!*r) return std::unexpected(r->error());
  if (*game < 0 || *pair < 0 || *in_pair < 0 || *in_pair > 1 || *attempt < 0)
    return std::unexpected("\"game\", \"pair\", \"game_in_pair\" or \"attempt\" out of range");
  g.game = *game, g.pair = *pair, g.game_in_pair = int(*in_pair), g.round = int(*round), g.attempt = int(*attempt);
  g.opening = int(*opening);
  if (const bj::value* r = doc.if_contains("replay"); r && r->is_bool()) g.replay = r->get_bool();
  g.black = get_string(doc, "black");
  g.white = get_string(doc, "white");
  if (g.black.empty() || g.white.empty()) return std::unexpected("\"black\" and \"white\" must name the engines");
  auto outcome = enum_from(get_string(doc, "result"), Outcome::None, Outcome::Draw);
  if (!outcome) return std::unexpected("\"result\" must be black, white, draw or none");
  auto termination = enum_from(get_string(doc, "termination"), Termination::None, Termination::Interrupted);
  if (!termination) return std::unexpected("\"termination\" has an unknown value");
  g.outcome = *outcome;
  g.termination = *termination;
  g.detail = get_string(doc, "detail");
  if (const bj::value* m = doc.if_contains("moves"); m && m->is_array()) g.plies = int(m->get_array().size());
  return g;
}

std::expected<JournalHeader, std::string> parse_journal_header(std::string_view line) {
  auto doc = json::parse(line);
  if (!doc) return std::unexpected(doc.error());
  auto h = parse_header(*doc);
  if (!h) return std::unexpected("header: " + h.error());
  return h;
}

std::string foreign_game(const JournalGame& g, const JournalHeader* header) {
  const std::string game = "game " + std::to_string(g.game + 1);  // numbered from 1, as resume and report say
  if (g.black == g.white) return game + " has '" + g.black + "' on both sides";
  if (!header) return {};
  if (header->games > 0 && g.game >= header->games)
    return game + " is beyond the run's " + std::to_string(header->games) + " games";
  if (header->engines.empty()) return {};  // journals before the header named them
  for (const std::string* name : {&g.black, &g.white}) {
    if (std::find(header->engines.begin(), header->engines.end(), *name) != header->engines.end()) continue;
    std::string list;
    for (const std::string& e : header->engines) list += (list.empty() ? "" : ", ") + e;
    return game + ": '" + *name + "' is not one of the run's engines (" + list + ")";
  }
  return {};
}

std::expected<JournalScan, std::string> scan_journal(const std::string& path, JournalVisitor& visitor,
                                                     bool with_lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot read the journal");
  JournalScan scan;
  std::optional<JournalHeader> header;
  bool any_game = false;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const bool complete = !in.eof();
    if (!complete) {
      // The final write was cut short (kill -9 or a full disk): that game was not finished as far as we know.
      scan.torn = true;
      scan.warnings.push_back(path + ":" + std::to_string(number) + ": incomplete last line ignored");
      break;
    }
    scan.valid_size += line.size() + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!header && !any_game && line.find("\"journal\"") != std::string::npos) {
      auto h = parse_journal_header(line);
      if (!h) return std::unexpected(where + h.error());
      header = std::move(*h);
      visitor.header(*header);
      continue;
    }
    const JournalHeader* known = header ? &*header : nullptr;
    if (is_spsa_pair_line(line)) {
      const size_t params = header && header->spsa ? header->spsa->params.size() : 0;
      auto pair = parse_spsa_pair_line(line, params, with_lines);
      if (!pair) return std::unexpected(where + pair.error());
      for (const JournalGame& g : pair->games)
        if (const std::string foreign = foreign_game(g, known); !foreign.empty())
          return std::unexpected(where + foreign);
      for (size_t i = 0; i < pair->games.size(); ++i)
        visitor.game(std::move(pair->games[i]), with_lines ? std::move(pair->game_lines[i]) : std::string());
      any_game = true;
      visitor.spsa_pair(std::move(pair->pair));
      continue;
    }
    auto g = parse_journal_game(line);
    if (!g) return std::unexpected(where + g.error());
    if (const std::string foreign = foreign_game(*g, known); !foreign.empty()) return std::unexpected(where + foreign);
    any_game = true;
    visitor.game(std::move(*g), with_lines ? std::move(line) : std::string());
  }
  return scan;
}

void JournalCollector::game(JournalGame&& g, std::string&& line) {
  contents_.games.push_back(std::move(g));
  if (keep_lines_) contents_.lines.push_back(std::move(line));
}

JournalContents JournalCollector::finish(JournalScan&& scan) && {
  contents_.warnings = std::move(scan.warnings);
  contents_.valid_size = scan.valid_size;
  contents_.torn = scan.torn;
  return std::move(contents_);
}

std::expected<JournalContents, std::string> read_journal(const std::string& path, bool keep_lines) {
  JournalCollector collector(keep_lines);
  auto scan = scan_journal(path, collector, keep_lines);
  if (!scan) return std::unexpected(scan.error());
  return std::move(collector).finish(std::move(*scan));
}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) ::close(fd_);
}

JournalWriter::JournalWriter(JournalWriter&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

std::expected<JournalWriter, std::string> JournalWriter::create(const std::string& path, const JournalHeader& header,
                                                                bool exclusive) {
  JournalWriter w;
  w.path_ = path;
  w.fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC) | O_APPEND | O_CLOEXEC, 0644);
  if (w.fd_ < 0) return sys_error("cannot create the journal", path);
  if (auto r = w.append(to_json(header)); !r) return std::unexpected(r.error());
  // The new name must survive a crash of the node too, or the games appended to it could vanish with it.
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = std::filesystem::path(".");
  if (int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
  return w;
}

std::expected<JournalWriter, std::string> JournalWriter::append_to(const std::string& path, uint64_t valid_size) {
  JournalWriter w;
  w.path_ = path;
  w.fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (w.fd_ < 0) return sys_error("cannot open the journal", path);
  struct stat st {};
  if (::fstat(w.fd_, &st) != 0) return sys_error("cannot stat the journal", path);
  if (uint64_t(st.st_size) > valid_size && ::ftruncate(w.fd_, off_t(valid_size)) != 0)
    return sys_error("cannot cut the torn last line", path);
  return w;
}

std::expected<void, std::string> JournalWriter::append(std::string_view line) {
  std::string buf;
  buf.reserve(line.size() + 1);
  buf.append(line);
  buf += '\n';
  size_t written = 0;
  while (written < buf.size()) {
    ssize_t n = ::write(fd_, buf.data() + written, buf.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return sys_error("cannot write the journal", path_);
    }
    written += size_t(n);
  }
  return sync();
}

std::expected<void, std::string> JournalWriter::sync() {
  while (::fdatasync(fd_) != 0) {
    if (errno == EINVAL) break;  // a file that cannot be synced (a pipe, /dev/stdout): nothing to wait for
    if (errno != EINTR) return sys_error("cannot sync the journal", path_);
  }
  return {};
}

}  // namespace arena::journal

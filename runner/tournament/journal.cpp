#include "tournament/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "output/json.h"
#include "output/result_json.h"

namespace arena::tournament {

namespace {

std::string number(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::unexpected<std::string> sys_error(const std::string& what, const std::string& path) {
  return std::unexpected(path + ": " + what + ": " + std::strerror(errno));
}

const json::Value* member(const json::Value& doc, std::string_view key) { return doc.find(key); }

// "\"key\" what", built piecewise (GCC 12 warns falsely, -Wrestrict, about literal + string + literal).
std::string field(std::string_view key, std::string_view what) {
  std::string s = "\"";
  s += key;
  s += "\" ";
  s += what;
  return s;
}

std::expected<int64_t, std::string> get_int(const json::Value& doc, std::string_view key, bool required,
                                            int64_t fallback = 0) {
  const json::Value* v = member(doc, key);
  if (!v || v->is_null()) {
    if (required) return std::unexpected(field(key, "is missing"));
    return fallback;
  }
  if (const int64_t* i = v->as_int()) return *i;
  return std::unexpected(field(key, "must be an integer"));
}

std::expected<double, std::string> get_double(const json::Value& doc, std::string_view key) {
  const json::Value* v = member(doc, key);
  if (!v) return std::unexpected(field(key, "is missing"));
  if (const int64_t* i = v->as_int()) return double(*i);
  if (const double* d = std::get_if<double>(&v->data)) return *d;
  return std::unexpected(field(key, "must be a number"));
}

std::string get_string(const json::Value& doc, std::string_view key) {
  const json::Value* v = member(doc, key);
  const std::string* s = v ? v->as_string() : nullptr;
  return s ? *s : std::string();
}

template <typename E>
std::optional<E> enum_from(std::string_view text, E first, E last) {
  for (int i = int(first); i <= int(last); ++i)
    if (to_string(E(i)) == text) return E(i);
  return std::nullopt;
}

std::expected<JournalHeader, std::string> parse_header(const json::Value& doc) {
  JournalHeader h;
  if (auto v = get_int(doc, "journal", true); !v || *v != 1) return std::unexpected("unsupported journal version");
  h.type = get_string(doc, "type");
  if (const json::Value* e = member(doc, "engines"); e && e->as_array())
    for (const json::Value& n : *e->as_array())
      if (const std::string* s = n.as_string()) h.engines.push_back(*s);
  auto games = get_int(doc, "games", true);
  if (!games) return std::unexpected(games.error());
  h.games = *games;
  auto gpp = get_int(doc, "games_per_pair", false, 2);
  if (!gpp || (*gpp != 1 && *gpp != 2)) return std::unexpected("\"games_per_pair\" must be 1 or 2");
  h.games_per_pair = int(*gpp);
  h.schedule = get_string(doc, "schedule");
  h.created = get_string(doc, "created");
  if (const json::Value* s = member(doc, "sprt"); s && s->as_object()) {
    stats::SprtConfig c;
    auto e0 = get_double(*s, "elo0"), e1 = get_double(*s, "elo1"), a = get_double(*s, "alpha"),
         b = get_double(*s, "beta");
    for (auto* r : {&e0, &e1, &a, &b})
      if (!*r) return std::unexpected("sprt: " + r->error());
    c.elo0 = *e0, c.elo1 = *e1, c.alpha = *a, c.beta = *b;
    c.model = get_string(*s, "model") == "logistic" ? stats::EloModel::Logistic : stats::EloModel::Normalized;
    h.sprt = c;
  }
  return h;
}

}  // namespace

std::string to_json(const JournalHeader& h) {
  std::string out = "{\"journal\":1,\"type\":";
  json::append_string(out, h.type);
  out += ",\"engines\":[";
  for (size_t i = 0; i < h.engines.size(); ++i) {
    if (i) out += ',';
    json::append_string(out, h.engines[i]);
  }
  out += "],\"games\":" + std::to_string(h.games) + ",\"games_per_pair\":" + std::to_string(h.games_per_pair) +
         ",\"schedule\":";
  json::append_string(out, h.schedule);
  out += ",\"sprt\":";
  if (h.sprt) {
    out += "{\"elo0\":" + number(h.sprt->elo0) + ",\"elo1\":" + number(h.sprt->elo1) +
           ",\"alpha\":" + number(h.sprt->alpha) + ",\"beta\":" + number(h.sprt->beta) + ",\"model\":\"" +
           (h.sprt->model == stats::EloModel::Logistic ? "logistic" : "normalized") + "\"}";
  } else {
    out += "null";
  }
  out += ",\"created\":";
  json::append_string(out, h.created);
  out += '}';
  return out;
}

std::string journal_line(const ScheduledGame& s, int attempt, bool replay, const PlayedGame& game) {
  std::string out = "{\"game\":" + std::to_string(s.index) + ",\"pair\":" + std::to_string(s.pair) +
                    ",\"game_in_pair\":" + std::to_string(s.game_in_pair) + ",\"round\":" + std::to_string(s.round) +
                    ",\"attempt\":" + std::to_string(attempt) + ",\"opening\":" + std::to_string(s.opening) +
                    ",\"replay\":" + (replay ? "true" : "false") + ",";
  std::string result = to_result_json(game);
  out.append(result, 1, std::string::npos);  // the result object's members follow the schedule's
  return out;
}

std::expected<JournalGame, std::string> parse_journal_game(std::string_view line) {
  auto doc = json::parse(line);
  if (!doc) return std::unexpected(doc.error());
  if (!doc->as_object()) return std::unexpected("expected a JSON object");
  JournalGame g;
  auto game = get_int(*doc, "game", true), pair = get_int(*doc, "pair", true),
       in_pair = get_int(*doc, "game_in_pair", true), attempt = get_int(*doc, "attempt", false),
       opening = get_int(*doc, "opening", false);
  for (auto* r : {&game, &pair, &in_pair, &attempt, &opening})
    if (!*r) return std::unexpected(r->error());
  if (*game < 0 || *pair < 0 || *in_pair < 0 || *in_pair > 1 || *attempt < 0)
    return std::unexpected("\"game\", \"pair\", \"game_in_pair\" or \"attempt\" out of range");
  g.game = *game, g.pair = *pair, g.game_in_pair = int(*in_pair), g.attempt = int(*attempt), g.opening = int(*opening);
  if (const json::Value* r = member(*doc, "replay"); r && r->as_bool()) g.replay = *r->as_bool();
  g.black = get_string(*doc, "black");
  g.white = get_string(*doc, "white");
  if (g.black.empty() || g.white.empty()) return std::unexpected("\"black\" and \"white\" must name the engines");
  auto outcome = enum_from(get_string(*doc, "result"), Outcome::None, Outcome::Draw);
  if (!outcome) return std::unexpected("\"result\" must be black, white, draw or none");
  auto termination = enum_from(get_string(*doc, "termination"), Termination::None, Termination::Interrupted);
  if (!termination) return std::unexpected("\"termination\" has an unknown value");
  g.outcome = *outcome;
  g.termination = *termination;
  g.detail = get_string(*doc, "detail");
  if (const json::Value* m = member(*doc, "moves"); m && m->as_array()) g.plies = int(m->as_array()->size());
  return g;
}

std::expected<JournalContents, std::string> read_journal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot read the journal");
  JournalContents c;
  std::string line;
  int number = 0;
  uint64_t offset = 0;
  while (std::getline(in, line)) {
    ++number;
    const bool complete = !in.eof();
    if (!complete) {
      // The final write was cut short (kill -9 or a full disk): that game was not finished as far as we know.
      c.torn = true;
      c.warnings.push_back(path + ":" + std::to_string(number) + ": incomplete last line ignored");
      break;
    }
    offset += line.size() + 1;
    c.valid_size = offset;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!c.header && c.games.empty() && line.find("\"journal\"") != std::string::npos) {
      auto doc = json::parse(line);
      if (!doc) return std::unexpected(where + doc.error());
      auto h = parse_header(*doc);
      if (!h) return std::unexpected(where + "header: " + h.error());
      c.header = std::move(*h);
      continue;
    }
    auto g = parse_journal_game(line);
    if (!g) return std::unexpected(where + g.error());
    c.games.push_back(std::move(*g));
  }
  return c;
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

std::expected<JournalWriter, std::string> JournalWriter::create(const std::string& path, const JournalHeader& header) {
  JournalWriter w;
  w.path_ = path;
  w.fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (w.fd_ < 0) return sys_error("cannot create the journal", path);
  if (auto r = w.append(to_json(header)); !r) return std::unexpected(r.error());
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
  return {};
}

std::expected<ResumePlan, std::string> ResumePlan::make(const std::vector<JournalGame>& games, const Schedule& schedule,
                                                        const std::vector<std::string>& names) {
  ResumePlan plan;
  for (const JournalGame& g : games) {
    const std::string what = "journal game " + std::to_string(g.game + 1);
    if (g.game >= schedule.games())
      return std::unexpected(what + " is beyond the schedule's " + std::to_string(schedule.games()) + " games");
    ScheduledGame s = schedule.game(g.game);
    if (g.pair != s.pair || g.game_in_pair != s.game_in_pair)
      return std::unexpected(what + ": its pair does not match the schedule");
    if (g.black != names[size_t(s.black)] || g.white != names[size_t(s.white)])
      return std::unexpected(what + " was " + g.black + " vs " + g.white + " but the schedule says " +
                             names[size_t(s.black)] + " vs " + names[size_t(s.white)]);
    PairProgress& p = plan.pairs_[g.pair];
    if (g.attempt < p.attempt) {
      plan.warnings_.push_back(what + ": a game of a replayed attempt of its pair, ignored");
      continue;
    }
    if (g.attempt > p.attempt) p = PairProgress{g.attempt, {false, false}};
    if (g.replay) {
      p = PairProgress{g.attempt + 1, {false, false}};
      continue;
    }
    if (p.done[g.game_in_pair]) {
      plan.warnings_.push_back(what + " appears twice; the first is kept");
      continue;
    }
    p.done[g.game_in_pair] = true;
  }
  for (const auto& [pair, p] : plan.pairs_) plan.games_done_ += int64_t(p.done[0]) + int64_t(p.done[1]);
  return plan;
}

PairProgress ResumePlan::pair(int64_t pair) const {
  auto it = pairs_.find(pair);
  return it == pairs_.end() ? PairProgress{} : it->second;
}

}  // namespace arena::tournament

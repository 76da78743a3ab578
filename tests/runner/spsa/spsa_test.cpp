// SPSA without games: the gain schedules against hand-computed values, the params file and --param forms, the
// stochastic rounding, the tuner's draws and updates with several pairs in flight, and the pair's journal line.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "config/spsa_params.h"
#include "config/values.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "journal/spsa_pair.h"
#include "spsa/applier.h"
#include "spsa/console.h"
#include "spsa/tuner.h"
#include "stats/spsa.h"
#include "support/temp_dir.h"

using namespace arena;
using test_support::TempDir;

namespace {

stats::SpsaParam param(std::string name, double start, double min, double max, double c_end, double r_end = 0.002,
                       bool integer = true) {
  stats::SpsaParam p;
  p.name = std::move(name);
  p.integer = integer;
  p.start = start, p.min = min, p.max = max, p.c_end = c_end, p.r_end = r_end;
  return p;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `line` with every "from" (the quoted engine name) made "to": a pair or game line of a run with other engines.
std::string engine_renamed(std::string line, const std::string& from, const std::string& to) {
  const std::string quoted_from = '"' + from + '"', quoted_to = '"' + to + '"';
  for (size_t at; (at = line.find(quoted_from)) != std::string::npos;) line.replace(at, quoted_from.size(), quoted_to);
  return line;
}

}  // namespace

TEST_CASE("schedule: c_k and a_k as fishtest computes them, c_N = c_end and a_N = r_end * c_end^2") {
  const stats::SpsaParam p = param("X", 0, -100, 100, 4, 0.002);
  stats::SpsaSchedule s;
  s.iterations = 1000;  // A = 100
  // Computed by hand: c = 4 * 1000^0.101, a = 0.002 * 4^2 * 1100^0.602.
  CHECK(stats::spsa_c(p, s, 1) == doctest::Approx(8.036371250434913).epsilon(1e-12));
  CHECK(stats::spsa_c(p, s, 10) == doctest::Approx(6.368834908204681).epsilon(1e-12));
  CHECK(stats::spsa_c(p, s, 500) == doctest::Approx(4.29006646727177).epsilon(1e-12));
  CHECK(stats::spsa_c(p, s, 1000) == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(stats::spsa_a(p, s, 1) == doctest::Approx(0.13473080596845086).epsilon(1e-12));
  CHECK(stats::spsa_a(p, s, 10) == doctest::Approx(0.1279823199235512).epsilon(1e-12));
  CHECK(stats::spsa_a(p, s, 500) == doctest::Approx(0.0460915509461433).epsilon(1e-12));
  CHECK(stats::spsa_a(p, s, 1000) == doctest::Approx(0.032).epsilon(1e-12));

  // One update: theta + (a_k / c_k) * result * delta, clamped to the range.
  const std::vector<stats::SpsaParam> ps = {p, param("Y", 95, 0, 100, 4)};
  const auto after = stats::spsa_update(ps, s, 10, {0, 95}, {1, 1}, 2);
  const double step = 0.1279823199235512 / 6.368834908204681 * 2;
  CHECK(after[0] == doctest::Approx(step));
  CHECK(after[1] == doctest::Approx(95 + step));
  CHECK(stats::spsa_update(ps, s, 1, {0, 100}, {-1, 1}, 2)[1] == 100);  // clamped
  const auto plus = stats::spsa_side(ps, s, 1000, {0, 98}, {1, 1}, +1);
  CHECK(plus[0] == doctest::Approx(4));
  CHECK(plus[1] == 100);  // 98 + 4, clamped
}

TEST_CASE("stochastic rounding: its mean is the value itself, within the range") {
  const stats::SpsaParam p = param("X", 0, 0, 10, 1);
  for (double x : {3.3, 0.75, 9.999, 7.0}) {
    double sum = 0;
    const int n = 10000;
    for (int i = 0; i < n; ++i) sum += double(stats::stochastic_round(p, x, (i + 0.5) / n));
    CHECK(sum / n == doctest::Approx(x).epsilon(1e-4));
  }
  CHECK(stats::stochastic_round(p, 3.3, 0.2) == 4);  // u below the fraction: up
  CHECK(stats::stochastic_round(p, 3.3, 0.4) == 3);
  CHECK(stats::stochastic_round(p, 10.4, 0.0) == 10);  // never outside [min, max]
}

TEST_CASE("params: fishtest's lines as Stockfish's TUNE prints them, OpenBench's typed ones, errors naming the line") {
  auto ps = config::parse_spsa_params(
      "# tuned 2026-11\n"
      "Futility,int,100,50,200,7.5,0.0020\n"
      "\n"
      "  Lmr , float , 1.5 , 0.5 , 3 , 0.15   # the reduction's scale\n"
      "// a C-style comment line\n"
      "Razor,int,300,0,600,30\n",
      "p.txt");
  REQUIRE_MESSAGE(ps, (ps ? "" : ps.error()));
  REQUIRE(ps->size() == 3);
  CHECK((*ps)[0].name == "Futility");
  CHECK((*ps)[0].integer);
  CHECK((*ps)[0].c_end == 7.5);
  CHECK((*ps)[0].r_end == 0.002);
  CHECK((*ps)[1].name == "Lmr");
  CHECK_FALSE((*ps)[1].integer);
  CHECK((*ps)[1].start == 1.5);
  CHECK((*ps)[2].r_end == 0.002);  // left out: the default

  // Stockfish's (and YaneuraOu's) TUNE prints no type: int when start, min and max are whole.
  auto tune = config::parse_spsa_params(
      "FutilityMargin,150,0,300,15,0.0020\n"
      "Reduction,1.25,0.5,3,0.125,0.0020\n"
      "Razor,300,0,600,30\n",
      "tune.txt");
  REQUIRE_MESSAGE(tune, (tune ? "" : tune.error()));
  REQUIRE(tune->size() == 3);
  CHECK((*tune)[0].name == "FutilityMargin");
  CHECK((*tune)[0].integer);
  CHECK((*tune)[0].start == 150);
  CHECK((*tune)[0].max == 300);
  CHECK((*tune)[0].c_end == 15);
  CHECK((*tune)[0].r_end == 0.002);
  CHECK_FALSE((*tune)[1].integer);
  CHECK((*tune)[1].c_end == 0.125);
  CHECK((*tune)[2].integer);
  CHECK((*tune)[2].r_end == 0.002);

  auto error = [](std::string_view text) {
    auto r = config::parse_spsa_params(text, "p.txt");
    REQUIRE_FALSE(r);
    return r.error();
  };
  CHECK(error("A,int,1,0,10,1\nB,int,5,0\n") ==
        "p.txt:2: expected name,start,min,max,c_end[,r_end] or name,int|float,start,min,max,c_end[,r_end], got "
        "'B,int,5,0'");
  CHECK(error("A,double,1,0,10,1\n").starts_with("p.txt:1: expected name,start,min,max"));
  CHECK(error("A,1,0,10\n").starts_with("p.txt:1: expected name,start,min,max"));
  CHECK(error("A,1,0,10,1,0.002,7\n").starts_with("p.txt:1: expected name,start,min,max"));
  CHECK(error("A,11,0,10,1\n") == "p.txt:1: A: start 11 is outside [0, 10]");
  CHECK(error("A,int,11,0,10,1\n") == "p.txt:1: A: start 11 is outside [0, 10]");
  CHECK(error("A,int,1,10,0,1\n") == "p.txt:1: A: min 10 must be below max 0");
  CHECK(error("A,int,1,0,10,0\n") == "p.txt:1: A: c_end must be above 0");
  CHECK(error("MultiPV,int,1.5,1,4,1\n") == "p.txt:1: MultiPV: an int parameter needs a whole start, min and max");
  CHECK(error("A,int,1,0,10,x\n") == "p.txt:1: A: c_end must be a number, not 'x'");
  CHECK(error("A,int,1,0,10,1\na,int,2,0,10,1\n") == "p.txt:2: a: the parameter is given twice");
  CHECK(error("# nothing\n") ==
        "p.txt: no parameters (expected lines name,start,min,max,c_end,r_end or name,int,start,...)");

  auto opt = config::parse_spsa_param_option("X=20,0,100,6,0.05");
  REQUIRE(opt);
  CHECK(opt->integer);
  CHECK(opt->r_end == 0.05);
  auto flt = config::parse_spsa_param_option("Scale=1.5,0.5,3,0.1");
  REQUIRE(flt);
  CHECK_FALSE(flt->integer);
  CHECK(config::parse_spsa_param_option("X=20,0,100").error() ==
        "expected NAME=START,MIN,MAX,C_END[,R_END], got 'X=20,0,100'");
  CHECK(config::spsa_param_line(*opt, 58) == "X,int,58,0,100,6,0.05");

  TempDir dir("spsa-params");
  CHECK(config::load_spsa_params((dir.path / "none.txt").string()).error().ends_with("cannot read the params file"));
}

TEST_CASE("tuner: pair k's draws depend on the seed and k only; integers are sent whole") {
  const std::vector<stats::SpsaParam> ps = {param("X", 20, 0, 100, 6, 0.05), param("S", 1.5, 0.5, 3, 0.2, 0.05, false)};
  stats::SpsaSchedule s;
  s.iterations = 300;
  spsa::Tuner a(ps, s, 7, {true, false}), b(ps, s, 7, {true, false}), other(ps, s, 8, {true, false});
  bool differs = false;
  for (int64_t k = 1; k <= 20; ++k) {
    const journal::SpsaPair pa = a.dispatch(k), pb = b.dispatch(k);
    CHECK(pa.delta == pb.delta);
    CHECK(pa.plus == pb.plus);
    CHECK(pa.minus == pb.minus);
    differs |= other.dispatch(k).delta != pa.delta;
    CHECK(pa.plus[0] == std::floor(pa.plus[0]));  // sent as a whole number
    // Within a rounding of theta +/- c_k * delta.
    const double c = stats::spsa_c(ps[0], s, k);
    CHECK(std::fabs(pa.plus[0] - (20 + c * pa.delta[0])) < 1);
    CHECK(std::fabs(pa.minus[0] - (20 - c * pa.delta[0])) < 1);
    CHECK(pa.plus[1] == doctest::Approx(1.5 + stats::spsa_c(ps[1], s, k) * pa.delta[1]));  // a float as it is
  }
  CHECK(differs);
  const auto options = a.options({55, 1.25});
  CHECK(options == std::vector<std::pair<std::string, std::string>>{{"X", "55"}, {"S", "1.25"}});
}

TEST_CASE("tuned params file: START is the value sent, whole for a spin option's float parameter") {
  const std::vector<stats::SpsaParam> ps = {param("X", 20, 0, 100, 6, 0.05),
                                            param("S", 1.5, 0.5, 30, 0.2, 0.05, false),   // a spin option's
                                            param("F", 1.5, 0.5, 30, 0.2, 0.05, false)};  // a string option's
  stats::SpsaSchedule s;
  s.iterations = 10;
  spsa::Tuner t(ps, s, 5, {true, true, false});
  for (int64_t k = 1; k <= 10; ++k) {
    journal::SpsaPair p = t.dispatch(k);
    p.result = 2;
    t.apply(p);
  }
  REQUIRE(t.theta()[1] != std::round(t.theta()[1]));
  const std::string file = spsa::tuned_params_file(t);
  const std::vector<double> sent = t.final_values();
  CHECK(contains(file, "\n" + config::spsa_param_line(ps[0], sent[0]) + "\n"));
  // Before, S's line held theta's fraction, and params=FILE then sent a decimal the spin option refuses.
  CHECK(contains(file, "\nS,float," + config::number_text(std::round(t.theta()[1])) + ",0.5,30,"));
  CHECK(contains(file, "\n" + config::spsa_param_line(ps[2], t.theta()[2]) + "\n"));
  CHECK(t.theta()[2] != std::round(t.theta()[2]));
}

TEST_CASE("tuner: pairs in flight are applied with their own k and signs, in the order they arrive") {
  const std::vector<stats::SpsaParam> ps = {param("X", 50, 0, 100, 4, 0.05), param("Y", 50, 0, 100, 4, 0.05)};
  stats::SpsaSchedule s;
  s.iterations = 100;
  spsa::Tuner t(ps, s, 3, {true, true});
  // Both dispatched from theta = (50, 50); pair 2 arrives first.
  journal::SpsaPair p1 = t.dispatch(1), p2 = t.dispatch(2);
  p1.result = 2;
  p2.result = -1;
  t.apply(p2);
  t.apply(p1);
  std::vector<double> expected = {50, 50};
  for (const journal::SpsaPair* p : {&p2, &p1})
    for (size_t i = 0; i < 2; ++i)
      expected[i] += stats::spsa_a(ps[i], s, p->k) / stats::spsa_c(ps[i], s, p->k) * p->result * p->delta[i];
  CHECK(t.theta()[0] == doctest::Approx(expected[0]));
  CHECK(t.theta()[1] == doctest::Approx(expected[1]));
  REQUIRE(p1.theta);
  CHECK(*p1.theta == t.theta());  // each pair carries theta after its own update
}

TEST_CASE("journal: a pair's line holds its draws, theta and both games, and reads back") {
  journal::SpsaPair p;
  p.k = 12;
  p.delta = {1, -1};
  p.plus = {55, 1.25};
  p.minus = {45, 1.75};
  p.result = -1;
  p.theta = std::vector<double>{49.75, 1.5000000000000002};
  const std::string g0 = R"({"game":22,"pair":11,"game_in_pair":0,"round":11,"attempt":0,"opening":3,"replay":false,)"
                         R"("version":1,"black":"e+","white":"e-","start_sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/)"
                         R"(PPPPPPPPP/1B5R1/LNSGKGSNL b - 1","moves":[],"result":"white","termination":"resign"})";
  std::string g1 = g0;
  g1.replace(g1.find("\"game\":22"), 9, "\"game\":23");
  g1.replace(g1.find("\"game_in_pair\":0"), 16, "\"game_in_pair\":1");
  const std::string line = journal::spsa_pair_line(p, g0, g1);
  CHECK(line.starts_with(R"({"spsa_pair":12,"delta":[1,-1],"plus":[55,1.25],"minus":[45,1.75],"result":-1,)"
                         R"("theta":[49.75,1.5000000000000002],"games":[{"game":22,)"));
  CHECK(journal::is_spsa_pair_line(line));
  auto back = journal::parse_spsa_pair_line(line, 2, true);
  REQUIRE_MESSAGE(back, (back ? "" : back.error()));
  REQUIRE(back->games.size() == 2);
  CHECK(back->games[1].game == 23);
  CHECK(back->games[0].outcome == Outcome::WhiteWin);
  CHECK(back->pair.k == 12);
  CHECK(back->pair.delta == p.delta);
  CHECK(back->pair.plus == p.plus);
  CHECK(*back->pair.theta == *p.theta);  // doubles exactly: a resumed run continues from the same theta
  REQUIRE(back->game_lines.size() == 2);
  CHECK(back->game_lines[0] == g0);  // spliced in and read back as written
  CHECK(contains(back->game_lines[1], "\"game\":23"));
  CHECK(journal::parse_spsa_pair_line(line, 2)->game_lines.empty());  // only when asked for
  CHECK(journal::parse_spsa_pair_line(line, 3).error() == "\"delta\" must be an array of 3 signs");
  // Games of another pair, or in the wrong order: before, theta was updated with them.
  const std::string swapped = journal::spsa_pair_line(p, g1, g0);
  CHECK(journal::parse_spsa_pair_line(swapped, 2).error() ==
        "\"games\" must be the run's games 23 and 24, in that order");
  journal::SpsaPair p13 = p;
  p13.k = 13;
  CHECK(journal::parse_spsa_pair_line(journal::spsa_pair_line(p13, g0, g1), 2).error() ==
        "\"games\" must be the run's games 25 and 26, in that order");

  // In a journal: the header's specification, the pairs, and their games among the journal's games.
  journal::JournalHeader h;
  h.type = "spsa";
  h.engines = {"e+", "e-"};
  h.games = 24;
  // S is a float parameter of a spin option: sent whole, and the journal says so.
  h.spsa =
      journal::SpsaSpec{"e", {param("X", 50, 0, 100, 4), param("S", 1.5, 0.5, 3, 0.2, 0.002, false)}, {}, 9, {true, true}};
  h.spsa->schedule.iterations = 12;
  TempDir dir("spsa-journal");
  const std::string path = dir.file("journal.jsonl", journal::to_json(h) + "\n" + line + "\n");
  auto c = journal::read_journal(path, true);
  REQUIRE_MESSAGE(c, (c ? "" : c.error()));
  REQUIRE(c->header->spsa);
  CHECK(c->header->spsa->params[1].name == "S");
  CHECK_FALSE(c->header->spsa->params[1].integer);
  CHECK(c->header->spsa->seed == 9);
  CHECK(c->header->spsa->schedule.iterations == 12);
  CHECK(c->header->spsa->whole(1));
  // A journal of an older version says nothing of it: int parameters were sent whole, floats as decimals.
  std::string old_header = journal::to_json(h);
  for (const char* sent : {R"(,"sent":"whole")", R"(,"sent":"decimal")"})
    for (size_t at; (at = old_header.find(sent)) != std::string::npos;) old_header.erase(at, std::string(sent).size());
  auto old = journal::parse_journal_header(old_header);
  REQUIRE_MESSAGE(old, (old ? "" : old.error()));
  CHECK(old->spsa->whole(0));
  CHECK_FALSE(old->spsa->whole(1));
  REQUIRE(c->spsa_pairs.size() == 1);
  CHECK(c->spsa_pairs[0].result == -1);
  REQUIRE(c->games.size() == 2);
  CHECK(c->games[1].game == 23);
  CHECK(c->games[0].outcome == Outcome::WhiteWin);
  CHECK(c->lines.size() == 2);

  std::ofstream(path, std::ios::app) << R"({"spsa_pair":13,"delta":[1],"plus":[1],"minus":[1],"result":0})"
                                     << "\n";
  auto broken = journal::read_journal(path);
  REQUIRE_FALSE(broken);
  CHECK(broken.error() == path + ":3: \"delta\" must be an array of 2 signs");

  // A pair whose games name an engine the header does not: refused like a tournament's game line.
  const std::string stranger = engine_renamed(line, "e-", "x-");
  dir.file("journal.jsonl", journal::to_json(h) + "\n" + stranger + "\n");
  auto foreign = journal::read_journal(path);
  REQUIRE_FALSE(foreign);
  CHECK(foreign.error() == path + ":2: game 23: 'x-' is not one of the run's engines (e+, e-)");
}

namespace {

// The header of a coordinator's SPSA run of one parameter X over 4 pairs, and a shard's pair lines: pair k with
// its two games (black wins both) and the result given.
struct ApplierRun {
  journal::JournalHeader header;
  spsa::Tuner tuner;
  ApplierRun() : header(make_header()), tuner(header.spsa->params, header.spsa->schedule, 1, {true}) {}
  // The header of shard 0 of 1, whose single segment is `segment`.
  static constexpr const char* segment = "segments/shard-0-of-1.20261126T000000Z.a.1.jsonl";
  journal::JournalHeader one_shard_header() const {
    journal::JournalHeader h = header;
    h.shard = journal::Shard{0, 1};
    return h;
  }
  static journal::JournalHeader make_header() {
    journal::JournalHeader h;
    h.type = "spsa";
    h.engines = {"e+", "e-"};
    h.games = 8;
    h.schedule = "0123456789abcdef";
    h.spsa = journal::SpsaSpec{"e", {param("X", 50, 0, 100, 4, 0.05)}, {}, 1, {true}};
    h.spsa->schedule.iterations = 4;
    return h;
  }
  static std::string game(int64_t k, int g) {
    return R"({"game":)" + std::to_string(2 * (k - 1) + g) + R"(,"pair":)" + std::to_string(k - 1) +
           R"(,"game_in_pair":)" + std::to_string(g) +
           R"(,"version":1,"black":"e+","white":"e-","start_sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/)"
           R"(LNSGKGSNL b - 1","moves":[],"result":"black","termination":"resign"})";
  }
  std::string pair_line(int64_t k, double result) {
    journal::SpsaPair p = tuner.dispatch(k);
    p.result = result;
    return journal::spsa_pair_line(p, game(k, 0), game(k, 1));
  }
};

}  // namespace

TEST_CASE("applier: each pair of the shards' segments applied once, theta published, a restart continues") {
  TempDir dir("spsa-applier");
  const std::string out = dir.path.string();
  std::filesystem::create_directories(dir.path / "segments");
  ApplierRun run;
  const journal::JournalHeader& h = run.header;
  spsa::Tuner& shard_tuner = run.tuner;
  auto pair_line = [&](int64_t k, double result) { return run.pair_line(k, result); };
  journal::JournalHeader h0 = h, h1 = h;
  h0.shard = journal::Shard{0, 2};
  h1.shard = journal::Shard{1, 2};
  // Shard 0 journaled pairs 1 and 3; shard 1 pair 2, and a requeued copy of it pair 2 again.
  dir.file("segments/shard-0-of-2.20261126T000000Z.a.1.jsonl",
           journal::to_json(h0) + "\n" + pair_line(1, 2) + "\n" + pair_line(3, -1) + "\n");
  dir.file("segments/shard-1-of-2.20261126T000000Z.a.2.jsonl", journal::to_json(h1) + "\n" + pair_line(2, 1) + "\n");
  dir.file("segments/shard-1-of-2.20261126T000100Z.a.3.jsonl", journal::to_json(h1) + "\n" + pair_line(2, -2) + "\n");

  auto a = spsa::Applier::open(out, h0);
  REQUIRE_MESSAGE(a, (a ? "" : a.error()));
  auto published = spsa::read_published_theta(out, 1);
  REQUIRE(published);
  CHECK(published->applied == 0);
  CHECK(published->theta == std::vector<double>{50});
  std::vector<std::string> warnings;
  auto applied = (*a)->poll(warnings);
  REQUIRE(applied);
  CHECK(*applied == 3);  // pair 2's second copy is left out
  CHECK(warnings.empty());
  // By hand: the pairs in the order read (shard 0's file first), each with its own k and sign.
  spsa::Tuner by_hand(h.spsa->params, h.spsa->schedule, 1, {true});
  for (auto [k, result] : {std::pair<int64_t, double>{1, 2}, {3, -1}, {2, 1}}) {
    journal::SpsaPair p = shard_tuner.dispatch(k);
    p.result = result;
    by_hand.apply(p);
  }
  CHECK((*a)->theta() == by_hand.theta());
  published = spsa::read_published_theta(out, 1);
  REQUIRE(published);
  CHECK(published->applied == 3);
  CHECK(published->theta == by_hand.theta());
  CHECK_FALSE((*a)->complete());

  // A restarted coordinator continues from its journal: nothing applied twice, the last pair when it comes.
  a->reset();
  auto again = spsa::Applier::open(out, h0);
  REQUIRE_MESSAGE(again, (again ? "" : again.error()));
  CHECK((*again)->applied() == 3);
  CHECK((*again)->theta() == by_hand.theta());
  CHECK(*(*again)->poll(warnings) == 0);
  std::ofstream(dir.path / "segments/shard-1-of-2.20261126T000100Z.a.3.jsonl", std::ios::app)
      << pair_line(4, 0) << "\n";
  CHECK(*(*again)->poll(warnings) == 1);
  CHECK((*again)->complete());
  auto journal = journal::read_journal(spsa::applied_path(out));
  REQUIRE(journal);
  REQUIRE(journal->spsa_pairs.size() == 4);
  CHECK(journal->spsa_pairs[3].k == 4);
  CHECK(journal->games.size() == 8);
}

TEST_CASE("applier: a segment line that cannot be read is an error naming it; opened anew, nothing is applied twice") {
  TempDir dir("spsa-applier-damage");
  const std::string out = dir.path.string();
  std::filesystem::create_directories(dir.path / "segments");
  ApplierRun run;
  const journal::JournalHeader h = run.one_shard_header();
  auto pair_line = [&](int64_t k, double result) { return run.pair_line(k, result); };
  const std::string segment = ApplierRun::segment;
  dir.file(segment, journal::to_json(h) + "\n" + pair_line(1, 2) + "\n" +
                        R"({"spsa_pair":2,"delta":[1],"plus":[52],"minus":[48],"result":1,"games":[]})" + "\n" +
                        pair_line(3, -1) + "\n");
  auto a = spsa::Applier::open(out, h);
  REQUIRE_MESSAGE(a, (a ? "" : a.error()));
  std::vector<std::string> warnings;
  auto applied = (*a)->poll(warnings);
  REQUIRE_FALSE(applied);
  CHECK(applied.error() == (dir.path / segment).string() + ":3: \"games\" must hold the pair's two game lines");
  // Pair 1 was applied and journaled before the damage; the coordinator opens the applier anew and applies it once.
  a->reset();
  auto again = spsa::Applier::open(out, h);
  REQUIRE_MESSAGE(again, (again ? "" : again.error()));
  CHECK((*again)->applied() == 1);
  CHECK_FALSE((*again)->poll(warnings));  // the damage is still there, named again
  CHECK((*again)->applied() == 1);
  auto journal = journal::read_journal(spsa::applied_path(out));
  REQUIRE(journal);
  CHECK(journal->spsa_pairs.size() == 1);
}

TEST_CASE("applier: a pair whose games name an engine the run does not is damage, not applied") {
  TempDir dir("spsa-applier-foreign");
  const std::string out = dir.path.string();
  std::filesystem::create_directories(dir.path / "segments");
  ApplierRun run;
  const journal::JournalHeader h = run.one_shard_header();
  const std::string stranger = engine_renamed(run.pair_line(2, 1), "e-", "x-");
  const std::string segment = ApplierRun::segment;
  dir.file(segment, journal::to_json(h) + "\n" + run.pair_line(1, 2) + "\n" + stranger + "\n");
  auto a = spsa::Applier::open(out, h);
  REQUIRE_MESSAGE(a, (a ? "" : a.error()));
  std::vector<std::string> warnings;
  auto applied = (*a)->poll(warnings);
  REQUIRE_FALSE(applied);
  CHECK(applied.error() ==
        (dir.path / segment).string() + ":3: game 3: 'x-' is not one of the run's engines (e+, e-)");
  CHECK((*a)->applied() == 1);
  // Before, it was applied and journaled, and the applied journal could not be read back (resume, stats, report).
  auto journal = journal::read_journal(spsa::applied_path(out));
  REQUIRE_MESSAGE(journal, (journal ? "" : journal.error()));
  CHECK(journal->spsa_pairs.size() == 1);
}

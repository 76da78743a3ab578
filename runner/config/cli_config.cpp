#include "config/cli_config.h"

#include <CLI/CLI.hpp>
#include <cmath>

#include "config/engine_keys.h"
#include "config/load.h"
#include "config/spsa_params.h"
#include "config/values.h"
#include "usi/usi_option.h"

namespace arena::config {

namespace {

[[noreturn]] void fail(const std::string& option, const std::string& what) { throw ConfigError(option + ": " + what); }

template <typename T>
T check(const std::string& option, std::expected<T, std::string> r) {
  if (!r) fail(option, r.error());
  return *r;
}

// One KEY=VALUE of --sprt or --then-sprt.
void apply_sprt_token(const std::string& option, const std::string& token, stats::SprtConfig& s) {
  auto [key, value] = split_key_value(token);
  if (key == "elo0")
    s.elo0 = check(option + " elo0", parse_double(value));
  else if (key == "elo1")
    s.elo1 = check(option + " elo1", parse_double(value));
  else if (key == "alpha")
    s.alpha = check(option + " alpha", parse_double(value));
  else if (key == "beta")
    s.beta = check(option + " beta", parse_double(value));
  else if (key == "model")
    s.model = check(option + " model", parse_elo_model(value));
  else
    fail(option, "unknown key '" + key + "'; expected elo0=, elo1=, alpha=, beta=, model=");
}

}  // namespace

void CliOptions::add_to(CLI::App& app, std::optional<TournamentType> type) {
  type_ = type;
  const bool play = type == TournamentType::Play;
  app.add_option("--config", config_file_, "YAML config file (see configs/); the command line overrides it")
      ->type_name("FILE");
  app.add_option("--engine", engines_, "An engine: " + engine_tokens_usage(InTournament) + "; repeat for each engine")
      ->expected(1, 1000)
      ->type_name("KEY=VALUE ...");
  app.add_option("--each", each_, "Settings for every engine, same keys as --engine")
      ->expected(1, 1000)
      ->type_name("KEY=VALUE ...");
  if (play) {
    app.add_flag("--pair", pair_, "Play two games with colours swapped instead of one");
  } else if (type != TournamentType::Spsa) {
    app.add_option("--rounds", rounds_,
                   "Rounds: each pairing plays one opening twice, colours swapped" +
                       std::string(type == TournamentType::Sprt ? " (SPRT: the maximum)" : ""))
        ->type_name("N");
    app.add_option("--games", games_, "Games per pairing (2 x rounds)")->type_name("N");
  }
  app.add_option("--concurrency", concurrency_, "Games played at once (default: the number of cores)")->type_name("N");
  app.add_option("--openings", openings_,
                 "file=PATH [order=sequential|random] [seed=N] [plies=N] [eval_window=CP balance=CP: a YaneuraOu book]")
      ->expected(1, 10)
      ->type_name("KEY=VALUE ...");
  app.add_option("--position", position_, "A single start position: startpos, \"startpos moves ...\", \"sfen ...\"")
      ->type_name("POSITION");
  app.add_option("--max-plies", max_plies_, "Draw after this many plies (0 = no limit)")->type_name("N");
  app.add_option("--margin-ms", margin_ms_, "Time tolerance per move in ms")->type_name("MS");
  app.add_option("--stall-timeout-ms", stall_ms_, "After the flag, kill an engine silent this long")->type_name("MS");
  app.add_option("--entering-king", entering_king_, "Declaration rule: 27, 24 or off")->type_name("RULE");
  app.add_option("--resign", resign_, "Resign adjudication: off | score=CP moves=N")
      ->expected(1, 3)
      ->type_name("off|KEY=VALUE ...");
  app.add_option("--draw", draw_, "Draw adjudication: off | score=CP moves=N min_ply=N")
      ->expected(1, 4)
      ->type_name("off|KEY=VALUE ...");
  app.add_option("--out", out_, "Output directory: journal, kifu, logs")->type_name("DIR");
  app.add_option("--journal", journal_, "Journal file (default: OUT/journal.jsonl)")->type_name("FILE");
  app.add_option("--shard", shard_,
                 "Play one shard of the run on a cluster: I/N (pairs = I mod N), auto (a Slurm job array) or auto/N "
                 "(a Kubernetes Indexed Job); the journal becomes a segment in OUT/segments")
      ->type_name("I/N|auto|auto/N");
  app.add_option("--kifu", kifu_, "Kifu formats per game: csa, kif, csa,kif or none")->type_name("FORMATS");
  app.add_option("--engine-logs", engine_logs_, "Keep each engine's stderr in OUT/logs (true/false)")
      ->type_name("BOOL");
  app.add_option("--io-logs", io_logs_, "Log every USI line in OUT/logs (true/false)")->type_name("BOOL");
  app.add_option("--restart", restart_, "Engine processes: on-crash (reuse) or always (fresh per game)")
      ->type_name("POLICY");
  app.add_option("--replay-broken-pairs", replay_, "Replay a pair broken by a crash or runner error (true/false)")
      ->type_name("BOOL");
  app.add_option("--max-replays", max_replays_, "Replays per pair before a broken pair is scored")->type_name("N");
  app.add_flag("--resume", resume_, "Continue the journal of an interrupted run");
  app.add_flag("--overwrite", overwrite_, "Start afresh even if the journal exists");
  quiet_option_ = app.add_flag("--quiet,!--no-quiet", quiet_, "No live status");
  via_csa_server_option_ =
      app.add_flag("--via-csa-server,!--no-via-csa-server", via_csa_server_,
                   "Play every game through the built-in CSA server on 127.0.0.1 (engines driven by the CSA client)");
  json_option_ = app.add_flag("--json,!--no-json", json_, "Final summary as JSON on stdout");
  app.add_option("--status-interval", status_interval_, "Seconds between status lines when not on a terminal")
      ->type_name("S");
  app.add_option("--event", event_, "Event name for the records")->type_name("NAME");
  if (type == TournamentType::Gauntlet || type == TournamentType::RoundRobin || !type) {
    app.add_option("--rating-anchor", rating_anchor_,
                   "The rating list of more than two engines puts this engine at --rating-anchor-elo (default: "
                   "the ratings' mean is 0)")
        ->type_name("NAME");
    app.add_option("--rating-anchor-elo", rating_anchor_elo_, "The anchor's rating (default 0)")->type_name("ELO");
  }
  app.add_option("--build-cache", build_cache_,
                 "Where engines from git= are checked out and built (default: $XDG_CACHE_HOME/shogi-arena/builds)")
      ->type_name("DIR");
  app.add_option("--scale-tc", scale_tc_,
                 "Scale every time control to this machine: nps=N [engine=NAME] (the bench's nodes per second the time "
                 "controls are written for; the first engine's bench measures the machine)")
      ->expected(1, 2)
      ->type_name("KEY=VALUE ...");
  app.add_option("--prebuilt", prebuilt_, "Play the git engines' binaries listed in FILE (written by `slurm`)")
      ->type_name("FILE")
      ->group("");
  app.add_option("--web", web_,
                 "Serve a live page of the run: PORT (on 127.0.0.1) or HOST:PORT (0.0.0.0:PORT for every interface); "
                 "off: none, whatever --config says")
      ->type_name("ADDRESS");
  if (type == TournamentType::Sprt || !type)
    app.add_option("--sprt", sprt_, "elo0=E elo1=E [alpha=A] [beta=B] [model=normalized|logistic]")
        ->expected(1, 5)
        ->type_name("KEY=VALUE ...");
  if (type == TournamentType::Spsa || !type) {
    app.add_option("--params", params_file_,
                   "SPSA: the parameters, one per line: name,start,min,max,c_end[,r_end] (fishtest's format, as "
                   "Stockfish's TUNE prints it) or name,int|float,start,min,max,c_end[,r_end] (OpenBench's)")
        ->type_name("FILE");
    app.add_option("--param", params_, "SPSA: a parameter NAME=START,MIN,MAX,C_END[,R_END] (repeatable)")
        ->type_name("NAME=...");
    app.add_option("--pairs", pairs_, "SPSA: game pairs to play (the iterations N)")->type_name("N");
    app.add_option("--alpha", alpha_, "SPSA: the learning rate's decay exponent (0.602)")->type_name("A");
    app.add_option("--gamma", gamma_, "SPSA: the perturbation's decay exponent (0.101)")->type_name("G");
    app.add_option("--a-ratio", a_ratio_, "SPSA: A as a fraction of the pairs (0.1)")->type_name("R");
    app.add_option("--seed", seed_, "SPSA: the seed of the perturbations and roundings (1)")->type_name("S");
    app.add_option("--coordinator-timeout", coordinator_timeout_,
                   "SPSA on a cluster: a shard gives up when the coordinator has published no theta for S seconds "
                   "(600)")
        ->type_name("S");
    app.add_option("--then-sprt", then_sprt_,
                   "SPSA: afterwards, an SPRT of the tuned values against the start values: elo0=E elo1=E [alpha=A] "
                   "[beta=B] [model=...]")
        ->expected(1, 5)
        ->type_name("KEY=VALUE ...");
  }
}

Config CliOptions::build() const {
  ConfigDraft d;
  if (!config_file_.empty()) apply_yaml_file(config_file_, d);
  Config& c = d.config;

  for (size_t i = 0; i < engines_.size(); ++i)
    d.cli_engines.push_back(parse_engine_tokens(engines_[i], "--engine #" + std::to_string(i + 1), ""));
  if (!each_.empty()) d.cli_each = parse_engine_tokens(each_, "--each", "");
  apply_schedule_options(d);
  apply_opening_options(c.openings);
  apply_game_options(c.game);
  apply_output_options(d);
  if (!scale_tc_.empty()) {
    ScaleTc scale;
    for (const std::string& t : scale_tc_) {
      auto [key, value] = split_key_value(t);
      if (key == "nps")
        scale.nps = double(check("--scale-tc nps", parse_int(value, 1, int64_t(1) << 50)));
      else if (key == "engine" && !value.empty())
        scale.engine = value;
      else
        fail("--scale-tc", "unknown key '" + t + "'; expected nps=N [engine=NAME]");
    }
    if (scale.nps <= 0) fail("--scale-tc", "expected nps=N (the nodes per second the time controls are written for)");
    c.scale_tc = scale;
  }
  if (!web_.empty()) c.web = web_ == "off" ? "" : web_;
  if (!c.web.empty()) {
    auto address = parse_listen_address(c.web, DEFAULT_WEB_PORT);
    if (!address) fail("--web", "'" + c.web + "': " + address.error());
  }
  apply_spsa_options(c.spsa);
  for (const std::string& t : sprt_) apply_sprt_token("--sprt", t, c.sprt);
  return finalize(std::move(d), type_);
}

// --pair, --rounds or --games, --concurrency.
void CliOptions::apply_schedule_options(ConfigDraft& d) const {
  Config& c = d.config;
  if (pair_) c.pair = true;
  if (!rounds_.empty()) {
    c.rounds = int(check("--rounds", parse_int(rounds_, 1, 100000000)));
    d.rounds_set = true;
  }
  if (!games_.empty()) {
    if (!rounds_.empty()) fail("--games", "give --rounds or --games, not both");
    int64_t g = check("--games", parse_int(games_, 2, 200000000));
    if (g % 2) fail("--games", "expected an even number (every opening is played twice, colours swapped)");
    c.rounds = int(g / 2);
    d.rounds_set = true;
  }
  if (!concurrency_.empty()) {
    c.concurrency = int(check("--concurrency", parse_int(concurrency_, 1, 4096)));
    d.concurrency_set = true;
  }
}

// --openings KEY=VALUE... and --position.
void CliOptions::apply_opening_options(OpeningSettings& o) const {
  for (const std::string& t : openings_) {
    auto [key, value] = split_key_value(t);
    if (key == "file") {
      if (value.empty()) fail("--openings", "expected file=PATH");
      o.file = resolve_path(value, "");
      o.position.clear();
    } else if (key == "order") {
      o.order = check("--openings order", parse_opening_order(value));
    } else if (key == "seed") {
      o.seed = uint64_t(check("--openings seed", parse_int(value, 0, INT64_MAX)));
    } else if (key == "plies") {
      o.plies = int(check("--openings plies", parse_int(value, 0, 10000)));
    } else if (key == "eval_window") {
      o.eval_window = int(check("--openings eval_window", parse_int(value, 0, 100000)));
    } else if (key == "balance") {
      o.balance = int(check("--openings balance", parse_int(value, 0, 100000)));
    } else {
      fail("--openings", "unknown key '" + key + "'; expected file=, order=, seed=, plies=, eval_window=, balance=");
    }
  }
  if (!position_.empty()) {
    for (const std::string& t : openings_)
      if (split_key_value(t).first == "file") fail("--position", "contradicts --openings file=: give one of them");
    o.position = position_;
    o.file.clear();
  }
}

// --max-plies, --margin-ms, --stall-timeout-ms, --entering-king, --resign and --draw.
void CliOptions::apply_game_options(game::GameOptions& g) const {
  if (!max_plies_.empty()) g.max_plies = int(check("--max-plies", parse_int(max_plies_, 0, 100000)));
  if (!margin_ms_.empty()) g.margin_ms = check("--margin-ms", parse_int(margin_ms_, 0, 600000));
  if (!stall_ms_.empty()) g.stall_timeout_ms = check("--stall-timeout-ms", parse_int(stall_ms_, 1, 600000));
  if (!entering_king_.empty()) {
    auto r = shogi::parse_entering_king_rule(entering_king_);
    if (!r) fail("--entering-king", "expected 27, 24 or off, got \"" + entering_king_ + "\"");
    g.entering_king = *r;
  }
  game::Adjudication& a = g.adjudication;
  for (const std::string& t : resign_) {
    auto [key, value] = split_key_value(t);
    if (value.empty() && (key == "score" || key == "moves"))
      fail("--resign", "'" + key + "' needs a value: " + key + "=N");
    if (value.empty())
      a.resign_enabled = check("--resign", parse_bool(key));
    else if (key == "score")
      a.resign_score_cp = int(check("--resign score", parse_int(value, 1, 100000))), a.resign_enabled = true;
    else if (key == "moves")
      a.resign_moves = int(check("--resign moves", parse_int(value, 1, 1000))), a.resign_enabled = true;
    else
      fail("--resign", "unknown key '" + key + "'; expected off, score=, moves=");
  }
  for (const std::string& t : draw_) {
    auto [key, value] = split_key_value(t);
    if (value.empty() && (key == "score" || key == "moves" || key == "min_ply"))
      fail("--draw", "'" + key + "' needs a value: " + key + "=N");
    if (value.empty())
      a.draw_enabled = check("--draw", parse_bool(key));
    else if (key == "score")
      a.draw_score_cp = int(check("--draw score", parse_int(value, 0, 100000))), a.draw_enabled = true;
    else if (key == "moves")
      a.draw_moves = int(check("--draw moves", parse_int(value, 1, 1000))), a.draw_enabled = true;
    else if (key == "min_ply")
      a.draw_min_ply = int(check("--draw min_ply", parse_int(value, 0, 100000))), a.draw_enabled = true;
    else
      fail("--draw", "unknown key '" + key + "'; expected off, score=, moves=, min_ply=");
  }
}

// Where the run writes and how it reports: --out, --journal, --shard, --kifu, the logs, restarts and replays,
// --resume/--overwrite, the console, the rating anchor, the build cache.
void CliOptions::apply_output_options(ConfigDraft& d) const {
  Config& c = d.config;
  if (!out_.empty()) {
    c.output.dir = resolve_path(out_, "");
    // The journal moves with the output directory unless --journal says otherwise.
    if (journal_.empty()) c.output.journal.clear();
  }
  if (!journal_.empty()) c.output.journal = resolve_path(journal_, "");
  if (!shard_.empty()) c.shard = shard_;
  if (!kifu_.empty()) {
    KifuFormats f = check("--kifu", parse_kifu_formats(kifu_));
    c.output.csa = f.csa, c.output.kif = f.kif;
  }
  if (!engine_logs_.empty()) c.output.engine_logs = check("--engine-logs", parse_bool(engine_logs_));
  if (!io_logs_.empty()) c.output.io_logs = check("--io-logs", parse_bool(io_logs_));
  if (!restart_.empty()) c.restart = check("--restart", parse_restart_policy(restart_));
  if (!replay_.empty()) {
    c.replay_broken_pairs = check("--replay-broken-pairs", parse_bool(replay_));
    d.replay_where = "--replay-broken-pairs";
  }
  if (!max_replays_.empty()) {
    c.max_replays = int(check("--max-replays", parse_int(max_replays_, 0, 1000)));
    d.replay_where = "--max-replays";
  }
  if (resume_ && overwrite_) fail("--resume", "--resume and --overwrite contradict each other");
  // On the command line either one wins over the file's setting of the other.
  if (resume_) c.resume = true, c.overwrite = false;
  if (overwrite_) c.overwrite = true, c.resume = false;
  if (via_csa_server_option_ && via_csa_server_option_->count()) c.via_csa_server = via_csa_server_;
  if (quiet_option_ && quiet_option_->count()) c.quiet = quiet_;
  if (json_option_ && json_option_->count()) c.json = json_;
  if (!status_interval_.empty())
    c.status_interval_s = int(check("--status-interval", parse_int(status_interval_, 1, 86400)));
  if (!event_.empty()) c.game.event = event_;
  if (!rating_anchor_.empty()) c.rating_anchor = rating_anchor_;
  if (!rating_anchor_elo_.empty()) {
    auto elo = parse_double(rating_anchor_elo_);
    if (!elo || !std::isfinite(*elo)) fail("--rating-anchor-elo", "'" + rating_anchor_elo_ + "': expected a number");
    c.rating_anchor_elo = *elo;
  }
  if (!build_cache_.empty()) c.build_cache = resolve_path(build_cache_, "");
  if (!prebuilt_.empty()) c.prebuilt = resolve_path(prebuilt_, "");
}

void CliOptions::apply_spsa_options(SpsaSettings& s) const {
  if (!params_file_.empty()) {
    s.params = check("--params", load_spsa_params(resolve_path(params_file_, "")));
    s.params_where = params_file_;
  }
  for (const std::string& text : params_) {
    stats::SpsaParam p = check("--param", parse_spsa_param_option(text));
    // One given on the command line replaces the file's of the same name.
    std::erase_if(s.params, [&](const stats::SpsaParam& q) { return usi::iequals(q.name, p.name); });
    s.params.push_back(std::move(p));
    s.params_where = s.params_where.empty() ? "--param" : s.params_where + " and --param";
  }
  if (!pairs_.empty()) s.schedule.iterations = check("--pairs", parse_int(pairs_, 1, 100000000));
  if (!alpha_.empty()) s.schedule.alpha = check("--alpha", parse_double(alpha_));
  if (!gamma_.empty()) s.schedule.gamma = check("--gamma", parse_double(gamma_));
  if (!a_ratio_.empty()) s.schedule.a_ratio = check("--a-ratio", parse_double(a_ratio_));
  if (!seed_.empty()) s.seed = uint64_t(check("--seed", parse_int(seed_, 0, INT64_MAX)));
  if (!coordinator_timeout_.empty())
    s.coordinator_timeout_s = int(check("--coordinator-timeout", parse_int(coordinator_timeout_, 1, 7 * 86400)));
  if (!then_sprt_.empty()) {
    stats::SprtConfig sprt = s.then_sprt.value_or(stats::SprtConfig{});
    for (const std::string& t : then_sprt_) apply_sprt_token("--then-sprt", t, sprt);
    s.then_sprt = sprt;
  }
}

}  // namespace arena::config

#include "game/engine_start.h"

#include <system_error>

#include "game/engine_exit.h"
#include "process/find_executable.h"
#include "usi/usi_client.h"

namespace arena::game {

namespace {

using process::SteadyClock;
using Millis = std::chrono::milliseconds;

Millis since(SteadyClock::time_point t0) { return std::chrono::duration_cast<Millis>(SteadyClock::now() - t0); }

// Every option is checked before any is sent: a configuration error leaves the engine untouched.
usi::Result check_all(const usi::UsiClient& client, const OptionList& options) {
  for (const auto& [option, value] : options)
    if (auto c = client.check_option(option, value); !c.ok()) return c;
  return {};
}

}  // namespace

std::string engine_name(const EngineConfig& config) {
  return config.name.empty() ? std::filesystem::path(config.command).filename().string() : config.name;
}

std::expected<StartedEngine, StartFailure> start_engine(const EngineConfig& config, StartSetup setup) {
  const std::string label = engine_name(config);
  StartFailure failure;
  failure.who = "engine '" + label + "' (" + config.command + ")";
  auto fail = [&](StartFailure::Step step, std::string what) -> std::unexpected<StartFailure> {
    failure.step = step;
    failure.what = std::move(what);
    return std::unexpected(std::move(failure));
  };

  process::ProcessSpec spec;
  if (auto found = process::find_executable(config.command))
    spec.executable = *found;
  else
    return fail(StartFailure::Step::Spawn, process::not_found_text(config.command));
  spec.args = config.args;
  spec.working_dir = config.working_dir;
  spec.stderr_log = setup.stderr_log.empty() ? std::filesystem::path(config.stderr_log) : setup.stderr_log;
  spec.io_log = config.io_log;
  spec.io_logger = std::move(setup.io_logger);
  spec.name = label;
  spec.die_with_starting_thread = config.die_with_starting_thread;
  // Only what this start writes to stderr explains its failure: the log may hold earlier runs.
  std::error_code ec;
  const auto stderr_start = spec.stderr_log.empty() ? 0 : std::filesystem::file_size(spec.stderr_log, ec);
  const StderrTail tail{spec.stderr_log, ec ? 0 : stderr_start};
  auto proc = setup.loop ? process::EngineProcess::start(setup.loop, std::move(spec))
                         : process::EngineProcess::start(std::move(spec));
  if (!proc) return fail(StartFailure::Step::Spawn, proc.error());

  auto client = std::make_unique<usi::UsiClient>(std::move(*proc));
  client->set_go_quirks({.fold_increments = !config.send_increments, .swap_sides = config.swap_btime_wtime});
  const std::string timeout_ms = std::to_string(config.startup_timeout.count());
  // A stalled engine is killed; one that died is waited for, so that its own exit status is the one described.
  auto fail_with_client = [&](StartFailure::Step step, std::string what) -> std::unexpected<StartFailure> {
    client->quit(Millis(0));
    failure.client = std::move(client);
    return fail(step, std::move(what));
  };
  auto fail_exited = [&](StartFailure::Step step, std::string_view during) -> std::unexpected<StartFailure> {
    client->quit(config.quit_grace);
    std::string what = "exited " + std::string(during) + " (" + describe_exit(client->process(), tail) + ")";
    failure.client = std::move(client);
    return fail(step, std::move(what));
  };

  StartedEngine started;
  auto t0 = SteadyClock::now();
  usi::Result r = client->handshake(t0 + config.startup_timeout, config.interrupt);
  started.usiok = since(t0);
  if (r.status == usi::Status::Interrupted)
    return fail_with_client(StartFailure::Step::Handshake, "interrupted before usiok");
  if (r.status == usi::Status::Timeout)
    return fail_with_client(StartFailure::Step::Handshake, "no usiok within " + timeout_ms + " ms (startup timeout)");
  if (!r.ok()) return fail_exited(StartFailure::Step::Handshake, "during the USI handshake");
  started.name = config.name.empty() && !client->identity().name.empty() ? client->identity().name : label;

  if (auto c = check_all(*client, config.options); !c.ok()) return fail_with_client(StartFailure::Step::Options, c.text);
  bool ponder_given = false;
  for (const auto& option : config.options) ponder_given |= usi::iequals(option.first, "USI_Ponder");
  // A value the engine refuses is named with its reason; a pipe that breaks is the engine's exit.
  auto option_failed = [&](const std::string& option, const usi::Result& s) -> std::unexpected<StartFailure> {
    if (s.status == usi::Status::Disconnected)
      return fail_exited(StartFailure::Step::Options, "while its options were sent");
    return fail_with_client(StartFailure::Step::Options, "setoption " + option + ": " + s.text);
  };
  for (const auto& [option, value] : config.options)
    if (auto s = client->set_option(option, value); !s.ok()) return option_failed(option, s);
  if (config.rules) {
    RuleOptions told = rule_options(client->options(), config.options, *config.rules);
    for (const auto& [option, value] : told.set)
      if (auto s = client->set_option(option, value); !s.ok()) return option_failed(option, s);
    started.rule_notes = std::move(told.notes);
    started.rule_warnings = std::move(told.warnings);
  }
  // GUIs always tell engines whether they will be asked to ponder; engines that do not know it ignore it.
  if (!ponder_given)
    if (auto s = client->set_option("USI_Ponder", config.ponder ? "true" : "false"); !s.ok())
      return option_failed("USI_Ponder", s);

  t0 = SteadyClock::now();
  r = client->is_ready(t0 + config.startup_timeout, config.interrupt);
  started.readyok = since(t0);
  if (r.status == usi::Status::Interrupted)
    return fail_with_client(StartFailure::Step::Ready, "interrupted before readyok");
  if (r.status == usi::Status::Timeout)
    return fail_with_client(StartFailure::Step::Ready, "no readyok within " + timeout_ms + " ms (startup timeout)");
  if (!r.ok()) return fail_exited(StartFailure::Step::Ready, "before readyok");
  started.client = std::move(client);
  return started;
}

std::expected<void, std::string> set_options(usi::UsiClient& client, const OptionList& options, Millis timeout) {
  if (auto c = check_all(client, options); !c.ok()) return std::unexpected(c.text);
  for (const auto& [option, value] : options)
    if (auto s = client.set_option(option, value); !s.ok())
      return std::unexpected("setoption " + option + ": " + std::string(usi::to_string(s.status)));
  usi::Result r = client.is_ready(SteadyClock::now() + timeout);
  if (r.status == usi::Status::Timeout)
    return std::unexpected("no readyok within " + std::to_string(timeout.count()) + " ms after its options were set");
  if (!r.ok()) return std::unexpected("it exited while its options were set");
  return {};
}

}  // namespace arena::game

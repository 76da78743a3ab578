#include "run/engines.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "journal/segments.h"

namespace arena::run {

std::string EngineLogs::stem(const std::string& engine, int worker) const {
  if (dir.empty()) return {};
  return dir + "/" + safe_file_name(engine) + "-w" + std::to_string(worker + 1);
}

void EngineLogs::configure(game::EngineConfig& engine, int worker) const {
  const std::string base = stem(engine.name, worker);
  if (base.empty()) return;
  if (stderr_log) engine.stderr_log = base + ".stderr";
  if (io_log) engine.io_log = base + ".io";
}

std::expected<EngineLogs, std::string> engine_logs_of(const config::Config& c,
                                                      const std::optional<journal::Shard>& shard) {
  EngineLogs logs;
  logs.stderr_log = c.output.engine_logs;
  logs.io_log = c.output.io_logs;
  if (!logs.stderr_log && !logs.io_log) return logs;
  logs.dir = c.output.dir + "/logs";
  if (shard)
    logs.dir += "/shard-" + std::to_string(shard->index) + "-of-" + std::to_string(shard->count) + "." +
                journal::host_name() + "." + std::to_string(::getpid());
  std::error_code ec;
  std::filesystem::create_directories(logs.dir, ec);
  if (ec) return std::unexpected(logs.dir + ": cannot create the folder: " + ec.message());
  return logs;
}

bool signalled_soon(const std::atomic<bool>* external_stop) {
  for (int i = 0; i < 20; ++i) {
    if (external_stop && external_stop->load()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace arena::run

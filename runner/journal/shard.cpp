#include "journal/shard.h"

#include <climits>
#include <cstdlib>

#include "config/values.h"

namespace arena::journal {

namespace {

std::optional<int64_t> to_int(std::string_view text) {
  auto value = config::parse_int(text, INT64_MIN, INT64_MAX);
  if (!value) return std::nullopt;
  return *value;
}

constexpr int64_t kMostShards = 1'000'000;

std::expected<Shard, std::string> make_shard(int64_t index, int64_t count, std::string_view source) {
  if (count < 1 || count > kMostShards)
    return std::unexpected("shard " + std::string(source) + ": the shard count must be 1 to 1000000, not " +
                           std::to_string(count));
  if (index < 0 || index >= count)
    return std::unexpected("shard " + std::string(source) + ": the shard index must be 0 to " +
                           std::to_string(count - 1) + ", not " + std::to_string(index));
  return Shard{int(index), int(count)};
}

// A variable that must hold an integer.
std::expected<int64_t, std::string> int_variable(const EnvLookup& env, std::string_view name, std::string_view why) {
  auto value = env(name);
  if (!value) return std::unexpected("--shard auto: " + std::string(name) + " is not set (" + std::string(why) + ")");
  auto n = to_int(*value);
  if (!n) return std::unexpected("--shard auto: " + std::string(name) + "='" + *value + "' is not an integer");
  return *n;
}

std::expected<Shard, std::string> from_slurm(const EnvLookup& env, std::optional<int64_t> expected_count) {
  const char* why = "not inside a Slurm job array? run with sbatch --array=0-N";
  auto id = int_variable(env, "SLURM_ARRAY_TASK_ID", why);
  if (!id) return std::unexpected(id.error());
  auto min = int_variable(env, "SLURM_ARRAY_TASK_MIN", why);
  if (!min) return std::unexpected(min.error());
  auto max = int_variable(env, "SLURM_ARRAY_TASK_MAX", why);
  if (!max) return std::unexpected(max.error());
  auto count = int_variable(env, "SLURM_ARRAY_TASK_COUNT", why);
  if (!count) return std::unexpected(count.error());
  if (auto step = env("SLURM_ARRAY_TASK_STEP"); step && to_int(*step) != 1)
    return std::unexpected("--shard auto: a stepped job array (SLURM_ARRAY_TASK_STEP=" + *step +
                           ") cannot number the shards 0..N-1; use --array=A-B without a step");
  if (*max - *min + 1 != *count)
    return std::unexpected("--shard auto: the job array has gaps (task ids " + std::to_string(*min) + ".." +
                           std::to_string(*max) + " but " + std::to_string(*count) +
                           " tasks); use a contiguous --array=A-B");
  if (expected_count && *expected_count != *count)
    return std::unexpected("--shard auto/" + std::to_string(*expected_count) + ": the Slurm array has " +
                           std::to_string(*count) + " tasks");
  return make_shard(*id - *min, *count, "auto (Slurm task " + std::to_string(*id) + ")");
}

}  // namespace

std::string Shard::text() const { return std::to_string(index) + "/" + std::to_string(count); }

std::optional<std::string> process_env(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

std::expected<Shard, std::string> parse_shard(std::string_view text, const EnvLookup& env) {
  if (text == "auto") return from_slurm(env, std::nullopt);
  const auto slash = text.find('/');
  if (slash == std::string_view::npos)
    return std::unexpected("--shard: expected I/N (0 <= I < N), auto or auto/N, got '" + std::string(text) + "'");
  const std::string_view left = text.substr(0, slash), right = text.substr(slash + 1);
  auto count = to_int(right);
  if (!count)
    return std::unexpected("--shard: '" + std::string(right) + "' in '" + std::string(text) + "' is not a shard count");
  if (left == "auto") {
    if (env("SLURM_ARRAY_TASK_ID")) return from_slurm(env, *count);
    if (!env("JOB_COMPLETION_INDEX"))
      return std::unexpected("--shard " + std::string(text) +
                             ": neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set (not in a job array or an "
                             "Indexed Job?)");
    auto index = int_variable(env, "JOB_COMPLETION_INDEX", "");
    if (!index) return std::unexpected(index.error());
    return make_shard(*index, *count, std::string(text) + " (JOB_COMPLETION_INDEX=" + std::to_string(*index) + ")");
  }
  auto index = to_int(left);
  if (!index)
    return std::unexpected("--shard: '" + std::string(left) + "' in '" + std::string(text) + "' is not a shard index");
  return make_shard(*index, *count, std::string(text));
}

}  // namespace arena::journal

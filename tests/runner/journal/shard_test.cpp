// Shards of one schedule: I/N on the command line, auto from a Slurm job array or a Kubernetes Indexed Job.

#include <doctest/doctest.h>

#include <map>

#include "journal/shard.h"

using namespace arena::journal;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

const EnvLookup no_env = env_of({});

std::string error_of(std::string_view text, const EnvLookup& env = no_env) {
  auto shard = parse_shard(text, env);
  REQUIRE_FALSE(shard.has_value());
  return shard.error();
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("--shard I/N") {
  auto s = parse_shard("3/40", no_env);
  REQUIRE(s);
  CHECK(s->index == 3);
  CHECK(s->count == 40);
  CHECK(s->text() == "3/40");
  CHECK_FALSE(s->whole_run());
  CHECK(parse_shard("0/1", no_env)->whole_run());
  CHECK(contains(error_of("40/40"), "0 to 39, not 40"));
  CHECK(contains(error_of("-1/4"), "0 to 3, not -1"));
  CHECK(contains(error_of("0/0"), "1 to 1000000, not 0"));
  CHECK(contains(error_of("x/4"), "'x' in 'x/4' is not a shard index"));
  CHECK(contains(error_of("1/4/5"), "'4/5' in '1/4/5' is not a shard count"));
  CHECK(contains(error_of("3"), "expected I/N"));
  CHECK(contains(error_of(""), "expected I/N"));
}

TEST_CASE("--shard auto from a Slurm job array") {
  // --array=5-8: task 7 is shard 2 of 4.
  auto env = env_of({{"SLURM_ARRAY_TASK_ID", "7"},
                     {"SLURM_ARRAY_TASK_MIN", "5"},
                     {"SLURM_ARRAY_TASK_MAX", "8"},
                     {"SLURM_ARRAY_TASK_COUNT", "4"}});
  auto s = parse_shard("auto", env);
  REQUIRE(s);
  CHECK(s->text() == "2/4");
  CHECK(parse_shard("auto/4", env)->text() == "2/4");
  CHECK(contains(error_of("auto/5", env), "the Slurm array has 4 tasks"));

  // --array=0-6:2 (ids 0, 2, 4, 6) and --array=1,3,5 cannot be numbered 0..N-1.
  auto stepped = env_of({{"SLURM_ARRAY_TASK_ID", "2"},
                         {"SLURM_ARRAY_TASK_MIN", "0"},
                         {"SLURM_ARRAY_TASK_MAX", "6"},
                         {"SLURM_ARRAY_TASK_COUNT", "4"},
                         {"SLURM_ARRAY_TASK_STEP", "2"}});
  CHECK(contains(error_of("auto", stepped), "stepped job array (SLURM_ARRAY_TASK_STEP=2)"));
  auto list = env_of({{"SLURM_ARRAY_TASK_ID", "3"},
                      {"SLURM_ARRAY_TASK_MIN", "1"},
                      {"SLURM_ARRAY_TASK_MAX", "5"},
                      {"SLURM_ARRAY_TASK_COUNT", "3"}});
  CHECK(contains(error_of("auto", list), "has gaps (task ids 1..5 but 3 tasks)"));

  CHECK(contains(error_of("auto"), "SLURM_ARRAY_TASK_ID is not set"));
  auto garbled = env_of({{"SLURM_ARRAY_TASK_ID", "seven"}});
  CHECK(contains(error_of("auto", garbled), "SLURM_ARRAY_TASK_ID='seven' is not an integer"));
  auto partial = env_of({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "0"}});
  CHECK(contains(error_of("auto", partial), "SLURM_ARRAY_TASK_MAX is not set"));
}

TEST_CASE("--shard auto/N from a Kubernetes Indexed Job") {
  CHECK(parse_shard("auto/8", env_of({{"JOB_COMPLETION_INDEX", "5"}}))->text() == "5/8");
  CHECK(contains(error_of("auto/8", env_of({{"JOB_COMPLETION_INDEX", "8"}})), "0 to 7, not 8"));
  CHECK(contains(error_of("auto/8"), "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set"));
  CHECK(contains(error_of("auto/8", env_of({{"JOB_COMPLETION_INDEX", ""}})), "is not an integer"));
}

#pragma once
// A fresh directory for one test, unique to it (mkdtemp) and removed with it: kept when the environment sets
// SHOGI_ARENA_KEEP_TEST_DIRS, for looking at a failure.

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace test_support {

struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const std::string& tag = "test") {
    std::string name = (std::filesystem::temp_directory_path() / ("shogi-arena-" + tag + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() {
    if (std::getenv("SHOGI_ARENA_KEEP_TEST_DIRS")) return;
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` in the directory (binary, as given) and returns its path.
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

}  // namespace test_support

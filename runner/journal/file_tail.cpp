#include "journal/file_tail.h"

#include <filesystem>
#include <fstream>
#include <iterator>

namespace arena::journal {

std::vector<FileTail::Line> FileTail::read_new() {
  std::vector<Line> out;
  std::ifstream in(path_, std::ios::binary);
  if (!in) return out;  // not there yet
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path_, ec); !ec && size < offset_) offset_ = 0, lines_ = 0;
  in.seekg(std::streamoff(offset_));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start))
    out.push_back({++lines_, text.substr(start, nl - start)});
  offset_ += start;
  return out;
}

}  // namespace arena::journal

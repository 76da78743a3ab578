#pragma once
// MD5 (RFC 1321), only because shogi-server names a rated player "<name>+<md5 hex of the trip>" in %%WHO and in
// its results list, and tools that read those lists expect that form. Not used for anything secret.

#include <string>
#include <string_view>

namespace arena::csa {

// The digest as 32 lowercase hex digits.
std::string md5_hex(std::string_view data);

}  // namespace arena::csa

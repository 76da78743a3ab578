#include "process/sigpipe.h"

#include <csignal>
#include <mutex>

namespace arena::process {

void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

void default_sigpipe_in_child() { std::signal(SIGPIPE, SIG_DFL); }

}  // namespace arena::process

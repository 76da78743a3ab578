#pragma once
// The two steps before a game on a CSA server (csa-protocol.md §2, §3): LOGIN, and the wait for the server's
// Game_Summary. Shared by the client session (client/session.h) and the tournament's relay through the built-in
// server (relay/csa_server_engines.h), so both read the server's answers the same way.

#include <chrono>
#include <functional>
#include <string>

#include "csa/client/connection.h"

namespace arena::csa {

// Polled while waiting for the server; true means give up now (a stop request, the other side failed).
using StopCheck = std::function<bool()>;

enum class LoginResult {
  Ok,         // LOGIN:<user> OK
  Incorrect,  // LOGIN:incorrect: wrong credentials, or (x1) the name is already logged in
  Lost,       // the connection closed, or no answer in time
  Stopped,    // `stopped` said so before the answer came
};

struct LoginOutcome {
  LoginResult result = LoginResult::Lost;
  std::string why;  // for anything but Ok: one line naming the user and what happened
};

// Sends `LOGIN user password` and reads lines until the server answers it. Lines before the answer (a server's
// banner) are skipped. After LOGIN:incorrect, shogi-server explains in x1 mode on the next line; that line is
// added to `why` when it arrives within 200 ms.
LoginOutcome login(ClientConnection& conn, const std::string& user, const std::string& password,
                   std::chrono::milliseconds timeout, const StopCheck& stopped = {});

enum class SummaryWait {
  Summary,  // `BEGIN Game_Summary` was read; the summary's other lines follow on the connection
  Closed,   // the server closed the connection
  X1Error,  // an x1 `##[ERROR]` line, e.g. the answer to a %%GAME nobody can accept
  TimedOut,
  Stopped,
};

struct SummaryWaitOutcome {
  SummaryWait result = SummaryWait::TimedOut;
  std::string detail;  // the close reason or the ##[ERROR] line
};

// Reads until a Game_Summary begins. Other lines (x1 chatter, keep-alives) are skipped.
SummaryWaitOutcome wait_for_summary(ClientConnection& conn, Deadline deadline, const StopCheck& stopped = {});

}  // namespace arena::csa

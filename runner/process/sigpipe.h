#pragma once

// SIGPIPE on both sides of a fork. The runner writes to children that may die at any moment (an engine that
// crashed, a build step that exits without reading its input): such a write must fail with EPIPE, an error value,
// not kill the runner. A child must not inherit that: an ignored signal stays ignored across exec, and a script's
// `yes | head` would never end.

namespace arena::process {

// Ignore SIGPIPE in this process; the first call does it, later ones are free. Call before writing to a child.
void ignore_sigpipe();

// Give SIGPIPE its default action again. Async-signal-safe: for a child between fork and exec.
void default_sigpipe_in_child();

}  // namespace arena::process

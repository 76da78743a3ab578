#pragma once
// The live page: one self-contained HTML document (styles, script and the SVG board drawing inline), embedded in
// the binary so that it needs nothing from the internet or from the installation. It shows the state written into
// it (live_page_with), then follows /api/events (routes.h); finished games are replayed from their journal lines
// (/api/game/N).

#include <string>
#include <string_view>

namespace arena::web {

// The page as embedded, with no state in it.
std::string_view live_page();
// The page with `state_json` (LiveState::update_json) written in for its first paint, every '<' escaped so that
// no text of an engine's can end the script.
std::string live_page_with(std::string_view state_json);

}  // namespace arena::web

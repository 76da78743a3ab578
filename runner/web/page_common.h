#pragma once
// What the live page (page.h) and the report after a run (report.h) share: the styles, the script that draws a
// position as an SVG board from an SFEN and USI moves and formats scores, the standings tables, and the replay of a
// finished game move by move.
//
// A page names where they go with markers, replaced by with_common_parts:
//   /*COMMON_STYLE*/ inside <style>, /*COMMON_SCRIPT*/ inside <script>, <!--REPLAY_SECTION--> in the body.
// The script defines esc, parseSfen, positionAt, boardSvg, clockText, resultText, scoreText, thinkText, fmt,
// spsaChartsHtml(spsa) (web/spsa_chart.h's data),
// standingsHtml(summary) -> {pairings, engines, sprt} HTML, and the replay: openReplayWith(n, game),
// replayUnavailable(n, why), step(ply), wireReplay() and the onReplayStep hook.

#include <string>
#include <string_view>

namespace arena::web {

std::string_view common_style();
std::string_view common_script();
std::string_view replay_section();
// `page` with its markers replaced.
std::string with_common_parts(std::string_view page);

}  // namespace arena::web

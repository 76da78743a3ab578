#include "web/page.h"

#include "web/page_common.h"

namespace arena::web {

namespace {

// The live page's own parts; the styles, the board drawing, the standings tables and the replay are page_common's.
constexpr std::string_view kPage = R"PAGE(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shogi Arena</title>
<link rel="icon" href="data:,">
<style>
/*COMMON_STYLE*/
</style>
</head>
<body>
<header><h1 id="title">Shogi Arena</h1><span id="conn">connecting…</span></header>
<main>
<section id="progress">
  <div id="status"></div>
  <div class="bar" title="games finished"><div id="done-bar" style="left:0;width:0"></div></div>
  <div id="sprt"></div>
</section>
<section id="spsa-section" hidden><h2>SPSA: theta over the pairs</h2><div id="spsa"></div></section>
<section><h2>Standings</h2><table id="pairings"></table><br><table id="engines"></table><br><table id="ratings"></table><br><table id="cross"></table></section>
<section><h2>Games in progress</h2><div id="boards"><p class="meta">none</p></div></section>
<!--REPLAY_SECTION-->
<section><h2>Finished games <span id="finished-total" class="meta"></span></h2><table id="finished"></table></section>
</main>
<script>
"use strict";
/*COMMON_SCRIPT*/

let latest = null, receivedAt = 0;

function renderBoards(u) {
  const box = document.getElementById("boards");
  if (!u.boards.length) { box.innerHTML = '<p class="meta">none</p>'; return; }
  let html = "";
  for (const b of u.boards) {
    const pos = positionAt(b.start_sfen, b.moves, b.moves.length);
    const running = b.clock.running;
    const side = (name, color) => {
      const info = b.info[color];
      return `<div class="who"><span>${color === "black" ? "☗" : "☖"} ${esc(name)}</span>` +
             `<span class="clock${running === color ? " running" : ""}" data-side="${color}">` +
             `${clockText(b.clock[color + "_ms"])}</span></div>` +
             `<div class="think" data-side="${color}" data-score="${esc(scoreText(info))}">${esc(thinkText(info))}</div>`;
    };
    html += `<div class="game" data-game="${b.game}" data-plies="${b.moves.length}">` +
            `<div class="meta">Game ${b.game + 1}, round ${b.round + 1}${b.attempt ? `, attempt ${b.attempt + 1}` : ""} · ` +
            `${esc(b.time_control)} · ply ${b.moves.length}${b.moves.length ? " · last " + esc(b.moves[b.moves.length - 1]) : ""}</div>` +
            side(b.white, "white") + boardSvg(pos) + side(b.black, "black") + `</div>`;
  }
  box.innerHTML = html;
}

// Clocks count down between updates from the runner's own figures.
function tickClocks() {
  if (!latest) return;
  const local = performance.now() - receivedAt;
  for (const b of latest.boards) {
    const color = b.clock.running;
    const el = document.querySelector(`.game[data-game="${b.game}"] .clock[data-side="${color}"]`);
    if (!el) continue;
    const main = b.clock[color + "_ms"], used = b.clock.elapsed_ms + local;
    const byo = b.byoyomi_ms ? b.byoyomi_ms[color] : 0;
    let text;
    if (main - used > 0 || !byo) text = clockText(main - used);
    else text = "byo " + clockText(byo - (used - main));
    el.textContent = text;
    el.classList.toggle("low", main - used < 10000 && !byo);
  }
}

function renderFinished(u) {
  document.getElementById("finished-total").textContent = `(${u.finished_total})`;
  let h = "<tr><th>Game</th><th>Black</th><th>White</th><th>Result</th><th>Plies</th><th>Termination</th>" +
          "<th>Detail</th></tr>";
  for (const f of u.finished.slice().reverse())
    h += `<tr class="click" data-game="${f.game}"><td>${f.game + 1}${f.replay ? " (void)" : ""}</td>` +
         `<td class="name">${esc(f.black)}</td><td class="name">${esc(f.white)}</td><td>${resultText(f.result)}</td>` +
         `<td>${f.plies}</td><td>${esc(f.termination)}</td><td class="name">${esc(f.detail)}</td></tr>`;
  document.getElementById("finished").innerHTML = h;
}

function renderStandings(st) {
  if (!st) return;
  const games = st.games || {};
  const done = games.journaled || 0, total = games.scheduled || 0;
  document.getElementById("done-bar").style.width = total ? `${Math.min(100, 100 * done / total)}%` : "0";
  const html = standingsHtml(st);
  document.getElementById("pairings").innerHTML = html.pairings;
  document.getElementById("engines").innerHTML = html.engines;
  document.getElementById("ratings").innerHTML = html.ratings;
  document.getElementById("cross").innerHTML = html.cross;
  document.getElementById("sprt").innerHTML = html.sprt;
}

function renderSpsa(s) {
  if (!s) return;
  document.getElementById("spsa-section").hidden = false;
  document.getElementById("spsa").innerHTML = spsaChartsHtml(s);
  document.getElementById("done-bar").style.width = s.pairs_total ? `${Math.min(100, 100 * s.pairs_done / s.pairs_total)}%` : "0";
}

function render(u) {
  latest = u;
  receivedAt = performance.now();
  document.getElementById("title").textContent = u.title || "Shogi Arena";
  document.title = (u.title || "Shogi Arena") + " · live";
  document.getElementById("status").textContent = u.status || "";
  renderStandings(u.standings);
  renderSpsa(u.spsa);
  renderBoards(u);
  renderFinished(u);
  tickClocks();
}

// Replay of a finished game from its journal line.
function openReplay(n) {
  fetch(`api/game/${n}`).then(r => r.ok ? r.json() : Promise.reject(r.status)).then(g => {
    openReplayWith(n, g);
    document.getElementById("replay").scrollIntoView({ block: "nearest" });
  }).catch(status => replayUnavailable(n, status));
}
document.getElementById("finished").addEventListener("click", ev => {
  const row = ev.target.closest("tr[data-game]");
  if (row) openReplay(Number(row.dataset.game));
});
wireReplay();

function connect() {
  const conn = document.getElementById("conn");
  const events = new EventSource("api/events");
  events.addEventListener("update", ev => {
    conn.textContent = "live";
    conn.className = "live";
    render(JSON.parse(ev.data));
  });
  events.onerror = () => {
    conn.textContent = "disconnected: retrying";
    conn.className = "";
  };
}
// The server puts the state of the moment into the page it sends, so the first paint needs no request.
const INITIAL_STATE = /*INITIAL_STATE*/null;
if (INITIAL_STATE) render(INITIAL_STATE);
connect();
setInterval(tickClocks, 100);
</script>
</body>
</html>
)PAGE";

}  // namespace

std::string_view live_page() {
  static const std::string page = with_common_parts(kPage);
  return page;
}

std::string live_page_with(std::string_view state_json) {
  constexpr std::string_view marker = "/*INITIAL_STATE*/null";
  const std::string_view page = live_page();
  const size_t at = page.find(marker);
  std::string out;
  out.reserve(page.size() + state_json.size() + 64);
  out.append(page.substr(0, at));
  // '<' occurs in JSON only inside strings, where \u003c means the same: no "</script>" or "<!--" of an engine's
  // text can reach the HTML parser.
  for (char c : state_json) {
    if (c == '<')
      out.append("\\u003c");
    else
      out.push_back(c);
  }
  out.append(page.substr(at + marker.size()));
  return out;
}

}  // namespace arena::web

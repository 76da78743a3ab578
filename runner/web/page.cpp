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
<section id="league-section" hidden><h2>Floodgate</h2><table id="league-groups"></table><div id="league-rounds"></div>
<h3>Ratings</h3><table id="league-ratings"></table></section>
<section id="player-section" hidden><h2>Games of <span id="player-name"></span> <span id="player-count" class="meta"></span>
<a href="#" id="player-close" class="meta">all players</a></h2><table id="player-games"></table></section>
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

// Floodgate groups: the next round counts down on the server's clock (the offset is taken at each update).
let leagueOffset = 0;
function countdownText(ms) {
  if (ms <= 0) return "pairing now";
  const s = Math.ceil(ms / 1000);
  return `in ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
function tickLeague() {
  if (!latest || !latest.league) return;
  for (const el of document.querySelectorAll("#league-groups [data-next]"))
    el.textContent = countdownText(Number(el.dataset.next) - (Date.now() + leagueOffset));
}
function renderLeague(l) {
  if (!l) return;
  leagueOffset = l.now_ms - Date.now();
  document.getElementById("league-section").hidden = false;
  let g = "<tr><th>Group</th><th>Schedule</th><th>Next round</th><th>At</th><th>Waiting</th><th>Rounds</th></tr>";
  for (const x of l.groups)
    g += `<tr class="group" data-group="${esc(x.name)}"><td class="name">${esc(x.name)}</td><td>${esc(x.schedule)}</td>` +
         (x.next_ms === null ? "<td>never</td><td></td>" :
          `<td data-next="${x.next_ms}"></td><td>${esc(new Date(x.next_ms).toLocaleTimeString())}</td>`) +
         `<td>${x.waiting}</td><td>${x.rounds}</td></tr>`;
  document.getElementById("league-groups").innerHTML = g;
  let r = "";
  for (const x of l.groups)
    if (x.last_round.length)
      r += `<p class="meta">${esc(x.name)}, round ${x.rounds} at ${esc(new Date(x.last_round_ms).toLocaleTimeString())}:</p>` +
           `<ul class="round">${x.last_round.map(line => `<li>${esc(line)}</li>`).join("")}</ul>`;
  document.getElementById("league-rounds").innerHTML = r;
  let t = "<tr><th>#</th><th>Player</th><th>Group</th><th>Rate</th><th>Elo</th><th>95 %</th><th>Games</th>" +
          "<th>Won</th><th>Lost</th></tr>";
  l.ratings.forEach((p, i) => {
    t += `<tr class="click player" data-player="${esc(p.name)}"><td>${i + 1}</td><td class="name">${esc(p.name)}</td>` +
         `<td>${p.group === 999 ? "-" : p.group}</td><td>${p.group === 999 ? "-" : p.rate}</td>` +
         `<td>${p.elo === undefined ? "" : p.elo}</td>` +
         `<td>${p.elo === undefined ? "" : `[${p.lower}, ${p.upper}]`}</td><td>${p.games}</td>` +
         `<td>${p.win}</td><td>${p.loss}</td></tr>`;
  });
  document.getElementById("league-ratings").innerHTML = t;
  tickLeague();
}

// A player's page: the finished games (the newest 1000) where the player played either side.
function openPlayer(name) {
  const total = latest ? latest.finished_total : 0;
  fetch(`api/games?from=${Math.max(0, total - 1000)}&count=1000`).then(r => r.json()).then(games => {
    const mine = games.filter(f => f.black === name || f.white === name).reverse();
    let h = "<tr><th>Game</th><th>Black</th><th>White</th><th>Result</th><th>Plies</th><th>Termination</th></tr>";
    for (const f of mine)
      h += `<tr class="click" data-game="${f.game}"><td>${f.game + 1}</td><td class="name">${esc(f.black)}</td>` +
           `<td class="name">${esc(f.white)}</td><td>${resultText(f.result)}</td><td>${f.plies}</td>` +
           `<td>${esc(f.termination)}</td></tr>`;
    document.getElementById("player-name").textContent = name;
    document.getElementById("player-count").textContent = `(${mine.length})`;
    document.getElementById("player-games").innerHTML = h;
    const section = document.getElementById("player-section");
    section.hidden = false;
    section.scrollIntoView({ block: "nearest" });
  });
}
document.getElementById("league-ratings").addEventListener("click", ev => {
  const row = ev.target.closest("tr[data-player]");
  if (row) openPlayer(row.dataset.player);
});
document.getElementById("player-games").addEventListener("click", ev => {
  const row = ev.target.closest("tr[data-game]");
  if (row) openReplay(Number(row.dataset.game));
});
document.getElementById("player-close").addEventListener("click", ev => {
  ev.preventDefault();
  document.getElementById("player-section").hidden = true;
});

function render(u) {
  latest = u;
  receivedAt = performance.now();
  document.getElementById("title").textContent = u.title || "Shogi Arena";
  document.title = (u.title || "Shogi Arena") + " · live";
  document.getElementById("status").textContent = u.status || "";
  renderStandings(u.standings);
  renderSpsa(u.spsa);
  renderLeague(u.league);
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
setInterval(tickLeague, 250);
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

#include "web/page_common.h"

namespace arena::web {

namespace {

constexpr std::string_view kStyle = R"STYLE(:root { --ink:#1d1d1f; --muted:#6b6b70; --line:#d0d0d6; --board:#f0d49b; --accent:#2a62c9; --bad:#c0392b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, "Noto Sans CJK JP", "Noto Sans", sans-serif; color: var(--ink);
       background: #fafafc; }
header { display: flex; align-items: baseline; gap: 1em; padding: .6em 1em; background: #fff;
         border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.2em; margin: 0; }
#conn { color: var(--muted); font-size: .9em; }
#conn.live { color: #2e7d32; }
main { padding: 0 1em 2em; }
h2 { font-size: 1em; margin: 1.2em 0 .4em; }
#status { font-family: ui-monospace, monospace; font-size: .9em; white-space: pre-wrap; }
.bar { position: relative; height: 10px; background: #e6e6ea; border-radius: 5px; overflow: hidden; margin: .4em 0; }
.bar > div { position: absolute; top: 0; bottom: 0; background: var(--accent); }
.llr { max-width: 480px; }
.llr .mark { width: 3px; background: var(--ink); }
table { border-collapse: collapse; font-size: .9em; }
th, td { padding: .2em .6em; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child, td.name { text-align: left; }
tr.click { cursor: pointer; }
tr.click:hover { background: #eef3fd; }
td.fault { color: var(--bad); font-weight: 600; }
#boards { display: flex; flex-wrap: wrap; gap: 1em; }
.game { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5em; width: 400px; }
.game .who { display: flex; justify-content: space-between; font-weight: 600; }
.clock { font-family: ui-monospace, monospace; padding: 0 .3em; border-radius: 3px; }
.clock.running { background: #1d1d1f; color: #fff; }
.clock.low { background: var(--bad); color: #fff; }
.think { font-family: ui-monospace, monospace; font-size: .8em; color: var(--muted); min-height: 2.6em;
         overflow: hidden; text-overflow: ellipsis; }
.meta { font-size: .8em; color: var(--muted); }
svg.board { display: block; margin: .3em auto; }
#replay { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5em 1em; max-width: 720px; }
#replay .controls button { font-size: 1em; min-width: 2.4em; }
#replay-moves { font-family: ui-monospace, monospace; font-size: .85em; max-height: 8em; overflow: auto; }
#replay-moves span { cursor: pointer; padding: 0 .15em; }
#replay-moves span.now { background: var(--accent); color: #fff; }
.spsa-charts { display: flex; flex-wrap: wrap; gap: 1em; }
.spsa-chart { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .3em .5em; }
.spsa-chart .band { fill: #2a62c933; }
.spsa-chart .theta { fill: none; stroke: var(--accent); stroke-width: 1.5; }
.spsa-chart .start { stroke: var(--muted); stroke-dasharray: 4 3; }
.spsa-chart .axis { stroke: var(--line); }
.spsa-chart text { font-size: 10px; fill: var(--muted); }
)STYLE";

// The board is drawn as SVG: 9x9 squares, files 9..1 from left to right and ranks 一..九 from the top, black
// (sente) playing upwards; white's pieces are turned over, promoted pieces are red, the squares of the last move
// are shaded, and each side's pieces in hand are drawn beside its edge. Glyphs are the standard kanji; the page
// names a CJK font family first and falls back to the letters of USI (P, +R, ...) only where a script asks for it
// (?letters).
constexpr std::string_view kScript = R"SCRIPT(const LETTERS = new URLSearchParams(location.search).has("letters");
const KANJI = { P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉",
                "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍" };
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
const RANKS = "一二三四五六七八九";

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A position from SFEN: squares[y*9+x] (y 0 = rank a, x 0 = file 9) hold "P", "+r", ... or "".
function parseSfen(sfen) {
  const parts = sfen.trim().split(/\s+/);
  const squares = new Array(81).fill("");
  let y = 0, x = 0, promoted = false;
  for (const ch of parts[0] || "") {
    if (ch === "/") { y++; x = 0; continue; }
    if (ch === "+") { promoted = true; continue; }
    if (ch >= "1" && ch <= "9") { x += Number(ch); continue; }
    if (y < 9 && x < 9) squares[y * 9 + x] = (promoted ? "+" : "") + ch;
    x++; promoted = false;
  }
  const hands = { b: {}, w: {} };
  const handText = parts[2] || "-";
  let count = 0;
  for (const ch of handText) {
    if (ch === "-") break;
    if (ch >= "0" && ch <= "9") { count = count * 10 + Number(ch); continue; }
    const side = ch === ch.toUpperCase() ? "b" : "w";
    const t = ch.toUpperCase();
    hands[side][t] = (hands[side][t] || 0) + (count || 1);
    count = 0;
  }
  return { squares, hands, side: parts[1] === "w" ? "w" : "b", last: null };
}

function squareIndex(text) {
  const file = Number(text[0]), rank = text.charCodeAt(1) - 97;
  if (!(file >= 1 && file <= 9 && rank >= 0 && rank <= 8)) return -1;
  return rank * 9 + (9 - file);
}

// Plays a USI move on a copy of `pos` (no legality check: the runner judged every move already).
function play(pos, usi) {
  const next = { squares: pos.squares.slice(), hands: { b: { ...pos.hands.b }, w: { ...pos.hands.w } },
                 side: pos.side === "b" ? "w" : "b", last: null };
  const mover = pos.side;
  if (usi[1] === "*") {
    const to = squareIndex(usi.slice(2, 4)), t = usi[0].toUpperCase();
    if (to < 0) return next;
    next.squares[to] = mover === "b" ? t : t.toLowerCase();
    next.hands[mover][t] = Math.max(0, (next.hands[mover][t] || 0) - 1);
    next.last = { from: -1, to };
    return next;
  }
  const from = squareIndex(usi.slice(0, 2)), to = squareIndex(usi.slice(2, 4));
  if (from < 0 || to < 0) return next;
  const captured = next.squares[to];
  if (captured) {
    const t = captured.replace("+", "").toUpperCase();
    next.hands[mover][t] = (next.hands[mover][t] || 0) + 1;
  }
  let piece = next.squares[from];
  if (usi[4] === "+" && !piece.startsWith("+")) piece = "+" + piece;
  next.squares[from] = "";
  next.squares[to] = piece;
  next.last = { from, to };
  return next;
}

function positionAt(startSfen, moves, ply) {
  let pos = parseSfen(startSfen);
  for (let i = 0; i < ply && i < moves.length; i++) pos = play(pos, moves[i]);
  return pos;
}

function glyph(piece) {
  const t = piece.toUpperCase();
  return LETTERS ? t : (KANJI[t] || t);
}

function pieceSvg(piece, cx, cy, cell) {
  const white = piece.replace("+", "") === piece.replace("+", "").toLowerCase();
  const promoted = piece.startsWith("+");
  const w = cell * 0.78, h = cell * 0.88, top = cy - h / 2, l = cx - w / 2;
  const shape = `M${cx},${top} L${l + w * 0.86},${top + h * 0.18} L${l + w},${top + h} L${l},${top + h} ` +
                `L${l + w * 0.14},${top + h * 0.18} Z`;
  const turn = white ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  return `<g class="piece ${white ? "w" : "b"}"${turn}><path d="${shape}" fill="#f7e7c4" stroke="#7a5a2a" ` +
         `stroke-width="1"/><text x="${cx}" y="${cy + cell * 0.2}" text-anchor="middle" font-size="${cell * 0.52}" ` +
         `fill="${promoted ? "#c0392b" : "#1d1d1f"}" font-family="'Noto Sans CJK JP','Noto Serif CJK JP',` +
         `'Hiragino Mincho ProN','Yu Mincho',serif">${esc(glyph(piece))}</text></g>`;
}

function handSvg(hand, side, x, y, cell) {
  let out = `<text x="${x}" y="${y}" font-size="${cell * 0.4}" fill="#1d1d1f">${side === "b" ? "☗" : "☖"}</text>`;
  let cx = x + cell * 0.8;
  for (const t of HAND_ORDER) {
    const n = hand[t] || 0;
    if (!n) continue;
    out += `<text class="hand" x="${cx}" y="${y}" font-size="${cell * 0.42}" fill="#1d1d1f" ` +
           `font-family="'Noto Sans CJK JP',serif">${esc(LETTERS ? t : KANJI[t])}${n > 1 ? n : ""}</text>`;
    cx += cell * (n > 1 ? 1.15 : 0.7);
  }
  return out;
}

function boardSvg(pos, cell = 38) {
  const margin = 18, handH = cell * 0.8;
  const bx = margin, by = handH + 4, size = cell * 9;
  const width = size + 2 * margin, height = size + 2 * handH + 8 + margin;
  let s = `<svg class="board" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
          `viewBox="0 0 ${width} ${height}">`;
  s += handSvg(pos.hands.w, "w", bx, handH * 0.75, cell);
  s += `<rect x="${bx}" y="${by}" width="${size}" height="${size}" fill="#f0d49b" stroke="#5a4020"/>`;
  if (pos.last) {
    for (const sq of [pos.last.from, pos.last.to]) {
      if (sq < 0) continue;
      const x = bx + (sq % 9) * cell, y = by + Math.floor(sq / 9) * cell;
      s += `<rect class="last" x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${sq === pos.last.to ?
            "#e8b04a" : "#f3c777"}"/>`;
    }
  }
  for (let i = 1; i < 9; i++) {
    s += `<line x1="${bx + i * cell}" y1="${by}" x2="${bx + i * cell}" y2="${by + size}" stroke="#5a4020" stroke-width=".7"/>`;
    s += `<line x1="${bx}" y1="${by + i * cell}" x2="${bx + size}" y2="${by + i * cell}" stroke="#5a4020" stroke-width=".7"/>`;
  }
  for (let x = 0; x < 9; x++)
    s += `<text x="${bx + x * cell + cell / 2}" y="${by - 2}" text-anchor="middle" font-size="9" fill="#6b6b70">${9 - x}</text>`;
  for (let y = 0; y < 9; y++)
    s += `<text x="${bx + size + 3}" y="${by + y * cell + cell / 2 + 3}" font-size="9" fill="#6b6b70">${LETTERS ?
          "abcdefghi"[y] : RANKS[y]}</text>`;
  for (let i = 0; i < 81; i++) {
    const p = pos.squares[i];
    if (p) s += pieceSvg(p, bx + (i % 9) * cell + cell / 2, by + Math.floor(i / 9) * cell + cell / 2, cell);
  }
  s += handSvg(pos.hands.b, "b", bx, by + size + handH * 0.85, cell);
  return s + "</svg>";
}

function clockText(ms) {
  ms = Math.max(0, ms);
  const t = Math.floor(ms / 100), d = t % 10, sec = Math.floor(t / 10) % 60, min = Math.floor(t / 600);
  return `${min}:${String(sec).padStart(2, "0")}.${d}`;
}

// A game list's "result" (the journal's "black", "white", "draw" or "none") as a score.
function resultText(result) {
  return {black: "1-0", white: "0-1", draw: "1/2-1/2"}[result] || "*";
}

function scoreText(info) {
  if (!info) return "";
  if (info.score_mate !== null && info.score_mate !== undefined) {
    // +/-999: the engine said `score mate +` / `score mate -`, a mate whose distance it did not give.
    if (Math.abs(info.score_mate) === 999) return `mate ${info.score_mate > 0 ? "+" : "-"}?`;
    return `mate ${info.score_mate}`;
  }
  if (info.score_cp !== null && info.score_cp !== undefined) return (info.score_cp > 0 ? "+" : "") + info.score_cp;
  return "";
}

function thinkText(info) {
  if (!info) return "";
  const parts = [];
  if (info.depth !== null && info.depth !== undefined) parts.push(`d${info.depth}`);
  const sc = scoreText(info);
  if (sc) parts.push(sc);
  if (info.nps) parts.push(`${Math.round(info.nps / 1000)}k nps`);
  if (info.pv && info.pv.length) parts.push(info.pv.slice(0, 8).join(" "));
  return parts.join(" · ");
}


function fmt(v, digits = 1) { return v === null || v === undefined ? "–" : Number(v).toFixed(digits); }

// The standings (standings/summary.h summary_json) as HTML: the pairings' table, the engines' table with their
// faults, and the SPRT's line with its LLR between the bounds.
// An SPSA run's charts (web/spsa_chart.h's data): one per parameter, theta over the pairs within the parameter's
// range, the band theta +/- c_k of what its two sides played, the start as a dashed line.
function spsaChartsHtml(s) {
  if (!s || !s.params) return "";
  const w = 360, h = 170, left = 44, right = 8, top = 18, bottom = 22;
  const last = Math.max(s.pairs_total || 1, s.k.length ? s.k[s.k.length - 1] : 1);
  const x = k => left + (w - left - right) * (k - 1) / Math.max(1, last - 1);
  let out = '<div class="spsa-charts">';
  s.params.forEach((p, i) => {
    const y = v => top + (h - top - bottom) * (1 - (Math.min(p.max, Math.max(p.min, v)) - p.min) / (p.max - p.min));
    const theta = s.theta[i] || [], c = s.c[i] || [];
    let band = "", line = "";
    if (theta.length) {
      const upper = s.k.map((k, j) => `${x(k).toFixed(1)},${y(theta[j] + c[j]).toFixed(1)}`);
      const lower = s.k.map((k, j) => `${x(k).toFixed(1)},${y(theta[j] - c[j]).toFixed(1)}`).reverse();
      band = `<polygon class="band" points="${upper.concat(lower).join(" ")}"/>`;
      line = `<polyline class="theta" points="${s.k.map((k, j) => `${x(k).toFixed(1)},${y(theta[j]).toFixed(1)}`).join(" ")}"/>`;
    }
    const now = theta.length ? theta[theta.length - 1] : p.start;
    out += `<div class="spsa-chart" data-param="${esc(p.name)}" data-theta="${now}">` +
           `<svg width="${w}" height="${h}" xmlns="http://www.w3.org/2000/svg">` +
           `<text x="${left}" y="12" style="font-weight:600;fill:#1d1d1f">${esc(p.name)} ${fmt(now)}</text>` +
           `<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${h - bottom}"/>` +
           `<line class="axis" x1="${left}" y1="${h - bottom}" x2="${w - right}" y2="${h - bottom}"/>` +
           `<text x="${left - 4}" y="${top + 4}" text-anchor="end">${fmt(p.max)}</text>` +
           `<text x="${left - 4}" y="${h - bottom}" text-anchor="end">${fmt(p.min)}</text>` +
           `<text x="${w - right}" y="${h - 6}" text-anchor="end">pair ${last}</text>` +
           `<text x="${left}" y="${h - 6}">1</text>` +
           `<line class="start" x1="${left}" y1="${y(p.start)}" x2="${w - right}" y2="${y(p.start)}"/>` +
           band + line + `</svg></div>`;
  });
  return out + "</div>";
}

function standingsHtml(st) {
  let p = "<tr><th>Pairing</th><th>Games</th><th>W</th><th>L</th><th>D</th><th>Elo</th><th>±</th><th>nElo</th>" +
          "<th>LOS</th><th>Pentanomial</th></tr>";
  for (const r of st.pairings || [])
    p += `<tr><td class="name">${esc(r.first)} vs ${esc(r.second)}</td><td>${r.games}</td><td>${r.wins}</td>` +
         `<td>${r.losses}</td><td>${r.draws}</td><td class="elo">${fmt(r.elo)}</td><td>${fmt(r.elo_error)}</td>` +
         `<td>${fmt(r.nelo)}</td><td>${r.los === null ? "–" : fmt(100 * r.los) + "%"}</td>` +
         `<td>${(r.pentanomial || []).join(" ")}</td></tr>`;
  let e = "<tr><th>Engine</th><th>Games</th><th>Points</th><th>Crashes</th><th>Stalls</th><th>Time losses</th>" +
          "<th>Illegal moves</th></tr>";
  for (const r of st.engines || []) {
    const f = v => `<td class="${v ? "fault" : ""}">${v}</td>`;
    e += `<tr><td class="name">${esc(r.name)}</td><td>${r.games}</td><td>${fmt(r.points)}</td>` +
         f(r.crashes) + f(r.stalls) + f(r.time_losses) + f(r.illegal_moves) + "</tr>";
  }
  let sprt = "";
  if (st.sprt) {
    const s = st.sprt, span = s.upper - s.lower;
    const at = span > 0 ? Math.min(100, Math.max(0, 100 * (s.llr - s.lower) / span)) : 50;
    sprt = `<div>SPRT [${fmt(s.elo0)}, ${fmt(s.elo1)}] ${esc(s.model)}: LLR <b id="llr">${fmt(s.llr, 2)}</b> ` +
           `(${fmt(s.lower, 2)}, ${fmt(s.upper, 2)}) ${s.verdict && s.verdict !== "continue" ?
           "· " + esc(s.verdict) : ""}</div><div class="bar llr"><div class="mark" style="left:${at}%"></div></div>`;
  }
  return { pairings: p, engines: e, sprt, ratings: ratingsHtml(st), cross: crossTableHtml(st) };
}

// The rating list of more than two engines (standings/ratings.h): rank, Elo with its 95 % interval, games, score,
// and the likelihood that each engine is stronger than the next.
function ratingsHtml(st) {
  const r = st.ratings;
  if (!r) return "";
  const anchor = r.anchor === null ? "mean 0" : `${esc(r.anchor)} at ${fmt(r.anchor_elo)}`;
  let out = `<caption>Ratings (maximum likelihood, ${anchor})</caption>`;
  if (r.error) return out + `<tr><td class="meta">none yet: ${esc(r.error)}</td></tr>`;
  out += "<tr><th>#</th><th>Engine</th><th>Elo</th><th>±</th><th>95 %</th><th>Games</th><th>Score</th>" +
         "<th>LOS next</th></tr>";
  for (const e of r.engines) {
    const bound = e.bound === "lower" ? "&gt;" : e.bound === "upper" ? "&lt;" : "";
    out += `<tr><td>${e.rank}</td><td class="name">${esc(e.name)}</td><td class="elo">${bound}${fmt(e.elo)}</td>` +
           `<td>${fmt(e.error)}</td><td>${fmt(e.lower)} .. ${fmt(e.upper)}</td><td>${e.games}</td>` +
           `<td>${e.games ? fmt(100 * e.points / e.games) + "%" : "–"}</td>` +
           `<td>${e.los_next === null ? "" : fmt(100 * e.los_next) + "%"}</td></tr>`;
  }
  return out;
}

// Points of the row engine against the column engine, for more than two engines.
function crossTableHtml(st) {
  const names = (st.engines || []).map(e => e.name);
  if (names.length <= 2) return "";
  const cell = {};
  for (const p of st.pairings || []) {
    cell[p.first + "\u0000" + p.second] = `${fmt(p.wins + p.draws / 2)}/${p.games}`;
    cell[p.second + "\u0000" + p.first] = `${fmt(p.losses + p.draws / 2)}/${p.games}`;
  }
  let out = "<caption>Cross table: points of the row engine / games</caption><tr><th></th>" +
            names.map(n => `<th>${esc(n)}</th>`).join("") + "</tr>";
  for (const a of names)
    out += `<tr><td class="name">${esc(a)}</td>` +
           names.map(b => `<td>${a === b ? "" : cell[a + "\u0000" + b] || "–"}</td>`).join("") + "</tr>";
  return out;
}

// The replay of a finished game: `game` is a journal line's game (start_sfen, moves, times_ms, info, opening_plies,
// termination), stepped through on the board of the #replay section. onReplayStep(replay) is called after each
// step when a page sets it.
let replay = null, onReplayStep = null;
function showReplay() {
  const g = replay.game, ply = replay.ply;
  const pos = positionAt(g.start_sfen, g.moves, ply);
  document.getElementById("replay-board").innerHTML = boardSvg(pos);
  document.getElementById("r-ply").textContent = ` ply ${ply} / ${g.moves.length} `;
  const info = ply > 0 && g.info ? g.info[ply - 1] : null;
  const time = ply > 0 && g.times_ms ? g.times_ms[ply - 1] : null;
  document.getElementById("replay-info").textContent = ply === 0 ? "start position" :
      `${g.moves[ply - 1]}${ply <= (g.opening_plies || 0) ? " (opening)" : ""}` +
      (time !== null ? ` · ${time} ms` : "") + (info ? " · " + thinkText(info) : "") +
      (ply === g.moves.length ? ` · ${g.termination}` : "");
  document.querySelectorAll("#replay-moves span").forEach((el, i) => el.classList.toggle("now", i === ply - 1));
  if (onReplayStep) onReplayStep(replay);
}
function replayTitle(n, g) {
  return `Game ${n + 1}: ${g.black} vs ${g.white} · ${g.result === "black" ? "black won" : g.result === "white" ?
         "white won" : g.result === "draw" ? "draw" : "not scored"} · ${g.termination}` + (g.detail ? ` (${g.detail})` : "");
}
function openReplayWith(n, g) {
  replay = { n, game: g, ply: g.moves.length };
  const sec = document.getElementById("replay");
  sec.hidden = false;
  document.getElementById("replay-title").textContent = replayTitle(n, g);
  document.getElementById("replay-moves").innerHTML =
      g.moves.map((m, i) => `<span data-ply="${i + 1}">${i % 2 === 0 ? (i / 2 + 1) + "." : ""}${esc(m)}</span>`).join(" ");
  showReplay();
}
function replayUnavailable(n, why) {
  replay = null;
  document.getElementById("replay").hidden = false;
  document.getElementById("replay-title").textContent = `Game ${n + 1}: not available (${why})`;
  document.getElementById("replay-board").innerHTML = "";
  document.getElementById("replay-moves").innerHTML = "";
  document.getElementById("replay-info").textContent = "";
  document.getElementById("replay-extra").innerHTML = "";
  document.getElementById("r-ply").textContent = "";
}
function step(to) {
  if (!replay) return;
  replay.ply = Math.max(0, Math.min(replay.game.moves.length, to));
  showReplay();
}
function wireReplay() {
  document.getElementById("replay-moves").addEventListener("click", ev => {
    const el = ev.target.closest("span[data-ply]");
    if (el) step(Number(el.dataset.ply));
  });
  document.getElementById("r-first").onclick = () => step(0);
  document.getElementById("r-prev").onclick = () => replay && step(replay.ply - 1);
  document.getElementById("r-next").onclick = () => replay && step(replay.ply + 1);
  document.getElementById("r-last").onclick = () => replay && step(replay.game.moves.length);
  document.getElementById("r-close").onclick = () => { document.getElementById("replay").hidden = true; replay = null; };
  document.addEventListener("keydown", ev => {
    if (!replay || ev.target.closest("input, select")) return;
    if (ev.key === "ArrowLeft") step(replay.ply - 1);
    if (ev.key === "ArrowRight") step(replay.ply + 1);
  });
}
)SCRIPT";

constexpr std::string_view kReplaySection = R"SECTION(<section id="replay" hidden>
  <h2 id="replay-title"></h2>
  <div id="replay-board"></div>
  <div class="controls">
    <button id="r-first" title="start">«</button><button id="r-prev" title="back">◀</button>
    <span id="r-ply"></span>
    <button id="r-next" title="forward">▶</button><button id="r-last" title="end">»</button>
    <button id="r-close" title="close">✕</button>
  </div>
  <div id="replay-info" class="think"></div>
  <div id="replay-moves"></div>
  <div id="replay-extra"></div>
</section>)SECTION";

void replace(std::string& page, std::string_view marker, std::string_view with) {
  if (const size_t at = page.find(marker); at != std::string::npos) page.replace(at, marker.size(), with);
}

}  // namespace

std::string_view common_style() { return kStyle; }
std::string_view common_script() { return kScript; }
std::string_view replay_section() { return kReplaySection; }

std::string with_common_parts(std::string_view page) {
  std::string out(page);
  replace(out, "/*COMMON_STYLE*/", kStyle);
  replace(out, "/*COMMON_SCRIPT*/", kScript);
  replace(out, "<!--REPLAY_SECTION-->", kReplaySection);
  return out;
}

}  // namespace arena::web

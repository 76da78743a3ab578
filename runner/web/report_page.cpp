// The report's page (report.h report_html): the data is written into it as JSON and drawn by its script, with the
// board, standings and replay of page_common. The charts are SVG drawn by chartSvg below: no library, nothing
// fetched.
#include "web/page_common.h"
#include "web/report.h"

namespace arena::web {

namespace {

constexpr std::string_view kReportPage = R"PAGE(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shogi Arena report</title>
<link rel="icon" href="data:,">
<style>
/*COMMON_STYLE*/
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
.chart { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .4em .6em; }
.chart h3 { font-size: .9em; margin: .1em 0 .3em; }
.chart svg { display: block; }
.legend { font-size: .8em; color: var(--muted); }
.legend span { display: inline-block; margin-right: 1em; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: .3em; vertical-align: -1px; }
.stack { display: flex; height: 14px; min-width: 2px; border-radius: 3px; overflow: hidden; }
.stack div { height: 100%; }
#filters { margin: .4em 0; display: flex; gap: 1em; align-items: center; flex-wrap: wrap; font-size: .9em; }
#pager button { min-width: 2.4em; }
#replay { max-width: 1000px; }
#replay-extra { display: flex; flex-wrap: wrap; gap: 1em; }
#replay-extra svg { cursor: crosshair; }
.judged a { margin-right: .8em; cursor: pointer; }
.judged .b, a.b { color: #c0392b; font-weight: 600; }
.judged .m { color: #d35400; }
</style>
</head>
<body>
<header><h1 id="title">Shogi Arena report</h1><span id="source" class="meta"></span></header>
<main>
<section><div id="status" class="meta"></div><div id="builds" class="meta"></div><div id="sprt"></div></section>
<section id="spsa-section" hidden><h2>SPSA: theta over the pairs</h2><div id="spsa"></div></section>
<section><h2>Standings</h2><table id="pairings"></table><br><table id="engines"></table><br><table id="ratings"></table><br><table id="cross"></table></section>
<section><h2>Elo, ratings and LLR over the games</h2><div class="charts" id="progress-charts"></div></section>
<section><h2>Time used per move against time given</h2>
  <p class="meta">Each dot is a move: the time it took against what the clock allowed before it (main time left plus
  increment or byoyomi), reconstructed from the time control and the recorded times. On or above the diagonal the
  move used all it was given; red crosses lost on time (at the top when the engine never answered), orange dots went
  over within the margin.</p>
  <div class="charts" id="time-charts"></div><br><table id="time-table"></table></section>
<section><h2>Terminations</h2><table id="terminations"></table><br><table id="engine-terminations"></table></section>
<section id="analysis-section" hidden><h2>Where games were lost <span id="analysis-source" class="meta"></span></h2>
  <p class="meta">The referee's judgement of every engine move (shogi-arena analyze): the average centipawns a move gave
  up, and per 100 moves the blunders, mistakes and inaccuracies, judged on the winning chance given up; agreement is
  the share of the referee's own best moves. Each lost game's decisive mistake opens its replay at that ply.</p>
  <table id="analysis-engines"></table><br><table id="analysis-lost"></table></section>
<section><h2>Games <span id="games-total" class="meta"></span></h2>
  <div id="filters">
    <label>Engine <select id="f-engine"><option value="">all</option></select></label>
    <label>Termination <select id="f-termination"><option value="">all</option></select></label>
    <label><input type="checkbox" id="f-faults"> faults only</label>
    <span id="pager"><button id="p-prev">◀</button> <span id="p-text"></span> <button id="p-next">▶</button></span>
  </div>
  <table id="games"></table>
</section>
<!--REPLAY_SECTION-->
</main>
<script type="application/json" id="report-data">/*REPORT_DATA*/</script>
<script>
"use strict";
/*COMMON_SCRIPT*/

const DATA = JSON.parse(document.getElementById("report-data").textContent);
// The games come as a table (a row of values per game, its columns named once): a third of the page of a long run.
DATA.games = DATA.games.map(row => Object.fromEntries(DATA.game_columns.map((column, i) => [column, row[i]])));
const COLORS = ["#2a62c9", "#c0392b", "#2e7d32", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b8860b"];
const FAULTS = new Set(["time-forfeit", "stall", "disconnect", "illegal-move", "illegal-declaration"]);

// Ticks: round numbers for a linear axis, powers of ten for a log one.
function ticks(min, max, log) {
  if (log) {
    const out = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(Math.pow(10, e));
    return out.filter(v => v >= min * 0.999 && v <= max * 1.001);
  }
  const span = max - min || 1, raw = span / 6, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const stepSize = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => span / s <= 7) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(min / stepSize) * stepSize; v <= max + 1e-9; v += stepSize) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}
function msText(v) { return v >= 1000 ? (v / 1000) + " s" : v + " ms"; }

// An SVG chart. opts: width, height, x/y: {label, log, min, max, format}, series: [{color, points: [[x, y]],
// mode: "line" | "dots" | "crosses", band: [[x, lo, hi]], title}], hlines: [{y, color, label}], diagonal,
// marker (an x drawn as a vertical line). Returns {svg, toX(px)} so that a click can be mapped back.
function chartSvg(opts) {
  const W = opts.width || 520, H = opts.height || 260, L = 56, R = 12, T = 10, B = 36;
  const all = [];
  for (const s of opts.series) {
    for (const p of s.points) if (p[1] !== null && p[1] !== undefined) all.push(p);
    for (const b of s.band || []) { if (b[1] !== null) all.push([b[0], b[1]]); if (b[2] !== null) all.push([b[0], b[2]]); }
  }
  for (const h of opts.hlines || []) all.push([null, h.y]);
  const xs = all.map(p => p[0]).filter(v => v !== null), ys = all.map(p => p[1]);
  const x = Object.assign({}, opts.x), y = Object.assign({}, opts.y);
  const lo = (v, log) => log ? Math.max(1, v) : v;
  x.min = x.min ?? (xs.length ? Math.min(...xs) : 0); x.max = x.max ?? (xs.length ? Math.max(...xs) : 1);
  y.min = y.min ?? (ys.length ? Math.min(...ys) : 0); y.max = y.max ?? (ys.length ? Math.max(...ys) : 1);
  if (x.log) { x.min = lo(x.min, true); x.max = Math.max(x.min * 10, x.max); }
  if (y.log) { y.min = lo(y.min, true); y.max = Math.max(y.min * 10, y.max); }
  if (x.max === x.min) x.max = x.min + 1;
  if (y.max === y.min) { y.max += 1; y.min -= 1; }
  const f = (v, a, log) => log ? Math.log10(Math.max(v, a.min)) : v;
  const sx = v => L + (W - L - R) * (f(v, x, x.log) - f(x.min, x, x.log)) / (f(x.max, x, x.log) - f(x.min, x, x.log));
  const sy = v => T + (H - T - B) * (1 - (f(v, y, y.log) - f(y.min, y, y.log)) / (f(y.max, y, y.log) - f(y.min, y, y.log)));
  const clampY = v => Math.max(T, Math.min(H - B, sy(v)));
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" class="chart-svg">`;
  s += `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="#fff" stroke="#d0d0d6"/>`;
  const fx = x.format || (v => String(v)), fy = y.format || (v => String(v));
  for (const t of ticks(x.min, x.max, x.log))
    s += `<line x1="${sx(t)}" y1="${T}" x2="${sx(t)}" y2="${H - B}" stroke="#eee"/>` +
         `<text x="${sx(t)}" y="${H - B + 13}" font-size="10" text-anchor="middle" fill="#6b6b70">${esc(fx(t))}</text>`;
  for (const t of ticks(y.min, y.max, y.log))
    s += `<line x1="${L}" y1="${sy(t)}" x2="${W - R}" y2="${sy(t)}" stroke="#eee"/>` +
         `<text x="${L - 4}" y="${sy(t) + 3}" font-size="10" text-anchor="end" fill="#6b6b70">${esc(fy(t))}</text>`;
  s += `<text x="${(L + W - R) / 2}" y="${H - 4}" font-size="11" text-anchor="middle" fill="#1d1d1f">${esc(x.label || "")}</text>`;
  s += `<text x="12" y="${(T + H - B) / 2}" font-size="11" text-anchor="middle" fill="#1d1d1f" ` +
       `transform="rotate(-90 12 ${(T + H - B) / 2})">${esc(y.label || "")}</text>`;
  if (opts.diagonal) {
    const a = Math.max(x.min, y.min), b = Math.min(x.max, y.max);
    if (b > a) s += `<line class="diagonal" x1="${sx(a)}" y1="${sy(a)}" x2="${sx(b)}" y2="${sy(b)}" stroke="#1d1d1f" stroke-dasharray="4 3"/>`;
  }
  for (const h of opts.hlines || [])
    s += `<line x1="${L}" y1="${sy(h.y)}" x2="${W - R}" y2="${sy(h.y)}" stroke="${h.color}" stroke-dasharray="5 3"/>` +
         `<text x="${W - R - 3}" y="${sy(h.y) - 3}" font-size="10" text-anchor="end" fill="${h.color}">${esc(h.label || "")}</text>`;
  for (const ser of opts.series) {
    const band = (ser.band || []).filter(b => b[1] !== null && b[2] !== null);
    if (band.length > 1)
      s += `<path d="M${band.map(b => `${sx(b[0])},${clampY(b[2])}`).join("L")}L${band.slice().reverse().map(b =>
            `${sx(b[0])},${clampY(b[1])}`).join("L")}Z" fill="${ser.color}" opacity=".15"/>`;
    const pts = ser.points.filter(p => p[1] !== null && p[1] !== undefined);
    if (ser.mode === "line") {
      if (pts.length) s += `<path class="series" d="M${pts.map(p => `${sx(p[0])},${clampY(p[1])}`).join("L")}" fill="none" ` +
                           `stroke="${ser.color}" stroke-width="1.6"><title>${esc(ser.title || "")}</title></path>`;
    } else if (ser.mode === "crosses") {
      for (const p of pts) {
        const cx = sx(p[0]), cy = clampY(p[1]);
        s += `<path class="flag" d="M${cx - 4},${cy - 4}L${cx + 4},${cy + 4}M${cx - 4},${cy + 4}L${cx + 4},${cy - 4}" ` +
             `stroke="${ser.color}" stroke-width="2"><title>${esc(p[2] || "")}</title></path>`;
      }
    } else {
      s += `<g fill="${ser.color}" opacity="${ser.opacity || 0.5}">` +
           pts.map(p => `<circle cx="${sx(p[0]).toFixed(1)}" cy="${clampY(p[1]).toFixed(1)}" r="${ser.r || 1.8}"/>`).join("") + "</g>";
    }
  }
  if (opts.marker !== undefined && opts.marker !== null)
    s += `<line class="marker" x1="${sx(opts.marker)}" y1="${T}" x2="${sx(opts.marker)}" y2="${H - B}" stroke="#1d1d1f"/>`;
  s += "</svg>";
  const toX = px => x.min + (px - L) / (W - L - R) * (x.max - x.min);
  return { svg: s, toX };
}
function legend(items) {
  return `<div class="legend">${items.map(i => `<span><i style="background:${i.color}"></i>${esc(i.name)}</span>`).join("")}</div>`;
}
function chartBox(title, inner) { return `<div class="chart"><h3>${esc(title)}</h3>${inner}</div>`; }

function renderHeader() {
  document.getElementById("title").textContent = DATA.title;
  document.title = DATA.title + " · report";
  document.getElementById("source").textContent = `${DATA.source}${DATA.created ? " · created " + DATA.created : ""}`;
  const st = DATA.summary;
  if (!st) return;
  const g = st.games || {};
  // Engines built from git refs or checked by their bench, and a time control scaled to the machine.
  const builds = (st.builds || []).map(b => `${b.engine}: ` +
      (b.repo ? `${b.repo}@${b.ref} = ${b.commit.slice(0, 12)}${b.dirty ? " + uncommitted changes" : ""}` : "") +
      (b.bench != null ? `${b.repo ? ", " : ""}bench ${b.bench} checked` : ""));
  if (st.scale_tc)
    builds.push(`time controls scaled x${st.scale_tc.factor.toFixed(3)} (${st.scale_tc.engine}'s bench: ` +
                `${Math.round(st.scale_tc.measured_nps)} nps, written for ${Math.round(st.scale_tc.nps)})`);
  document.getElementById("builds").textContent = builds.join(" · ");
  document.getElementById("status").textContent =
      `${g.journaled ?? DATA.games.length} game lines of ${g.scheduled ?? "?"} scheduled · ${DATA.replays.length} ` +
      `replayable${DATA.replays.length < DATA.games.length ? ` (at most ${DATA.max_replays}: faults first)` : ""}`;
  const html = standingsHtml(st);
  document.getElementById("pairings").innerHTML = html.pairings;
  document.getElementById("engines").innerHTML = html.engines;
  document.getElementById("ratings").innerHTML = html.ratings;
  document.getElementById("cross").innerHTML = html.cross;
  document.getElementById("sprt").innerHTML = html.sprt;
}

function renderSpsa() {
  if (!DATA.spsa) return;
  document.getElementById("spsa-section").hidden = false;
  document.getElementById("spsa").innerHTML = spsaChartsHtml(DATA.spsa);
}

function renderProgress() {
  const S = DATA.series, box = document.getElementById("progress-charts");
  if (!S.games.length) { box.innerHTML = '<p class="meta">no games</p>'; return; }
  const series = S.pairings.map((p, i) => ({
    color: COLORS[i % COLORS.length], mode: "line", title: p.name,
    points: S.games.map((x, k) => [x, p.elo[k]]), band: S.games.map((x, k) => [x, p.lower[k], p.upper[k]]) }));
  // Early estimates are wild (a 2-0 start is +inf): the axis follows the estimates once a few games are in.
  const settled = series.flatMap(s => s.points.slice(Math.floor(s.points.length / 10))).map(p => p[1]).filter(v => v !== null);
  const ymax = settled.length ? Math.max(50, ...settled.map(Math.abs)) * 1.5 : 100;
  const games = { label: "games", min: 0, max: S.games[S.games.length - 1] };
  const infinite = S.pairings.filter(p => p.elo.every(v => v === null)).map(p => p.name);
  let html = chartBox("Elo (95 % interval) by games played",
      chartSvg({ series, x: games, y: { label: "Elo", min: -ymax, max: ymax },
                 hlines: [{ y: 0, color: "#6b6b70" }] }).svg + legend(S.pairings.map((p, i) => ({ name: p.name, color: COLORS[i % COLORS.length] }))) +
      (infinite.length ? `<p class="meta">No finite Elo yet for ${esc(infinite.join(", "))}: one side has every point ` +
                         "(or no game is scored).</p>" : ""));
  if (S.ratings) {
    const R = S.ratings, last = R.games[R.games.length - 1];
    const rs = R.engines.map((e, i) => ({ color: COLORS[i % COLORS.length], mode: "line", title: e.name,
                                          points: R.games.map((x, k) => [x, e.elo[k]]) }));
    const values = rs.flatMap(s => s.points.slice(Math.floor(s.points.length / 10))).map(p => p[1]).filter(v => v !== null);
    const top = values.length ? Math.max(50, ...values.map(Math.abs)) * 1.2 : 100;
    html += chartBox("Ratings by games played (the rating list at each point)",
        chartSvg({ series: rs, x: { label: "games", min: 0, max: last }, y: { label: "Elo", min: -top, max: top },
                   hlines: [{ y: 0, color: "#6b6b70" }] }).svg +
        legend(R.engines.map((e, i) => ({ name: e.name, color: COLORS[i % COLORS.length] }))));
  }
  if (S.llr) {
    const [lower, upper] = S.bounds;
    html += chartBox("SPRT log-likelihood ratio by games played", chartSvg({
      series: [{ color: COLORS[0], mode: "line", points: S.games.map((x, k) => [x, S.llr[k]]), title: "LLR" }],
      x: games, y: { label: "LLR" },
      hlines: [{ y: upper, color: "#2e7d32", label: `H1 ${upper.toFixed(2)}` }, { y: lower, color: "#c0392b", label: `H0 ${lower.toFixed(2)}` }] }).svg);
  }
  box.innerHTML = html;
}

function renderTimes() {
  const box = document.getElementById("time-charts");
  let html = "";
  let t = "<tr><th>Engine</th><th>Moves</th><th>Mean time</th><th>Mean share of allowance</th><th>Largest share</th>" +
          "<th>Over allowance (in margin)</th><th>Time losses</th></tr>";
  for (const e of DATA.times) {
    const normal = e.points.filter(p => p[4] === 0), over = e.points.filter(p => p[4] === 1), lost = e.points.filter(p => p[4] === 2);
    const top = Math.max(10, ...e.points.map(p => Math.max(p[0], p[1] ?? 0)));
    // Both axes from the same power of ten below the smallest figure, so that the diagonal stays at 45 degrees.
    const least = Math.min(...e.points.flatMap(p => [p[0], p[1] ?? top]).filter(v => v > 0), top);
    const bottom = Math.pow(10, Math.floor(Math.log10(least)));
    const series = [
      { color: "#2a62c9", points: normal.map(p => [Math.max(bottom, p[0]), Math.max(bottom, p[1])]), r: 2, opacity: 0.45 },
      { color: "#d35400", points: over.map(p => [Math.max(bottom, p[0]), Math.max(bottom, p[1])]), r: 2.6, opacity: 0.9 },
      { color: "#c0392b", mode: "crosses", points: lost.map(p => [Math.max(bottom, p[0]), p[1] === null ? top * 2 : Math.max(bottom, p[1]),
          `game ${p[2] + 1}, ply ${p[3]}: given ${p[0]} ms, ${p[1] === null ? "no answer" : "used " + p[1] + " ms"}`]) }];
    const chart = e.points.length
        ? chartSvg({ width: 420, height: 300, series, diagonal: true,
                     x: { label: "time given (ms, log)", log: true, min: bottom, max: top * 2, format: msText },
                     y: { label: "time used (ms, log; 0 at the bottom)", log: true, min: bottom, max: top * 2, format: msText } }).svg
        : '<p class="meta">no timed moves</p>';
    html += chartBox(`${e.engine}${e.sampled ? " (a sample of the moves)" : ""}`, chart);
    const fault = v => `<td class="${v ? "fault" : ""}">${v}</td>`;
    t += `<tr><td class="name">${esc(e.engine)}</td><td>${e.moves}</td><td>${fmt(e.mean_used_ms, 0)} ms</td>` +
         `<td>${fmt(100 * e.mean_share)} %</td><td>${fmt(100 * e.max_share)} %</td>` + fault(e.over_allowance) +
         fault(e.time_losses) + "</tr>";
  }
  box.innerHTML = html || '<p class="meta">no engines</p>';
  document.getElementById("time-table").innerHTML = t;
}

function renderTerminations() {
  const total = DATA.terminations.reduce((a, r) => a + r.black + r.white + r.draw + r.unscored, 0) || 1;
  const parts = [["black", "#1d1d1f", "black won"], ["white", "#c9c9cf", "white won"], ["draw", "#2a62c9", "draw"],
                 ["unscored", "#d35400", "not scored (void or interrupted)"]];
  let h = "<tr><th>Termination</th><th>Games</th><th>Black won</th><th>White won</th><th>Draw</th><th>Not scored</th>" +
          "<th style=\"width:320px\">" + legend(parts.map(p => ({ name: p[2], color: p[1] }))) + "</th></tr>";
  for (const r of DATA.terminations) {
    const n = r.black + r.white + r.draw + r.unscored;
    const bar = parts.map(p => r[p[0]] ? `<div style="width:${100 * r[p[0]] / n}%;background:${p[1]}" title="${p[2]}: ${r[p[0]]}"></div>` : "").join("");
    h += `<tr class="termination"><td class="name ${FAULTS.has(r.termination) ? "fault" : ""}">${esc(r.termination)}</td><td>${n}</td>` +
         `<td>${r.black}</td><td>${r.white}</td><td>${r.draw}</td><td>${r.unscored}</td>` +
         `<td><div class="stack" style="width:${Math.max(1, 300 * n / total)}px">${bar}</div></td></tr>`;
  }
  document.getElementById("terminations").innerHTML = h;
  const names = Object.keys(DATA.engine_terminations);
  const kinds = [...new Set(names.flatMap(n => Object.keys(DATA.engine_terminations[n])))].sort();
  let e = `<tr><th>Engine: wins / losses / draws by</th>${kinds.map(k => `<th>${esc(k)}</th>`).join("")}</tr>`;
  for (const n of names)
    e += `<tr><td class="name">${esc(n)}</td>${kinds.map(k => {
      const c = DATA.engine_terminations[n][k];
      return `<td class="${c && c[1] && FAULTS.has(k) ? "fault" : ""}">${c ? c.join(" / ") : ""}</td>`;
    }).join("")}</tr>`;
  document.getElementById("engine-terminations").innerHTML = names.length ? e : "";
}

// The analysis: each engine's figures (overall, by phase, by time left) and the lost games, each a link to its
// replay at the decisive mistake.
function renderAnalysis() {
  const a = DATA.analysis;
  if (!a) return;
  document.getElementById("analysis-section").hidden = false;
  document.getElementById("analysis-source").textContent = `referee ${a.referee || "?"}, ${a.budget} a position`;
  const per100 = (n, s) => s.moves ? (100 * n / s.moves).toFixed(2) : "";
  const row = (label, s, cls) => `<tr class="${cls}"><td class="name">${esc(label)}</td><td>${s.moves}</td>` +
      `<td>${s.avg_loss.toFixed(1)}</td><td>${per100(s.blunders, s)}</td><td>${per100(s.mistakes, s)}</td>` +
      `<td>${per100(s.inaccuracies, s)}</td><td>${(100 * s.agreement).toFixed(1)} %</td></tr>`;
  let h = "<tr><th>Engine</th><th>Moves</th><th>Avg loss (cp)</th><th>Blunders /100</th><th>Mistakes /100</th>" +
          "<th>Inaccuracies /100</th><th>Agreement</th></tr>";
  for (const e of a.engines) {
    h += row(e.label, e, "analysis-engine");
    for (const p of e.phases.concat(e.times)) h += row("  " + p.label, p, "analysis-part meta");
  }
  document.getElementById("analysis-engines").innerHTML = h;
  let l = "<tr><th>Lost game</th><th>Engine</th><th>Opponent</th><th>Decisive mistake</th><th>Referee's move</th>" +
          "<th>Loss (cp)</th><th>Clocks then (☗ / ☖)</th><th>Own scores then (☗ / ☖)</th></tr>";
  for (const g of a.lost) {
    const clocks = g.time_left_ms ? g.time_left_ms.map(v => v === null ? "-" : msText(v)).join(" / ") : "";
    l += `<tr><td>${g.game + 1}</td><td class="name">${esc(g.engine)}</td><td class="name">${esc(g.opponent)}</td>` +
         (g.ply === null ? '<td colspan="5" class="meta">none on the board</td>'
                         : `<td><a class="decisive b" data-game="${g.game}" data-ply="${g.ply}">ply ${g.ply} ${esc(g.move)}</a></td>` +
                           `<td>${esc(g.best)}</td><td>${g.loss}</td><td>${clocks}</td><td>${esc(g.own.join(" / "))}</td>`) +
         "</tr>";
  }
  const lost = document.getElementById("analysis-lost");
  lost.innerHTML = a.lost.length ? l : "";
  lost.addEventListener("click", ev => {
    const link = ev.target.closest("a.decisive");
    if (!link) return;
    const n = Number(link.dataset.game), row = DATA.games.find(r => r.game === n);
    openGame(n, row ? row.replay_index : -1);
    step(Number(link.dataset.ply));
  });
}

// The games list: filters and pages of 100.
let page = 0;
function filteredGames() {
  const engine = document.getElementById("f-engine").value, term = document.getElementById("f-termination").value;
  const faults = document.getElementById("f-faults").checked;
  return DATA.games.filter(g => (!engine || g.black === engine || g.white === engine) &&
                                (!term || g.termination === term) && (!faults || FAULTS.has(g.termination)));
}
function renderGames() {
  const list = filteredGames(), pages = Math.max(1, Math.ceil(list.length / 100));
  page = Math.max(0, Math.min(page, pages - 1));
  document.getElementById("games-total").textContent = `(${DATA.games.length})`;
  document.getElementById("p-text").textContent = `${list.length} games · page ${page + 1} / ${pages}`;
  let h = "<tr><th>Game</th><th>Pair</th><th>Black</th><th>White</th><th>Result</th><th>Plies</th><th>Termination</th>" +
          "<th>Detail</th></tr>";
  for (const g of list.slice(page * 100, page * 100 + 100))
    h += `<tr class="click" data-game="${g.game}" data-replay="${g.replay_index}"><td>${g.game + 1}${g.replay ? " (void)" : ""}` +
         `${g.replay_index < 0 ? "" : " ▶"}</td><td>${g.pair + 1}</td><td class="name">${esc(g.black)}</td>` +
         `<td class="name">${esc(g.white)}</td><td>${resultText(g.result)}</td><td>${g.plies}</td>` +
         `<td class="${FAULTS.has(g.termination) ? "fault" : ""}">${esc(g.termination)}</td><td class="name">${esc(g.detail)}</td></tr>`;
  document.getElementById("games").innerHTML = h;
}
function setupGames() {
  const engines = new Set(), terms = new Set();
  for (const g of DATA.games) { engines.add(g.black); engines.add(g.white); terms.add(g.termination); }
  for (const [id, values] of [["f-engine", engines], ["f-termination", terms]])
    for (const v of [...values].sort()) {
      const o = document.createElement("option");
      o.value = v; o.textContent = v;
      document.getElementById(id).appendChild(o);
    }
  for (const id of ["f-engine", "f-termination", "f-faults"])
    document.getElementById(id).addEventListener("change", () => { page = 0; renderGames(); });
  document.getElementById("p-prev").onclick = () => { page--; renderGames(); };
  document.getElementById("p-next").onclick = () => { page++; renderGames(); };
  document.getElementById("games").addEventListener("click", ev => {
    const row = ev.target.closest("tr[data-game]");
    if (row) openGame(Number(row.dataset.game), Number(row.dataset.replay));
  });
  renderGames();
}

// A replay from the embedded moves; beside the board, the scores over the plies (black's point of view) and the
// time used against the time given, with the current ply marked.
function scoreOf(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.startsWith("#-") ? -3000 : 3000;
  return Math.max(-3000, Math.min(3000, v));
}
function openGame(n, index) {
  const r = DATA.replays[index];
  if (!r) { replayUnavailable(n, `its moves are not in the report: raise --max-replays (now ${DATA.max_replays})`); return; }
  const g = Object.assign({}, r, {
    info: r.score.map((s, i) => s === null && r.depth[i] === null ? null : {
      depth: r.depth[i], score_cp: typeof s === "number" ? s : null,
      score_mate: typeof s === "string" ? Number(s.slice(1)) : null, pv: [] }) });
  openReplayWith(n, g);
  document.getElementById("replay").scrollIntoView({ block: "nearest" });
}
onReplayStep = rep => {
  const g = rep.game, first = (g.start_sfen.split(" ")[1] || "b") === "w" ? -1 : 1;
  const black = [], white = [], given = [], usedB = [], usedW = [];
  g.score.forEach((v, i) => {
    const sign = i % 2 === 0 ? first : -first, s = scoreOf(v);
    if (s !== null) (sign > 0 ? black : white).push([i + 1, sign * s]);
    if (i >= g.opening_plies) {
      (sign > 0 ? usedB : usedW).push([i + 1, g.times_ms[i]]);
      if (g.given_ms[i] !== null) given.push([i + 1, g.given_ms[i]]);
    }
  });
  // The referee's line (black's view) and the plies it judged: blunders as red crosses, mistakes as orange dots.
  const referee = [], blunders = [], mistakes = [];
  let judged = "";
  if (g.referee) {
    g.referee.forEach((v, i) => { const s = scoreOf(v); if (s !== null) referee.push([i + 1, s]); });
    g.judgements.forEach((j, i) => {
      if (!j || j === "i") return;
      const s = scoreOf(g.referee[i]);
      (j === "b" ? blunders : mistakes).push([i + 1, s, `ply ${i + 1} ${g.moves[i]}: ${j === "b" ? "blunder" : "mistake"}`]);
      judged += `<a class="${j}" data-ply="${i + 1}">${i + 1}. ${esc(g.moves[i])} ${j === "b" ? "blunder" : "mistake"}` +
                `${g.decisive === i + 1 ? " (decisive)" : ""}</a>`;
    });
  }
  const box = document.getElementById("replay-extra");
  const series = [{ color: "#1d1d1f", mode: "line", points: black, title: g.black }, { color: "#c0392b", mode: "line", points: white, title: g.white }];
  if (g.referee) series.push({ color: "#2a62c9", mode: "line", points: referee, title: "referee" },
                             { color: "#d35400", mode: "dots", points: mistakes, r: 3.5, opacity: 1 },
                             { color: "#c0392b", mode: "crosses", points: blunders });
  const scores = chartSvg({ width: 460, height: 220, marker: rep.ply, x: { label: "ply", min: 0, max: Math.max(1, g.moves.length) },
      y: { label: "score (black's view, cp)" }, hlines: [{ y: 0, color: "#6b6b70" }], series });
  const times = chartSvg({ width: 460, height: 220, marker: rep.ply, x: { label: "ply", min: 0, max: Math.max(1, g.moves.length) },
      y: { label: "ms", min: 0, format: msText },
      series: [{ color: "#c9c9cf", mode: "dots", points: given, r: 1.6, opacity: 1 },
               { color: "#1d1d1f", mode: "dots", points: usedB, r: 2.2, opacity: 0.8 }, { color: "#c0392b", mode: "dots", points: usedW, r: 2.2, opacity: 0.8 }] });
  box.innerHTML = chartBox("Scores over the plies", `<div id="score-chart">${scores.svg}</div>` +
                           legend([{ name: "☗ " + g.black, color: "#1d1d1f" }, { name: "☖ " + g.white, color: "#c0392b" }]
                                  .concat(g.referee ? [{ name: "referee", color: "#2a62c9" }] : [])) +
                           (judged ? `<div class="judged" id="judged">${judged}</div>` : "")) +
                  chartBox("Time used and given per move", `<div id="time-chart">${times.svg}</div>` +
                           legend([{ name: "given", color: "#c9c9cf" }, { name: "☗ used", color: "#1d1d1f" }, { name: "☖ used", color: "#c0392b" }]));
  const links = document.getElementById("judged");
  if (links) links.addEventListener("click", ev => {
    const a = ev.target.closest("a[data-ply]");
    if (a) step(Number(a.dataset.ply));
  });
  for (const [id, chart] of [["score-chart", scores], ["time-chart", times]])
    document.getElementById(id).firstChild.addEventListener("click", ev => {
      const rect = ev.currentTarget.getBoundingClientRect();
      step(Math.round(chart.toX(ev.clientX - rect.left)));
    });
};

renderHeader();
renderSpsa();
renderProgress();
renderTimes();
renderTerminations();
renderAnalysis();
setupGames();
wireReplay();
// The first game with a replay is open from the start, its scores and times beside it.
const firstReplay = DATA.games.find(g => g.replay_index >= 0);
if (firstReplay) openGame(firstReplay.game, firstReplay.replay_index);
window.scrollTo(0, 0);
</script>
</body>
</html>
)PAGE";

}  // namespace

ReportPageParts report_page_parts() {
  static const std::string page = with_common_parts(kReportPage);
  constexpr std::string_view marker = "/*REPORT_DATA*/";
  const size_t at = page.find(marker);
  const std::string_view text(page);
  return {text.substr(0, at), text.substr(at + marker.size())};
}

void append_script_json(std::string& out, std::string_view json) {
  // '<' occurs in JSON only inside strings, where \u003c means the same: no "</script>" of an engine's text can
  // end the data's script element.
  for (char c : json) {
    if (c == '<')
      out.append("\\u003c");
    else
      out.push_back(c);
  }
}

std::string report_html(std::string_view data_json) {
  const ReportPageParts page = report_page_parts();
  std::string out;
  out.reserve(page.before.size() + data_json.size() + page.after.size() + 1024);
  out.append(page.before);
  append_script_json(out, data_json);
  out.append(page.after);
  return out;
}

}  // namespace arena::web

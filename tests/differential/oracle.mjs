#!/usr/bin/env node
// Oracle for the differential test of engine/rules: plays seeded random playouts with shogiops (an independent
// TypeScript implementation used by lishogi) and writes, per visited position, the legal USI moves and perft(1..3)
// as shogiops computes them. differential_test.cpp then checks our generator against every line.
//
//   node oracle.mjs --out FILE [--seed S] [--playouts N] [--positions TSV]... [--max-plies P] [--ref-max-plies R]
//                   [--perft2-limit L2] [--perft3-limit L3] [--allow-overfull]
//   (roots holding more pieces than one set are trimmed, see trimOverfull)
//   node oracle.mjs --check-reference perft.tsv [--max-nodes M]   (shogiops against the reference perft table)
//   node oracle.mjs --divide SFEN DEPTH                            (per-root-move counts, to chase a mismatch)
//
// Output lines: sfen<TAB>perft1<TAB>perft2<TAB>perft3<TAB>sorted USI moves, space-separated (empty when mated).
// perft2 is "-" when perft1 exceeds --perft2-limit (default 200) and perft3 is "-" when perft2 exceeds
// --perft3-limit (default 600): shogiops clones a position per node and generates at ~15k nodes/s, so the wide
// drop-heavy trees would take the run far past its two-minute budget. The move list is always complete.
// Defaults (seed 1, 90 playouts, 220/60 max plies) give ~4,800 positions in about 35 s of one core.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseSfen, makeSfen, initialSfen } from 'shogiops/sfen';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { makeUsi, squareRank } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const canPromote = pieceCanPromote('standard');
const forcePromote = pieceForcePromote('standard');

// ---------------------------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const opts = {
    out: null,
    seed: 1,
    playouts: 90,
    positions: [],
    perft2Limit: 200,
    perft3Limit: 600,
    maxPlies: 220,
    refMaxPlies: 60,
    checkReference: null,
    divide: null,
    allowOverfull: false,
    maxNodes: 200000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) die(`missing value after ${a}`);
      return argv[++i];
    };
    const int = () => {
      const v = next();
      if (!/^\d+$/.test(v)) die(`${a} wants a non-negative integer, got "${v}"`);
      return parseInt(v, 10);
    };
    if (a === '--out') opts.out = next();
    else if (a === '--seed') opts.seed = int();
    else if (a === '--playouts') opts.playouts = int();
    else if (a === '--positions') opts.positions.push(next());
    else if (a === '--perft2-limit') opts.perft2Limit = int();
    else if (a === '--perft3-limit') opts.perft3Limit = int();
    else if (a === '--max-plies') opts.maxPlies = int();
    else if (a === '--ref-max-plies') opts.refMaxPlies = int();
    else if (a === '--check-reference') opts.checkReference = next();
    else if (a === '--max-nodes') opts.maxNodes = int();
    else if (a === '--allow-overfull') opts.allowOverfull = true;
    else if (a === '--divide') {
      opts.divide = { sfen: next(), depth: 0 };
      opts.divide.depth = int();
    }
    else if (a === '-h' || a === '--help') {
      process.stdout.write(readFileSync(new URL(import.meta.url)).toString().split('\n\n')[0].split('\n').slice(1).join('\n') + '\n');
      process.exit(0);
    } else die(`unknown argument "${a}"`);
  }
  if (!opts.out && !opts.checkReference && !opts.divide) die('--out FILE is required');
  return opts;
}

function die(msg) {
  process.stderr.write(`oracle: ${msg}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic PRNG (sfc32 seeded through splitmix32): the same seed gives the same file on every machine and
// node version, so a reported mismatch can be reproduced from the seed alone.

function makeRng(seed) {
  let s = seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(), b = splitmix(), c = splitmix(), d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    u32: next,
    below: n => Math.floor((next() / 4294967296) * n),
    chance: p => next() / 4294967296 < p,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Move listing and perft on top of shogiops's generator. shogiops lists destinations per piece; promotion is a
// choice wherever the piece may promote, and the only move when it must (its own perft does the same).

function legalMoves(pos) {
  const ctx = pos.ctx();
  const moves = [];
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) {
        moves.push({ from, to, promotion: true });
        if (!forcePromote(piece, to)) moves.push({ from, to, promotion: false });
      } else moves.push({ from, to, promotion: false });
    }
  }
  for (const [name, dests] of pos.allDropDests(ctx)) {
    const role = name.split(' ')[1];
    for (const to of dests) moves.push({ role, to });
  }
  return moves;
}

// Counts without building move objects: the last ply of perft only needs the number.
function countMoves(pos) {
  const ctx = pos.ctx();
  let n = 0;
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to)) && !forcePromote(piece, to)) n += 2;
      else n += 1;
    }
  }
  for (const [, dests] of pos.allDropDests(ctx)) n += dests.size();
  return n;
}

function perft(pos, depth) {
  if (depth === 0) return 1;
  if (depth === 1) return countMoves(pos);
  let n = 0;
  for (const m of legalMoves(pos)) {
    const child = pos.clone();
    child.play(m);
    n += perft(child, depth - 1);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// Reference positions: "sfen<TAB>depth<TAB>nodes<TAB>name" with '#' comment lines; one SFEN appears once per depth.
// Roots for playouts may come from any TSV whose first column is an SFEN (mates.tsv, no_mate.tsv too).

function readRoots(path) {
  const rows = [];
  const base = path.split('/').pop();
  readFileSync(path, 'utf8').split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const cols = line.split('\t');
    if (cols[0] === 'sfen') return;  // a header without '#'
    rows.push({ sfen: cols[0], name: `${base}:${i + 1}` });
  });
  return rows;
}

function readReference(path) {
  const rows = [];
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [sfen, depth, nodes, name] = line.split('\t');
    if (!sfen || !/^\d+$/.test(depth ?? '') || !/^\d+$/.test(nodes ?? '')) continue;  // a header without '#'
    rows.push({ sfen, depth: parseInt(depth, 10), nodes: Number(nodes), name: name ?? '' });
  }
  return rows;
}

// Some perft-suite positions hold more pieces of a kind than one set has (peeper_drops: three bishops and three
// rooks). Our SFEN parser rejects those by design, so such a root is trimmed: the excess comes out of the hands
// (black's first). A root whose excess stands on the board is left out. --allow-overfull keeps roots as they are.
const SET_LIMITS = { pawn: 18, lance: 4, knight: 4, silver: 4, gold: 4, bishop: 2, rook: 2, king: 2 };
const RAW = { tokin: 'pawn', promotedlance: 'lance', promotedknight: 'knight', promotedsilver: 'silver',
              horse: 'bishop', dragon: 'rook' };

function pieceCounts(pos) {
  const n = {};
  for (const [, piece] of pos.board) {
    const raw = RAW[piece.role] ?? piece.role;
    n[raw] = (n[raw] ?? 0) + 1;
  }
  for (const color of ['sente', 'gote'])
    for (const [role, k] of pos.hands[color]) n[role] = (n[role] ?? 0) + k;
  return n;
}

// Returns a description of what was removed ("" when nothing was), or null when the root cannot be trimmed.
function trimOverfull(pos) {
  const n = pieceCounts(pos);
  const removed = [];
  for (const role of Object.keys(SET_LIMITS)) {
    let excess = (n[role] ?? 0) - SET_LIMITS[role];
    for (const color of ['sente', 'gote']) {
      const take = Math.min(excess, pos.hands[color].get(role));
      if (take > 0) {
        pos.hands[color].set(role, pos.hands[color].get(role) - take);
        removed.push(`${take} ${role} from ${color}'s hand`);
        excess -= take;
      }
    }
    if (excess > 0) return null;
  }
  return removed.join(', ');
}

function parseOrDie(sfen) {
  const r = parseSfen('standard', sfen, false);
  if (r.isErr) die(`shogiops rejects "${sfen}": ${r.error.message}`);
  return r.value;
}

// ---------------------------------------------------------------------------------------------------------------
// Playouts. Pure uniform play reaches few of the positions that break generators, so each move is drawn from a
// preferred class first: captures fill the hands (drops, nifu, dead-square drops), promotions and checks lead to
// evasions, pins and mating nets, and pawn drops next to the enemy king are where uchifuzume lives. Declining a
// promotion is kept possible so that unpromoted pieces in the zone appear.

function classify(pos, m) {
  const enemyKing = pos.kingsOf(pos.turn === 'sente' ? 'gote' : 'sente').singleSquare();
  const c = { capture: false, promotion: !!m.promotion, drop: 'role' in m, check: false, nearKing: false };
  if (!c.drop) c.capture = pos.board.get(m.to) !== undefined;
  if (enemyKing !== undefined) {
    const df = Math.abs((m.to & 15) - (enemyKing & 15));
    const dr = Math.abs(squareRank(m.to) - squareRank(enemyKing));
    c.nearKing = df <= 2 && dr <= 2;
  }
  return c;
}

function givesCheck(pos, m) {
  const child = pos.clone();
  child.play(m);
  return child.isCheck();
}

const BIAS = process.env.ORACLE_BIAS ? JSON.parse(process.env.ORACLE_BIAS)
  : { capture: 30, check: 15, pawnDropNearKing: 10, nearKing: 0, promotionOrDrop: 10 };
// In half of the playouts one side hunts the other's king: mostly checks and moves next to the king. Mating nets,
// evasions and pawn-drop-mate refusals are rare in even random play.
const HUNT = process.env.ORACLE_HUNT ? JSON.parse(process.env.ORACLE_HUNT)
  : { capture: 15, check: 55, pawnDropNearKing: 10, nearKing: 15, promotionOrDrop: 0 };

function pickMove(pos, moves, rng, w) {
  const cls = moves.map(m => classify(pos, m));
  const pickFrom = pred => {
    const idx = [];
    for (let i = 0; i < moves.length; i++) if (pred(cls[i], moves[i])) idx.push(i);
    return idx.length ? moves[idx[rng.below(idx.length)]] : null;
  };
  // Percentages of plies that try each class first (the rest, and any class with no move, play uniformly).
  let r = rng.below(100);
  let m = null;
  if ((r -= w.capture) < 0) m = pickFrom(c => c.capture);
  else if ((r -= w.check) < 0) {
    // Checks are only looked for among moves near the king and drops: the test is a clone and a play each.
    const near = [];
    for (let i = 0; i < moves.length; i++) if (cls[i].nearKing || cls[i].drop) near.push(i);
    const checks = near.filter(i => givesCheck(pos, moves[i]));
    if (checks.length && w.squeeze && rng.chance(w.squeeze / 100)) {
      // The check that leaves the fewest replies: greedy king hunting builds the nets where mates and
      // pawn-drop mates live.
      let best = Infinity, bestIdx = [];
      for (const i of checks) {
        const child = pos.clone();
        child.play(moves[i]);
        const n = countMoves(child);
        if (n < best) (best = n), (bestIdx = [i]);
        else if (n === best) bestIdx.push(i);
      }
      m = moves[bestIdx[rng.below(bestIdx.length)]];
    } else if (checks.length) m = moves[checks[rng.below(checks.length)]];
  } else if ((r -= w.pawnDropNearKing) < 0) m = pickFrom((c, mv) => c.drop && mv.role === 'pawn' && c.nearKing);
  else if ((r -= w.nearKing) < 0) m = pickFrom(c => c.nearKing);
  else if ((r -= w.promotionOrDrop) < 0) m = pickFrom(c => c.promotion || c.drop);
  return m ?? moves[rng.below(moves.length)];
}

// A key without the move number: the same position reached at another ply adds nothing to the test.
const positionKey = sfen => sfen.slice(0, sfen.lastIndexOf(' '));

// ---------------------------------------------------------------------------------------------------------------

function stats() {
  return { positions: 0, inCheck: 0, withHand: 0, mated: 0, promoChoice: 0, uchifuzume: 0, pawnDropCheck: 0,
           perft2: 0, perft3: 0, moves: 0, ms: { moves: 0, perft2: 0, perft3: 0, pick: 0 } };
}

// Features of one position, for the summary: they show the playouts reached what the test is meant to cover.
function noteFeatures(pos, moves, st) {
  st.positions++;
  st.moves += moves.length;
  if (pos.isCheck()) st.inCheck++;
  if (pos.hands[pos.turn].nonEmpty()) st.withHand++;
  if (moves.length === 0) st.mated++;
  if (moves.some(m => m.promotion) && moves.some(m => !m.promotion && 'from' in m &&
      moves.some(o => o.promotion && o.from === m.from && o.to === m.to))) st.promoChoice++;
  const enemy = pos.turn === 'sente' ? 'gote' : 'sente';
  const king = pos.kingsOf(enemy).singleSquare();
  if (king !== undefined && pos.hands[pos.turn].get('pawn') > 0) {
    const front = pos.turn === 'sente' ? king + 16 : king - 16;
    if (front >= 0 && squareRank(front) < 9 && (front & 15) < 9 && !pos.board.has(front)) {
      const ownPawnOnFile = [...pos.board.pieces(pos.turn, 'pawn')].some(sq => (sq & 15) === (front & 15));
      const lastRank = squareRank(front) === (pos.turn === 'sente' ? 0 : 8);
      if (!ownPawnOnFile && !lastRank) {
        const legal = moves.some(m => 'role' in m && m.role === 'pawn' && m.to === front);
        // A pawn on the king's front square always checks; if shogiops refuses it, it is a pawn-drop mate.
        if (legal) st.pawnDropCheck++;
        else if (!pos.isCheck()) st.uchifuzume++;
      }
    }
  }
}

function generate(opts) {
  const t0 = Date.now();
  const roots = [{ sfen: initialSfen('standard'), name: 'startpos' }];
  const seenRoots = new Set([positionKey(roots[0].sfen)]);
  for (const path of opts.positions) {
    for (const row of readRoots(path)) {
      const pos = parseOrDie(row.sfen);
      const key = positionKey(makeSfen(pos));
      if (seenRoots.has(key)) continue;
      seenRoots.add(key);
      if (!opts.allowOverfull) {
        const trimmed = trimOverfull(pos);
        if (trimmed === null) {
          process.stderr.write(`oracle: root ${row.name} left out: more pieces on the board than one set has\n`);
          continue;
        }
        if (trimmed) {
          row.sfen = makeSfen(pos);
          process.stderr.write(`oracle: root ${row.name} trimmed to one set (${trimmed}): ${row.sfen}\n`);
        }
      }
      roots.push(row);
    }
  }
  const rng = makeRng(opts.seed);
  const seen = new Set();
  const lines = [];
  const st = stats();

  const emit = pos => {
    const sfen = makeSfen(pos);
    const key = positionKey(sfen);
    if (seen.has(key)) return legalMoves(pos);
    seen.add(key);
    let t = performance.now();
    const moves = legalMoves(pos);
    noteFeatures(pos, moves, st);
    const p1 = moves.length;
    st.ms.moves += performance.now() - t;
    let p2 = '-', p3 = '-';
    if (p1 <= opts.perft2Limit) {
      t = performance.now();
      p2 = perft(pos, 2);
      st.perft2++;
      st.ms.perft2 += performance.now() - t;
      if (p2 <= opts.perft3Limit) {
        t = performance.now();
        p3 = String(perft(pos, 3));
        st.perft3++;
        st.ms.perft3 += performance.now() - t;
      }
    }
    const usi = moves.map(makeUsi).sort();
    lines.push(`${sfen}\t${p1}\t${p2}\t${p3}\t${usi.join(' ')}`);
    return moves;
  };

  for (let i = 0; i < opts.playouts; i++) {
    // One playout in three starts from the start position and runs long (openings, then piece-trading endgames);
    // the others take the reference positions in turn and stay short, since what makes those positions
    // interesting (mating nets, full hands, pawn-drop mates) fades within a few dozen random plies.
    const fromStart = i % 3 === 0 || roots.length === 1;
    const root = fromStart ? roots[0] : roots[1 + ((i - 1 - Math.floor(i / 3)) % (roots.length - 1))];
    let pos = parseOrDie(root.sfen);
    const maxPlies = fromStart ? opts.maxPlies : opts.refMaxPlies;
    const plies = Math.min(20, maxPlies) + rng.below(Math.max(1, maxPlies - 20));
    const hunter = rng.chance(0.5) ? (rng.chance(0.5) ? 'sente' : 'gote') : null;
    for (let ply = 0; ply <= plies; ply++) {
      const moves = emit(pos);
      if (moves.length === 0) break;
      const t = performance.now();
      const m = pickMove(pos, moves, rng, pos.turn === hunter ? HUNT : BIAS);
      st.ms.pick += performance.now() - t;
      pos = pos.clone();
      pos.play(m);
    }
  }

  writeFileSync(opts.out, lines.join('\n') + '\n');
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  process.stderr.write(
    `oracle: seed ${opts.seed}, ${opts.playouts} playouts from ${roots.length} roots, ${st.positions} positions ` +
    `(${st.moves} moves) in ${secs}s -> ${opts.out}\n` +
    `oracle: in check ${st.inCheck}, mated ${st.mated}, side to move holds pieces ${st.withHand}, ` +
    `optional promotions ${st.promoChoice}, pawn-drop checks ${st.pawnDropCheck}, ` +
    `pawn-drop mates refused ${st.uchifuzume}, perft2 computed ${st.perft2}, perft3 computed ${st.perft3}\n` +
    `oracle: seconds spent: move lists ${(st.ms.moves / 1000).toFixed(1)}, perft2 ${(st.ms.perft2 / 1000).toFixed(1)}, ` +
    `perft3 ${(st.ms.perft3 / 1000).toFixed(1)}, move choice ${(st.ms.pick / 1000).toFixed(1)}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// Before trusting shogiops as an oracle: its counts must agree with the reference table (YaneuraOu's figures).
// Both our bulk-counting perft and shogiops's own debug perft are checked, on rows up to --max-nodes.

function checkReference(opts) {
  let bad = 0, checked = 0;
  for (const row of readReference(opts.checkReference)) {
    if (row.nodes > opts.maxNodes) continue;
    const pos = parseOrDie(row.sfen);
    const t0 = Date.now();
    const ours = perft(pos, row.depth);
    // shogiops's own perft plays every leaf, so it only runs on the smaller rows.
    const theirs = row.nodes <= opts.maxNodes / 4 ? shogiopsPerft(pos, row.depth) : '-';
    const ok = ours === row.nodes && (theirs === '-' || theirs === row.nodes);
    checked++;
    if (!ok) bad++;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${row.name} depth ${row.depth}: expected ${row.nodes}, ` +
      `oracle ${ours}, shogiops.debug.perft ${theirs} (${Date.now() - t0} ms)\n`);
  }
  process.stdout.write(`check-reference: ${checked} rows, ${bad} wrong\n`);
  process.exit(bad === 0 && checked > 0 ? 0 : 1);
}

function divide({ sfen, depth }) {
  const pos = parseOrDie(sfen);
  const parts = [];
  let total = 0;
  for (const m of legalMoves(pos)) {
    const child = pos.clone();
    child.play(m);
    const n = perft(child, depth - 1);
    total += n;
    parts.push(`${makeUsi(m)}:${n}`);
  }
  process.stdout.write(`${parts.sort().join(' ')}\nNodes searched: ${total}\n`);
}

const opts = parseArgs(process.argv.slice(2));
if (opts.divide) divide(opts.divide);
else if (opts.checkReference) checkReference(opts);
else generate(opts);


#!/usr/bin/env node
// Reads a .csa or .kif game record with two independent viewer libraries, tsshogi (ElectronShogi's core) and
// json-kifu-format (Kifu for JS), and prints what each understood as JSON:
//
//   node check_kifu.mjs FILE
//   {"file": ..., "format": "csa"|"kif", "encoding": "utf-8"|"shift_jis",
//    "tsshogi": {"moves": [usi...], "result": "...", "times": [seconds...], "comments": [...], "error": null},
//    "jkf":     {"moves": [usi...], "result": "...", "times": [seconds...], "comments": [...], "error": null}}
//
// "moves" is the main line in USI, "result" the closing special move as the library names it (tsshogi's
// SpecialMoveType such as "resign", JKF's CSA-style name such as "TORYO"; null when there is none), "times" the
// per-move elapsed seconds each library read, "comments" the comment text attached to each move ("" for none).
// Exit status: 0 when both libraries parsed the file, 1 when either reported an error, 2 on usage errors.

import { readFileSync } from 'node:fs';
import { importCSA, importKIF, Move } from 'tsshogi';
import jkfModule from 'json-kifu-format';

const { JKFPlayer } = jkfModule;

function decode(bytes) {
  // Kakinoki's KIF is traditionally Shift_JIS; UTF-8 is tried first because our writer emits it.
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('shift_jis').decode(bytes), encoding: 'shift_jis' };
  }
}

function viaTsshogi(text, format) {
  const out = { moves: [], result: null, times: [], comments: [], error: null };
  try {
    const record = format === 'csa' ? importCSA(text) : importKIF(text);
    if (record instanceof Error) throw record;
    for (const node of record.moves) {
      if (node.ply === 0) continue;  // the START node: the initial position, not a move
      if (node.move instanceof Move) {
        out.moves.push(node.move.usi);
        out.times.push(node.elapsedMs / 1000);
        out.comments.push(node.comment.trimEnd());
      } else {
        out.result = node.move.type === 'any' ? node.move.name : node.move.type;
      }
    }
  } catch (e) {
    out.error = String(e?.message ?? e);
  }
  return out;
}

const USI_DROP = { FU: 'P', KY: 'L', KE: 'N', GI: 'S', KI: 'G', KA: 'B', HI: 'R' };
const usiSquare = p => `${p.x}${String.fromCharCode(96 + p.y)}`;

function viaJkf(text, format) {
  const out = { moves: [], result: null, times: [], comments: [], error: null };
  try {
    const player = format === 'csa' ? JKFPlayer.parseCSA(text) : JKFPlayer.parseKIF(text);
    // moves[0] holds only the comments before the first move.
    for (const entry of player.kifu.moves.slice(1)) {
      if (entry.move) {
        const m = entry.move;
        out.moves.push(m.from ? `${usiSquare(m.from)}${usiSquare(m.to)}${m.promote ? '+' : ''}`
                              : `${USI_DROP[m.piece]}*${usiSquare(m.to)}`);
        const now = entry.time?.now;
        out.times.push(now ? (now.h ?? 0) * 3600 + now.m * 60 + now.s : null);
        out.comments.push((entry.comments ?? []).join('\n'));
      } else if (entry.special !== undefined) {
        out.result = entry.special ?? null;
      } else {
        out.error = `an entry that is neither a move nor a special move: ${JSON.stringify(entry)}`;
      }
    }
  } catch (e) {
    out.error = String(e?.message ?? e);
  }
  return out;
}

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  process.stderr.write('usage: node check_kifu.mjs FILE.csa|FILE.kif\n');
  process.exit(2);
}
const ext = file.split('.').pop().toLowerCase();
const format = ext === 'csa' ? 'csa' : ext === 'kif' || ext === 'kifu' ? 'kif' : null;
if (!format) {
  process.stderr.write(`check_kifu: ${file}: expected a .csa, .kif or .kifu file\n`);
  process.exit(2);
}
let bytes;
try {
  bytes = readFileSync(file);
} catch (e) {
  process.stderr.write(`check_kifu: ${e.message}\n`);
  process.exit(2);
}
const { text, encoding } = decode(bytes);
const result = { file, format, encoding, tsshogi: viaTsshogi(text, format), jkf: viaJkf(text, format) };
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
process.exit(result.tsshogi.error || result.jkf.error ? 1 : 0);

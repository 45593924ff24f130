// The peer of bench/movegen.py: Scrabble Solver 2's GADDAG move generator (the npm tarball of `scrabble-solver`
// 2.18.x, which ships its sub-packages prebuilt under package/packages/), fed the project's own word list and tiles.
//
// node bench/scrabble_solver_peer.js PACKAGE_DIR INPUT.json
//   INPUT: {"words": FILE (one word a line, lowercase), "gaddag": CACHE FILE, "tiles": [[letter, count, score]...],
//           "repeat": N, "positions": [{"cells": [[x, y, letter, blank]...], "racks": [rack...]}...]}
// Prints one JSON object: {"build_s": ..., "load_s": ..., "racks": [{"ms": [CPU ms per run...], "count": N,
// "plays": [[x, y, horizontal, points, placed letters (blank in lowercase... as the solver gives them)]...]}]}.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const [packageDir, inputFile] = process.argv.slice(2);
const packages = path.join(packageDir, 'packages');
const aliases = {
  '@kamilmielnik/gaddag': path.join(packages, 'gaddag', 'build', 'index.js'),
  '@scrabble-solver/constants': path.join(packages, 'constants', 'build', 'index.js'),
  '@scrabble-solver/types': path.join(packages, 'types', 'build', 'index.js'),
  '@scrabble-solver/configs': path.join(packages, 'configs', 'build', 'index.js'),
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] || request, ...rest);
};

const { buildGaddag, Gaddag } = require('@kamilmielnik/gaddag');
const { scrabble } = require(path.join(packages, 'configs', 'build', 'games', 'scrabble.js'));
const types = require('@scrabble-solver/types');
const { solve } = require(path.join(packages, 'solver', 'build', 'index.js'));

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const input = JSON.parse(fs.readFileSync(inputFile, 'utf8'));
let buildS = 0;
let gaddag;
const loadStart = cpuMs();
if (fs.existsSync(input.gaddag)) {
  gaddag = Gaddag.deserialize(new Uint8Array(fs.readFileSync(input.gaddag)));
} else {
  const words = fs.readFileSync(input.words, 'utf8').split('\n').filter(Boolean);
  const start = cpuMs();
  gaddag = buildGaddag(words);
  buildS = (cpuMs() - start) / 1000;
  fs.writeFileSync(input.gaddag, gaddag.serialize());
}
const loadS = (cpuMs() - loadStart) / 1000;
const config = new types.Config({
  ...scrabble,
  locale: types.Locale.PL_PL, // only names the config: the tiles are the project's Czech set
  tiles: input.tiles.map(([character, count, score]) => ({ character, count, score })),
});
const out = { build_s: buildS, load_s: loadS, racks: [] };
for (const position of input.positions) {
  const rows = [];
  for (let y = 0; y < 15; y++) {
    const row = [];
    for (let x = 0; x < 15; x++) row.push(new types.Cell({ isEmpty: true, tile: types.Tile.Null, x, y }));
    rows.push(row);
  }
  for (const [x, y, character, isBlank] of position.cells) {
    rows[y][x] = new types.Cell({ isEmpty: false, tile: new types.Tile({ character, isBlank }), x, y });
  }
  for (const rack of position.racks) {
    const tiles = [...rack].map((c) => (c === '?' ? new types.Tile({ character: ' ', isBlank: true }) : new types.Tile({ character: c })));
    const ms = [];
    let results = [];
    for (let run = 0; run < input.repeat; run++) {
      const board = new types.Board({ rows: rows.map((row) => row.map((cell) => cell.clone())) });
      const start = cpuMs();
      results = solve(gaddag, config, board, tiles);
      ms.push(cpuMs() - start);
    }
    out.racks.push({
      ms,
      count: results.length,
      plays: input.plays ? results.map((r) => [r.x, r.y, r.isHorizontal, r.points, r.tiles.join(''), r.blankIndices]) : [],
    });
  }
}
process.stdout.write(JSON.stringify(out));

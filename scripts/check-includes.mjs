#!/usr/bin/env node
// Fails on an #include cycle among the C++ sources: every `#include "..."`
// of every file under the given folders (default: src), resolved against the
// including file's folder and then against src/ (the include root), is an
// edge; a cycle is printed, and the exit code is 1. Headers held together by
// a cycle depend on the order they are included in, which is what this keeps
// out. `--self-test` first checks the check on a made-up cycle and a made-up
// tree without one.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { findCycle } from './find-cycle.cjs';

const INCLUDE = /^\s*#\s*include\s*"([^"]+)"/gm;
const SOURCE = /\.(h|hpp|cpp|cc)$/;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

/** Each file's resolved quoted includes (absolute paths that exist). */
function includeGraph(roots, includeRoot) {
  const graph = new Map();
  const pending = roots.flatMap((r) => filesUnder(r));
  while (pending.length > 0) {
    const file = pending.pop();
    if (graph.has(file)) continue;
    const edges = [];
    for (const [, name] of readFileSync(file, 'utf8').matchAll(INCLUDE)) {
      const target = [resolve(dirname(file), name), resolve(includeRoot, name)].find((p) => existsSync(p));
      if (target === undefined) continue; // not one of ours (the compiler says if it is missing)
      edges.push(target);
      pending.push(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

function check(roots, includeRoot) {
  return findCycle(includeGraph(roots, includeRoot));
}

function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), 'check-includes-'));
  try {
    const write = (name, text) => {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    };
    // a.h -> k/b.h -> (through the include root) c.h -> a.h, beside a file outside the cycle.
    write('a.h', '#pragma once\n#include "k/b.h"\n#include <vector>\n');
    write('k/b.h', '#pragma once\n#include "c.h"\n');
    write('c.h', '#pragma once\n  #  include "a.h"\n');
    write('k/d.cpp', '#include "b.h"\n#include "../missing.h"\n');
    const cycle = check([dir], dir);
    const names = cycle?.map((p) => relative(dir, p)).join(' -> ');
    if (names !== 'a.h -> k/b.h -> c.h -> a.h') throw new Error(`self-test: the made-up cycle was not found (${names})`);
    write('c.h', '#pragma once\n// #include "a.h" no longer\n');
    if (check([dir], dir) !== undefined) throw new Error('self-test: a cycle was reported in a tree without one');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
if (args[0] === '--self-test') {
  selfTest();
  args.shift();
}
const roots = (args.length > 0 ? args : ['src']).map((r) => resolve(root, r));
const cycle = check(roots, join(root, 'src'));
if (cycle) {
  console.error(`check-includes: an #include cycle: ${cycle.map((p) => relative(root, p)).join(' -> ')}`);
  process.exit(1);
}
console.log(`check-includes: no #include cycle in ${roots.map((r) => relative(root, r) || '.').join(', ')}`);

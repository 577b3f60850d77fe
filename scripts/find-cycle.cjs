// A cycle in a graph of files, for the two layering checks: the C++
// #include graph (scripts/check-includes.mjs) and js/src's import graph
// (tests/js/imports.test.ts). CommonJS, so that both an ES module script and
// a Jest suite compiled to CommonJS can load it.
'use strict';

/**
 * A cycle as its files (first = last), or undefined: depth first, marking
 * the files on the current path.
 * @param {Map<string, readonly string[]>} graph file -> the files it takes in
 * @returns {string[] | undefined}
 */
function findCycle(graph) {
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (file) => {
    state.set(file, 1);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 1) return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 2);
    return undefined;
  };
  for (const file of [...graph.keys()].sort()) {
    if (state.get(file) === undefined) {
      const cycle = visit(file);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

module.exports = { findCycle };

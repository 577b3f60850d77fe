// The onnx-ops-wasm demo page: a playground for Max and Relu (op, opset,
// dtype, inputs, broadcasting, the library's own errors; playground.js) and
// a benchmark panel (bench-panel.js) that runs the bench's own modules.
// Plain ES modules, no framework: it loads the library the way an app would.

import { createOps } from '/dist/esm/index.js';
import { $ } from './dom.js';
import { animatePulse } from './frames.js';
import { setupPlayground, showLoadFailure, startPlayground } from './playground.js';
import { setupBenchPanel, startBenchPanel } from './bench-panel.js';

async function main() {
  requestAnimationFrame(animatePulse);
  setupPlayground();
  setupBenchPanel();
  const load = $('#load-status');
  let ops;
  try {
    const t0 = performance.now();
    ops = await createOps();
    load.textContent = `library ready (${(performance.now() - t0).toFixed(0)} ms)`;
    load.dataset.state = 'ready';
  } catch (e) {
    load.textContent = `the library failed to load: ${e?.message ?? e}`;
    load.dataset.state = 'error';
    showLoadFailure();
    return;
  }
  const simd = $('#simd-status');
  simd.textContent = `WASM SIMD: ${ops.simd ? 'on' : 'off'}`;
  simd.dataset.simd = String(ops.simd);
  simd.classList.add(ops.simd ? 'on' : 'off');
  startBenchPanel(ops);
  startPlayground(ops);
  document.body.dataset.ready = 'true';
}

main();

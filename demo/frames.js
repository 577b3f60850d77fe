// The page's frames: an indicator moved on every animation frame, and the
// longest gap between frames during one call.

import { $ } from './dom.js';

const nextAnimationFrame = () => new Promise((r) => requestAnimationFrame(r));

/** The indicator: moved on every animation frame, so it stops whenever the page's thread is busy. */
export function animatePulse(now) {
  const dot = $('#bench-pulse');
  const span = dot.parentElement.clientWidth - dot.offsetWidth;
  const phase = (now / 1500) % 2; // there and back in 3 s
  dot.style.transform = `translateX(${(span * (phase < 1 ? phase : 2 - phase)).toFixed(1)}px)`;
  requestAnimationFrame(animatePulse);
}

/**
 * Runs `run` (a call) right after an animation frame and resolves to
 * { gapMs, callMs, frameMs, result }: the longest time between two of the
 * page's frames, from that one to the first after the call returned; the
 * call's time; and the usual time between frames (the median step of the
 * six frames before). Frames are stamped with performance.now() when they
 * run (a frame's own timestamp may be older than a stall).
 */
export async function longestFrameGap(run) {
  const log = [];
  let on = true;
  let ready;
  const six = new Promise((r) => { ready = r; });
  const tick = () => {
    log.push(performance.now());
    if (log.length === 6) ready();
    if (on) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  await six;
  const t0 = performance.now();
  const result = await run();
  const callMs = performance.now() - t0;
  await nextAnimationFrame();
  await nextAnimationFrame();
  on = false;
  let gapMs = 0;
  for (let i = 5; i + 1 < log.length; i++) gapMs = Math.max(gapMs, log[i + 1] - log[i]);
  const steps = log.slice(1, 6).map((t, i) => t - log[i]).sort((x, y) => x - y);
  return { gapMs, callMs, frameMs: steps[2], result };
}

// Formatting and the SVG chart shared by the Node runner (run.mjs) and the
// browser runner (browser.mjs).

export const fmtN = (n) => {
  if (n < 1000) return String(n);
  const e = Math.floor(Math.log10(n));
  const m = n / 10 ** e;
  return `${Number.isInteger(m) ? m : +m.toFixed(2)}e${e}`;
};
export const fmtUs = (us) => (us == null ? 'n/a' : us >= 1e5 ? us.toFixed(0) : us >= 100 ? us.toFixed(1) : us >= 1 ? us.toFixed(2) : us.toFixed(3));
export const fmtG = (g) => (g == null ? 'n/a' : g >= 10 ? g.toFixed(1) : g >= 0.1 ? g.toFixed(2) : g.toPrecision(2));
export const fmtX = (x) => (x == null || !isFinite(x) ? 'n/a' : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`);

/**
 * The chart of a run: GB/s against n for float32 Relu and Max-2 (cases of
 * section 'sizes'), one line per column; `subtitle` names engine and machine.
 */
export function svgChart(cases, subtitle) {
  const series = [
    { id: 'ours-zc', label: 'ours zero-copy', color: '#d62728', width: 2.5 },
    { id: 'ours', label: 'ours plain', color: '#ff7f0e', width: 2, dash: '6 3' },
    { id: 'ort-web', label: 'onnxruntime-web', color: '#1f77b4', width: 2 },
    { id: 'tfjs-wasm', label: 'tfjs-wasm', color: '#2ca02c', width: 2 },
    { id: 'js', label: 'plain JS', color: '#9467bd', width: 2 },
    { id: 'copy', label: 'memory.copy limit', color: '#444444', width: 1.5, dash: '2 3' },
  ];
  const panels = ['relu', 'max2'].map((w) => cases.filter((c) => c.section === 'sizes' && c.workload === w && c.dtype === 'float32'));
  const all = panels.flat().flatMap((c) => series.map((s) => c.results[s.id]).filter((x) => x?.status === 'ok').map((x) => x.gbps));
  const ns = panels.flat().map((c) => c.n);
  const W = 1040, H = 470, PW = 420, PH = 330, top = 60, lefts = [80, 580];
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const o = [];
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  o.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  o.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">Effective bandwidth (float32): (bytes read + written) / median time</text>`);
  o.push(`<text x="${W / 2}" y="40" text-anchor="middle" fill="#555">${esc(subtitle)}</text>`);
  if (!all.length) { o.push(`<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no data</text></svg>`); return o.join('\n'); }
  const ymin = 10 ** Math.floor(Math.log10(Math.min(...all)));
  const ymax = 10 ** Math.ceil(Math.log10(Math.max(...all)));
  const xmin = 10 ** Math.floor(Math.log10(Math.min(...ns)));
  const xmax = 10 ** Math.ceil(Math.log10(Math.max(...ns)));
  const lx = (v) => Math.log10(v);
  const fmtTick = (v) => (v > 1e4 || v < 1e-3 ? `1e${Math.round(Math.log10(v))}` : String(+v.toPrecision(1)));
  const fmtXTick = (e) => ['1', '10', '100', '1k', '10k', '100k', '1M', '10M', '100M', '1G'][e] ?? `1e${e}`;
  panels.forEach((rows, pi) => {
    const L0 = lefts[pi];
    const X = (v) => L0 + ((lx(v) - lx(xmin)) / (lx(xmax) - lx(xmin))) * PW;
    const Y = (v) => top + PH - ((lx(v) - lx(ymin)) / (lx(ymax) - lx(ymin))) * PH;
    o.push(`<text x="${L0 + PW / 2}" y="${top - 6}" text-anchor="middle" font-size="14" font-weight="bold">${pi === 0 ? 'Relu [n]' : 'Max [n], [n]'}</text>`);
    o.push(`<rect x="${L0}" y="${top}" width="${PW}" height="${PH}" fill="none" stroke="#333"/>`);
    for (let e = Math.round(lx(ymin)); e <= Math.round(lx(ymax)); e++) {
      const y = Y(10 ** e);
      o.push(`<line x1="${L0}" x2="${L0 + PW}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
      o.push(`<text x="${L0 - 6}" y="${y + 4}" text-anchor="end">${fmtTick(10 ** e)}</text>`);
    }
    for (let e = Math.round(lx(xmin)); e <= Math.round(lx(xmax)); e++) {
      const x = X(10 ** e);
      o.push(`<line x1="${x}" x2="${x}" y1="${top}" y2="${top + PH}" stroke="#eee"/>`);
      o.push(`<text x="${x}" y="${top + PH + 16}" text-anchor="middle">${fmtXTick(e)}</text>`);
    }
    o.push(`<text x="${L0 + PW / 2}" y="${top + PH + 36}" text-anchor="middle">n (elements per input, log scale)</text>`);
    o.push(`<text transform="translate(${L0 - 48},${top + PH / 2}) rotate(-90)" text-anchor="middle">GB/s (log scale)</text>`);
    for (const s of series) {
      const pts = rows.filter((r) => r.results[s.id]?.status === 'ok').map((r) => [X(r.n), Y(r.results[s.id].gbps)]);
      if (!pts.length) continue;
      o.push(`<polyline fill="none" stroke="${s.color}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} points="${pts.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ')}"/>`);
      for (const [x, y] of pts) o.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2.8" fill="${s.color}"/>`);
    }
  });
  // legend
  const ly = H - 22;
  let lxp = 80;
  for (const s of series) {
    o.push(`<line x1="${lxp}" x2="${lxp + 26}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="${s.width + 0.5}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    o.push(`<circle cx="${lxp + 13}" cy="${ly}" r="2.8" fill="${s.color}"/>`);
    o.push(`<text x="${lxp + 32}" y="${ly + 4}">${esc(s.label)}</text>`);
    lxp += 48 + s.label.length * 7.2;
  }
  o.push('</svg>');
  return o.join('\n');
}

// The links of Markdown files, checked against a set of files (the tarball's):
// where the README is read (the package page, node_modules, a CDN's file
// listing), a relative link works only if the package holds its target.
// tests/package/run.mjs runs deadLinks() on the packed Markdown.
import { posix } from 'node:path';

const SCHEME = /^[a-z][a-z\d+.-]*:|^\/\//i;

/** The text without fenced code blocks and code spans, whose brackets are no links. */
function withoutCode(text) {
  return text
    .replace(/^ {0,3}(`{3,}|~{3,})[^]*?^ {0,3}\1[`~]*[ \t]*$/gm, '')
    .replace(/(`+)(?!`)[^]*?(?<!`)\1(?!`)/g, '');
}

/** Every link target in the Markdown: inline links and images, reference definitions, HTML href/src. */
export function linkTargets(text) {
  const prose = withoutCode(text);
  const targets = [];
  for (const m of prose.matchAll(/\]\(\s*(?:<([^>\n]*)>|([^()\s]*(?:\([^()\s]*\)[^()\s]*)*))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
    targets.push(m[1] ?? m[2]);
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)>?/gm)) targets.push(m[1]);
  for (const m of prose.matchAll(/<[a-z][^>]*?\s(?:href|src)\s*=\s*["']([^"']+)["']/gi)) targets.push(m[1]);
  return targets;
}

/** GitHub's anchor for a heading's text (github-slugger: lower case, punctuation but `-` and `_` dropped, spaces to `-`). */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file's headings (and HTML ids / names) give, as GitHub renders them. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  const noFences = text.replace(/^ {0,3}(`{3,}|~{3,})[^]*?^ {0,3}\1[`~]*[ \t]*$/gm, '');
  for (const m of noFences.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  for (const m of noFences.matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) out.add(m[1]);
  return out;
}

/**
 * The links of the Markdown `files` (path -> text, paths relative to the
 * package root) that lead nowhere in `paths` (every file the package holds):
 * a relative path outside the package or to no file in it (a directory counts
 * if it holds files), or an anchor that no heading of the target makes.
 * Returns { checked, dead }, dead as "file: target (why)".
 */
export function deadLinks(files, paths) {
  const holds = new Set(paths);
  let checked = 0;
  const dead = [];
  for (const [file, text] of files) {
    for (const target of linkTargets(text)) {
      if (SCHEME.test(target)) continue;
      checked++;
      const [rawPath, fragment] = target.split('#', 2);
      let path = file;
      if (rawPath) {
        path = posix.normalize(posix.join(posix.dirname(file), decodeURI(rawPath))).replace(/\/$/, '');
        if (rawPath.startsWith('/') || path === '..' || path.startsWith('../')) {
          dead.push(`${file}: ${target} (outside the package)`);
          continue;
        }
        const isDir = [...holds].some((p) => p.startsWith(path + '/'));
        if (!holds.has(path) && !isDir) {
          dead.push(`${file}: ${target} (the package has no ${path})`);
          continue;
        }
        if (isDir) {
          if (fragment) dead.push(`${file}: ${target} (an anchor in a directory)`);
          continue;
        }
      }
      if (fragment && path.endsWith('.md')) {
        if (!files.has(path)) throw new Error(`deadLinks: ${file} links into ${path}, whose text was not given`);
        if (!anchors(files.get(path)).has(decodeURIComponent(fragment))) {
          dead.push(`${file}: ${target} (no heading in ${path} makes #${fragment})`);
        }
      }
    }
  }
  return { checked, dead };
}

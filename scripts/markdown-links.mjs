// The links of Markdown files, checked where each file is read: in the repository (on GitHub) and
// inside a packed package (on npm, where only the tarball's files exist). Used by
// scripts/test/links.test.ts (every Markdown file of the repository) and by the packaging test
// (the README in each tarball, against that tarball's files).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The repository's public address (package.json `repository`); links into the repository start with it. */
export const REPOSITORY_URL = 'https://github.com/hosting-api/hosting-api';
/** Where a link to a file of the repository's default branch starts (`…/blob/main/spec/DECISIONS.md`). */
export const REPOSITORY_FILE_URL = new RegExp(`^${REPOSITORY_URL.replace(/[.]/g, '\\.')}/(?:blob|tree)/main/([^#?]*)`);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The text of a Markdown file without its fenced code blocks (blanked, so lines keep their numbers). */
function withoutBlocks(text) {
  return text.replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** The text of a Markdown file without its code blocks and inline code (their text is not links). */
function prose(text) {
  return withoutBlocks(text).replace(/(`+)[^`\n]*?\1/g, (code) => ' '.repeat(code.length));
}

/** Anchors a file's headings (and explicit `id=`/`name=` attributes) define. */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const m of withoutBlocks(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/\b(?:id|name)=["']([^"']+)["']/g)) out.add(m[1]);
  return out;
}

/** Every link target of a Markdown file, with its line: inline links and images, reference definitions, HTML href/src. */
export function links(text) {
  const found = [];
  const lines = prose(text).split('\n');
  lines.forEach((line, i) => {
    const add = (target) => found.push({ line: i + 1, target: target.trim().replace(/^<|>$/g, '') });
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) add(m[1]);
    const def = line.match(/^\s{0,3}\[[^\]]+\]:\s*(\S+)/);
    if (def) add(def[1]);
    for (const m of line.matchAll(/\b(?:href|src)=["']([^"']+)["']/g)) add(m[1]);
  });
  return found;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The broken links of one Markdown file, as `file:line: target: why`.
 * @param {string} file the Markdown file
 * @param {{ root: string, repoRoot?: string, label?: string }} where `root`: the folder the file is
 *   read in (a link may not leave it: the repository, or the unpacked package), `label` names it in
 *   messages; `repoRoot`: the repository, to check links that use its public URL
 *   (`https://github.com/hosting-api/hosting-api/blob/main/…`)
 * @returns {string[]}
 */
export function brokenLinks(file, { root, repoRoot, label = 'the repository' }) {
  const text = readFileSync(file, 'utf8');
  const problems = [];
  const at = (line, target, why) => problems.push(`${relative(root, file)}:${line}: ${target}: ${why}`);
  for (const { line, target } of links(text)) {
    const repoFile = target.match(REPOSITORY_FILE_URL);
    if (repoFile) {
      if (!repoRoot) continue;
      const path = decodeURIComponent(repoFile[1]);
      if (!existsSync(join(repoRoot, path))) at(line, target, `no ${path} in the repository`);
      continue;
    }
    if (EXTERNAL.test(target)) continue;
    const [pathPart, fragment] = target.split('#');
    const path = decodeURIComponent(pathPart ?? '');
    const resolved = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path);
    const inside = relative(root, resolved);
    if (inside.startsWith(`..${sep}`) || inside === '..') {
      at(line, target, `points outside ${label}, where the file is read`);
      continue;
    }
    if (!existsSync(resolved)) {
      at(line, target, `no such file (${inside})`);
      continue;
    }
    if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      const known = anchors(readFileSync(resolved, 'utf8'));
      if (!known.has(decodeURIComponent(fragment)))
        at(line, target, `no heading #${fragment} in ${relative(root, resolved) || 'this file'}`);
    }
  }
  return problems;
}

// The install and npx lines of the Markdown docs that name a @hosting-api/* package or one of its
// bins: `npm install …`, `npx …`, and the MCP configs' `"command": "npx", "args": ["-y", "@hosting-api/mcp"]`.
// Before the first release none of them reaches a registry that has the package; each must say so
// with the pre-release form, `pnpm install:packed <folder>` (test/release/install-packed.mjs).
// scripts/test/install-lines.test.ts checks the docs; test/release/install-lines.test.ts runs the
// lines against the packed install.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
export const PRE_RELEASE = 'pnpm install:packed';

/** The repository's Markdown files a user reads (not the changelogs or changesets). */
export function docFiles() {
  return execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/(^|\/)CHANGELOG\.md$/.test(f) && !f.startsWith('.changeset/'));
}

const OURS = /^(@hosting-api\/[\w-]+|hosting-api(-[\w]+)?)(@[\w.-]+)?$/;
const COMMAND = /\b(npm (?:install|i|add)|pnpm add|yarn add|npx)\s+([^`#&|;\n\\]*)/g;
const MCP_ARGS = /\[\s*"-y",\s*"(@hosting-api\/[\w-]+)"/g;

/**
 * @typedef {{ file: string, line: number, text: string, kind: 'install' | 'npx', flags: string[],
 *   packages: string[], args: string[], explained: boolean }} InstallLine
 * `packages`: for npx, the one package or bin it runs; `explained`: the pre-release form is named
 * in the line's fenced block or the paragraph just before it (a line in prose: anywhere in its file).
 */

/** @param {string} text one line or code span @param {string} lineText @returns {Omit<InstallLine, 'file' | 'line' | 'explained'>[]} */
function commandsIn(text) {
  const found = [];
  for (const m of text.matchAll(COMMAND)) {
    const tokens = m[2].trim().split(/\s+/).filter(Boolean);
    if (m[1] === 'npx') {
      const at = tokens.findIndex((t) => !t.startsWith('-'));
      if (at < 0 || !OURS.test(tokens[at])) continue;
      found.push({
        kind: 'npx',
        text: m[0].trim(),
        flags: tokens.slice(0, at),
        packages: [tokens[at]],
        args: tokens.slice(at + 1),
      });
    } else {
      const packages = tokens.filter((t) => !t.startsWith('-'));
      if (!packages.some((p) => p.startsWith('@hosting-api/'))) continue;
      found.push({
        kind: 'install',
        text: m[0].trim(),
        flags: tokens.filter((t) => t.startsWith('-')),
        packages,
        args: [],
      });
    }
  }
  for (const m of text.matchAll(MCP_ARGS))
    found.push({ kind: 'npx', text: m[0], flags: ['-y'], packages: [m[1]], args: [] });
  return found;
}

/** Every install and npx line of one Markdown file. @returns {InstallLine[]} */
export function installLines(file, markdown = readFileSync(join(root, file), 'utf8')) {
  const lines = markdown.split('\n');
  const fileExplains = markdown.includes(PRE_RELEASE);
  const found = [];
  let fence = -1; // the line a fenced block opened on, or -1 outside one
  const blockEnd = (start) => {
    let end = start + 1;
    while (end < lines.length && !/^\s*(```|~~~)/.test(lines[end])) end++;
    return end;
  };
  const paragraphBefore = (start) => {
    let from = start - 1;
    while (from >= 0 && lines[from].trim() === '') from--;
    while (from > 0 && lines[from - 1].trim() !== '') from--;
    return lines.slice(Math.max(from, 0), start).join('\n');
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) {
      fence = fence < 0 ? i : -1;
      continue;
    }
    const pieces = fence >= 0 ? [lines[i]] : [...lines[i].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    for (const piece of pieces)
      for (const c of commandsIn(piece)) {
        const explained =
          fence >= 0
            ? `${paragraphBefore(fence)}\n${lines.slice(fence, blockEnd(fence)).join('\n')}`.includes(PRE_RELEASE)
            : fileExplains;
        found.push({ file, line: i + 1, explained, ...c });
      }
  }
  return found;
}

/** The install and npx lines of every doc file. */
export const allInstallLines = () => docFiles().flatMap((f) => installLines(f));

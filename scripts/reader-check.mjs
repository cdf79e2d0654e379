// The one-reader rule (issue 40): outside the reader (spec/http/), no shipped code reads an HTTP
// answer's body by hand: no `.text()`, `.json()`, `.arrayBuffer()`, `.blob()` or `.formData()`
// call, no zlib decompression, no `for await` over a response or body. Those reads have no byte
// cap, inflated cap or deadline; `@hosting-api/openapi/http` (Node) and `/http/web` have all three.
// `node scripts/reader-check.mjs` lists offences and exits 1; scripts/test/reader.test.ts runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repo = join(import.meta.dirname, '..');
/** Where shipped code lives (tests, benches and generated output are not scanned). */
const ROOTS = ['packages/*/src', 'packages/*/bin', 'packages/*/scripts', 'spec/model', 'spec/lint', 'spec/scripts'];
const READER = 'spec/http/';
/** Reads that are not of an answer from the network, each with why (file → the line's text). */
const ALLOWED = {
  // MSW hands the handlers an in-process Request: its body is the caller's own, already in memory.
  'packages/sandbox/src/msw.ts': ['await request.arrayBuffer()'],
  // The sandbox's test helper asks its own loopback server for a token. (To move to the reader.)
  'packages/sandbox/src/index.ts': ['await res.json()'],
};
const RULES = [
  [/\.(text|json|arrayBuffer|blob|formData)\(\)/, 'reads a body with no cap'],
  [
    /\b(gunzip\w*|inflateSync|inflateRaw\w*|unzip\w*|brotliDecompress\w*|createGunzip|createInflate\w*|createUnzip|createBrotliDecompress|zlib\.inflate)\b/,
    'decompresses with no inflated-size cap',
  ],
  [/for await \([^)]*\bof\s+[\w.]*\b(res|response|answer|body|upstream)\b/i, 'iterates over a response with no cap'],
];

/** The offences in one file's text: `path:line: what (the line)`. */
export function offences(path, text) {
  if (path.startsWith(READER)) return [];
  const allowed = ALLOWED[path] ?? [];
  const found = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*)/.test(line)) return; // comments
    for (const [pattern, what] of RULES)
      if (pattern.test(line) && !allowed.some((a) => line.includes(a)))
        found.push(`${path}:${i + 1}: ${what}: use @hosting-api/openapi/http (${line.trim()})`);
  });
  return found;
}

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(join(repo, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory() && e.name !== 'node_modules' && e.name !== 'generated') yield* files(path);
    else if (/\.(ts|js|mjs|cjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name)) yield path;
  }
}

/** Every offence in the repository's shipped code. */
export function scan() {
  const packages = readdirSync(join(repo, 'packages'));
  const dirs = ROOTS.flatMap((r) => (r.includes('*') ? packages.map((p) => r.replace('*', p)) : [r]));
  return dirs.flatMap((d) =>
    [...files(d)].flatMap((f) => offences(relative(repo, join(repo, f)), readFileSync(join(repo, f), 'utf8'))),
  );
}

if (process.argv[1] === import.meta.filename) {
  const found = scan();
  for (const line of found) console.error(line);
  process.exitCode = found.length ? 1 : 0;
}

#!/usr/bin/env node
// The client code a tree-shaken browser app ships. A tiny app (temp dir; the package linked into its
// node_modules as an install puts it) signs in with client credentials, lists sites and creates a note;
// esbuild bundles it as a user's build does: browser platform and condition (#get-with-body is the
// browser variant), ESM, minified, tree-shaken. Prints raw and gzip -9 bytes against the 15 KB gzip
// target and the top contributors per input file (metafile) and per source module (dist's source maps).

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, version } from 'esbuild';

const USAGE = 'Usage: node bench/bundle-size.mjs [--package <dir>] [--top N]   (default: this package, built; top 6)';
const fail = (message, code = 2) => {
  console.error(`bundle-size: ${message}${code === 2 ? ' (--help for usage)' : ''}`);
  process.exit(code);
};
let opts;
try {
  const options = { help: { type: 'boolean' }, package: { type: 'string' }, top: { type: 'string', default: '6' } };
  opts = parseArgs({ options }).values;
} catch (error) {
  fail(error.message);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const top = Number(opts.top);
if (!Number.isInteger(top) || top < 1) fail(`--top takes a positive whole number, got ${opts.top}`);

const pkg = resolve(opts.package ?? join(import.meta.dirname, '..'));
const dir = mkdtempSync(join(tmpdir(), 'client-bundle-size-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'node_modules/@hosting-api'), { recursive: true });
symlinkSync(pkg, join(dir, 'node_modules/@hosting-api/client'), 'dir');
writeFileSync(
  join(dir, 'app.js'),
  `import { createClient } from '@hosting-api/client';
const client = createClient({ baseUrl: 'https://api.example.com/v1', clientId: 'id', clientSecret: 'secret' });
await client.auth.createToken({ grant_type: 'client_credentials', client_id: 'id', client_secret: 'secret' });
const { data: sites } = await client.sites.list();
await client.sites.notes.create(sites[0].id, { subject: 'Hello', body: 'From a browser app.' });
`,
);
let result;
try {
  // tsconfigRaw: the app's own (empty) tsconfig; the package's tsconfig.json is not published.
  const app = { absWorkingDir: dir, entryPoints: ['app.js'], outfile: 'out.js', tsconfigRaw: '{}', logLevel: 'silent' };
  const user = { platform: 'browser', conditions: ['browser'], format: 'esm', bundle: true, minify: true };
  result = await build({ ...app, ...user, treeShaking: true, write: false, metafile: true, sourcemap: 'external' });
} catch (error) {
  fail(`the app does not bundle with ${pkg} (built?): ${error.errors?.[0]?.text ?? error.message}`, 1);
}
const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
const mapFile = result.outputFiles.find((f) => f.path.endsWith('.map'));
const gzip = gzipSync(js.contents, { level: 9 }).length;
const size = (n) => `${n} B (${(n / 1024).toFixed(1)} KB)`;
console.log(`esbuild ${version}, browser, ESM, minified: ${size(js.contents.length)} raw, ${size(gzip)} gzip -9`);
console.log(`target ≤ 15 KB gzip: ${gzip <= 15 * 1024 ? 'met' : 'NOT met'}`);
const label = (file, base) => relative(realpathSync(pkg), resolve(base, file)).replace(/^\.\..*/, 'the app');
const share = ([name, n]) => `${name} ${size(n)} ${((100 * n) / js.contents.length).toFixed(1)}%`;
const byBytes = (a, b) => b[1] - a[1];
const list = (pairs) => pairs.sort(byBytes).slice(0, top).map(share).join(', ');
const inputs = Object.values(result.metafile.outputs).flatMap((o) => Object.entries(o.inputs));
const files = inputs.map(([file, { bytesInOutput }]) => [label(file, dir), bytesInOutput]).filter(([, n]) => n);
console.log(`per input file (raw): ${list(files)}`);
// Per source module: each output byte by its source in the output's map (esbuild chains dist's maps to src/).
const sourceMap = new SourceMap(JSON.parse(mapFile.text));
const bySource = new Map();
for (const [l, line] of js.text.split('\n').entries())
  for (let c = 0; c < line.length; c++) {
    const source = sourceMap.findEntry(l, c).originalSource ?? '(unmapped)';
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
const modules = [...bySource].map(([source, n]) => [source === '(unmapped)' ? source : label(source, dir), n]);
console.log(`per source module (raw): ${list(modules)}`);

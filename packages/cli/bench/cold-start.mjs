#!/usr/bin/env node
// Cold start of `hosting-api sites list` end to end against a local sandbox: a new Node process
// per run, from spawn to exit, output piped away. Target: ≤ 300 ms.
// Usage: node bench/cold-start.mjs [--runs N] (after `pnpm build`).
// Prints the median, min and max over the runs, for: a bare `node -e ''` (the floor on this
// machine), `hosting-api --version`, `hosting-api sites list` with the token cached (the usual run),
// the first `sites list` of a session (no cached token: one more request, for the token), and
// `--dry-run` (which builds the same request and sends nothing: it must add nothing measurable).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandbox } from '@hosting-api/sandbox';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
const bin = fileURLToPath(new URL('../bin/hosting-api.js', import.meta.url));
const sb = await startSandbox({ port: 0, speed: 0 });
const config = mkdtempSync(join(tmpdir(), 'hosting-api-bench-'));
const env = {
  ...process.env,
  HOSTING_API_BASE_URL: sb.url,
  HOSTING_API_AUTH_URL: sb.authUrl,
  HOSTING_API_CLIENT_ID: sb.clients[0].clientId,
  HOSTING_API_CLIENT_SECRET: sb.clients[0].clientSecret,
  XDG_CONFIG_HOME: config,
};

// The sandbox runs in this process: the runs are spawned asynchronously so that it can answer them.
function once(args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

async function time(args, { fresh = false } = {}) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    if (fresh) rmSync(join(config, 'hosting-api'), { recursive: true, force: true });
    ms.push(await once(args));
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms.at(-1) };
}

const rows = [
  ["node -e ''", await time(['-e', ''])],
  ['hosting-api --version', await time([bin, '--version'])],
  ['hosting-api sites list (token cached)', await time([bin, 'sites', 'list'])],
  ['hosting-api sites list (first run, no token)', await time([bin, 'sites', 'list'], { fresh: true })],
  ['hosting-api sites list --dry-run', await time([bin, 'sites', 'list', '--dry-run'])],
  ['hosting-api sites delete 1 --dry-run', await time([bin, 'sites', 'delete', '1', '--dry-run'])],
];
await sb.stop();
rmSync(config, { recursive: true, force: true });
const f = (n) => `${n.toFixed(0).padStart(5)} ms`;
console.log(
  `${runs} runs each, Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${cpus().length} CPUs)\n`,
);
console.log(`${'command'.padEnd(46)} median      min      max`);
for (const [name, t] of rows) console.log(`${name.padEnd(46)}${f(t.median)} ${f(t.min)} ${f(t.max)}`);
const verdict = rows[2][1].median <= 300 ? 'within' : 'over';
console.log(`\nsites list (token cached): median ${rows[2][1].median.toFixed(0)} ms, ${verdict} the 300 ms target`);
console.log(`--dry-run minus --version: ${(rows[4][1].median - rows[1][1].median).toFixed(0)} ms (median)`);

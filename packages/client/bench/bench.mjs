#!/usr/bin/env node
// Time per call of the client against a local server versus raw fetch on the same request.
// Usage: node bench/bench.mjs [--calls N] [--rounds N] [--dist <index.js>] (after `pnpm build`).
// Prints the timings and ratios; `--dist` measures another build (e.g. an older one unpacked elsewhere).
//
// Both sides send the same request: the same URL and the same headers (accept, authorization).
// The client enforces a timeout on every attempt (default 60 s) through an AbortSignal, so the
// fair comparison is raw fetch with the same signal semantics: a 60 s timeout that aborts the
// request (`raw+timeout`: an AbortController and a timer per call, as a careful caller writes it).
// Raw fetch with no signal at all (`raw`) is compared with the client with its timeout off
// (`client-no-timeout`, `timeout: Infinity`: then fetch gets no signal either).
// Two clocks: wall time per call, and this process's CPU time per call (user + system; the local
// server runs in this process too, the same work for every side). On a machine shared with other
// work the CPU figure moves less, since time spent waiting for the CPU is not counted.
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchOptions } from './options.mjs';

const opts = benchOptions(
  'Usage: node bench/bench.mjs [--calls N] [--rounds N] [--dist <index.js>]   (default 3000 calls per round, 5 rounds, ../dist/index.js; build first)',
  { calls: { type: 'string' }, rounds: { type: 'string' }, dist: { type: 'string' } },
  { calls: 3000, rounds: 5 },
);
const dist = opts.dist ? pathToFileURL(resolve(opts.dist)).href : new URL('../dist/index.js', import.meta.url).href;
const { createClient } = await import(dist);
const { calls, rounds } = opts;
const TIMEOUT = 60_000;

const body = JSON.stringify({ message: 'Success', data: { id: 123456, name: 'shop', state: 'running' }, errors: null });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/v1`;

const client = createClient({ baseUrl: base, accessToken: 'bench-token', timeout: TIMEOUT });
const headers = { accept: 'application/json', authorization: 'Bearer bench-token' };
const raw = async () => {
  const res = await fetch(`${base}/sites/123456`, { headers });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()).data;
};
const rawTimeout = async () => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${TIMEOUT} ms`)), TIMEOUT);
  try {
    const res = await fetch(`${base}/sites/123456`, { headers, signal: controller.signal });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return (await res.json()).data;
  } finally {
    clearTimeout(timer);
  }
};
const untimed = opts.dist ? undefined : createClient({ baseUrl: base, accessToken: 'bench-token', timeout: Infinity });
const sides = {
  raw,
  'raw+timeout': rawTimeout,
  client: () => client.sites.get(123456),
  'client-no-timeout': () => untimed.sites.get(123456),
};
// Builds before the timeout could be turned off took Infinity for 1 ms.
if (opts.dist) delete sides['client-no-timeout'];
const names = Object.keys(sides);

// Calls alternate between the sides one by one, so load from other processes hits all alike, and
// the order rotates, so no side always runs right after another's response.
async function round() {
  const ns = Object.fromEntries(names.map((n) => [n, 0n]));
  const cpu = Object.fromEntries(names.map((n) => [n, 0]));
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      await sides[name]();
      ns[name] += process.hrtime.bigint() - start;
      const used = process.cpuUsage(cpuStart);
      cpu[name] += used.user + used.system;
    }
  }
  return Object.fromEntries(
    names.flatMap((n) => [
      [n, Number(ns[n]) / 1e3 / calls],
      [`${n} cpu`, cpu[n] / calls],
    ]),
  );
}

await round(); // warm up
const results = [];
for (let r = 0; r < rounds; r++) {
  const result = await round();
  results.push(result);
  console.log(
    `round ${r + 1}: ${names.map((n) => `${n} ${result[n].toFixed(1)} µs (cpu ${result[`${n} cpu`].toFixed(1)})`).join('   ')}   client/raw+timeout ${(result.client / result['raw+timeout']).toFixed(3)}× (cpu ${(result['client cpu'] / result['raw+timeout cpu']).toFixed(3)}×)`,
  );
}
server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `median µs/call (${calls} sequential calls × ${rounds} rounds): ${names.map((n) => `${n} ${median(results.map((r) => r[n])).toFixed(1)}`).join('   ')}`,
);
const ratio = (a, b) => median(results.map((r) => r[a] / r[b])).toFixed(3);
console.log(
  `median CPU µs/call: ${names.map((n) => `${n} ${median(results.map((r) => r[`${n} cpu`])).toFixed(1)}`).join('   ')}`,
);
console.log(
  `ratio client/raw+timeout: ${ratio('client', 'raw+timeout')}× wall, ${ratio('client cpu', 'raw+timeout cpu')}× CPU (median of ${rounds} rounds; target ≤ 1.05×)`,
);
if (sides['client-no-timeout'])
  console.log(
    `ratio client-no-timeout/raw: ${ratio('client-no-timeout', 'raw')}× wall, ${ratio('client-no-timeout cpu', 'raw cpu')}× CPU`,
  );
console.log(
  `ratio client/raw (the cost of the timeout signal included): ${ratio('client', 'raw')}× wall, ${ratio('client cpu', 'raw cpu')}× CPU`,
);

#!/usr/bin/env node
// Time per call of the client against a local server versus raw fetch on the same request.
// Usage: node bench/bench.mjs [--calls N] [--rounds N] (after `pnpm build`). Prints the timings and ratios.
//
// Both sides send the same request: the same URL and the same headers (accept, authorization).
// The client enforces a timeout on every attempt (default 60 s) through an AbortSignal, so the
// fair comparison is raw fetch with the same signal semantics: a 60 s timeout that aborts the
// request (`raw+timeout`: an AbortController and a timer per call, as a careful caller writes it).
// Raw fetch with no signal at all is printed too (`raw`), for reference.
import http from 'node:http';
import { createClient } from '../dist/index.js';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('Usage: node bench/bench.mjs [--calls N] [--rounds N]   (default 3000 calls per round, 5 rounds; build first)');
  process.exit(0);
}
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const calls = option('--calls', 3000);
const rounds = option('--rounds', 5);
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
const viaClient = () => client.sites.get(123456);
const sides = { raw, 'raw+timeout': rawTimeout, client: viaClient };
const names = Object.keys(sides);

// Calls alternate between the sides one by one, so load from other processes hits all alike, and
// the order rotates, so no side always runs right after another's response.
async function round() {
  const ns = Object.fromEntries(names.map((n) => [n, 0n]));
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      const start = process.hrtime.bigint();
      await sides[name]();
      ns[name] += process.hrtime.bigint() - start;
    }
  }
  return Object.fromEntries(names.map((n) => [n, Number(ns[n]) / 1e3 / calls]));
}

await round(); // warm up
const results = [];
for (let r = 0; r < rounds; r++) {
  const result = await round();
  results.push(result);
  console.log(`round ${r + 1}: ${names.map((n) => `${n} ${result[n].toFixed(1)} µs`).join('   ')}   client/raw+timeout ${(result.client / result['raw+timeout']).toFixed(3)}×`);
}
server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`median µs/call (${calls} sequential calls × ${rounds} rounds): ${names.map((n) => `${n} ${median(results.map((r) => r[n])).toFixed(1)}`).join('   ')}`);
console.log(`ratio client/raw+timeout: ${median(results.map((r) => r.client / r['raw+timeout'])).toFixed(3)}× (median of ${rounds} rounds; target ≤ 1.05×)`);
console.log(`ratio client/raw (no signal): ${median(results.map((r) => r.client / r.raw)).toFixed(3)}×`);

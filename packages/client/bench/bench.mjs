#!/usr/bin/env node
// Time per call of the client against a local server versus raw fetch on the same request.
// Usage: node bench/bench.mjs [--calls N] (after `pnpm build`). Prints both timings and the ratio.
import http from 'node:http';
import { createClient } from '../dist/index.js';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('Usage: node bench/bench.mjs [--calls N]   (default 3000 calls per round, 5 rounds; build first)');
  process.exit(0);
}
const calls = Number(args[args.indexOf('--calls') + 1]) || 3000;
const rounds = 5;

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

const client = createClient({ baseUrl: base, accessToken: 'bench-token' });
const raw = async () => {
  const res = await fetch(`${base}/sites/123456`, { headers: { accept: 'application/json', authorization: 'Bearer bench-token' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()).data;
};
const viaClient = () => client.sites.get(123456);

// Calls alternate raw/client one by one, so load from other processes hits both sides alike, and
// which side goes first alternates too, so neither always runs right after the other's response.
async function timed(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return process.hrtime.bigint() - start;
}
async function round() {
  let rawNs = 0n;
  let clientNs = 0n;
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) {
      rawNs += await timed(raw);
      clientNs += await timed(viaClient);
    } else {
      clientNs += await timed(viaClient);
      rawNs += await timed(raw);
    }
  }
  return { rawUs: Number(rawNs) / 1e3 / calls, clientUs: Number(clientNs) / 1e3 / calls };
}

await round(); // warm up
const results = [];
for (let r = 0; r < rounds; r++) results.push(await round());
server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rawUs = median(results.map((r) => r.rawUs));
const clientUs = median(results.map((r) => r.clientUs));
const ratio = median(results.map((r) => r.clientUs / r.rawUs));
console.log(`raw fetch: ${rawUs.toFixed(1)} µs/call   client: ${clientUs.toFixed(1)} µs/call   (${calls} sequential calls × ${rounds} rounds, median)`);
console.log(`ratio client/raw: ${ratio.toFixed(3)}× (median of ${rounds} rounds; target ≤ 1.1×)`);

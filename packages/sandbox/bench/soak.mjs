#!/usr/bin/env node
// A bounded soak of the sandbox: constant mixed load (reads, writes that leave the state's size as
// it was, activity searches, tokens renewed as they expire) for --duration seconds, the heap read
// after a forced GC every --sample seconds. Prints the samples and the figures: the heap's growth
// between the end of the warm-up (minute 2 of the 10-minute run; the first half of a shorter
// one) and the end, per request too, and the errors.
//
//   node --expose-gc bench/soak.mjs [--duration 600] [--sample 60] [--connections 8] [--json FILE]
//        [--activity-limit N]
//
// The sandbox runs at 600× virtual time (a token lives six real seconds, so tokens expire and are
// renewed all the time; the activity log's 60-day retention is 2.4 real hours, so in 10 minutes its
// entry limit is what bounds it). Exit 1 when a request failed or the heap grew by more than
// --max-growth-mb (default 5) after the warm-up. The sandbox is the package's build (dist/).
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

const USAGE =
  'Usage: node --expose-gc bench/soak.mjs [--duration SECONDS (600)] [--sample SECONDS (60)] [--connections N (8)] [--activity-limit N] [--max-growth-mb MB (5)] [--json FILE]';
let values;
try {
  ({ values } = parseArgs({
    options: {
      duration: { type: 'string', default: '600' },
      sample: { type: 'string', default: '60' },
      connections: { type: 'string', default: '8' },
      'activity-limit': { type: 'string' },
      'max-growth-mb': { type: 'string', default: '5' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const duration = Number(values.duration);
const sampleEvery = Number(values.sample);
const connections = Number(values.connections);
const activityLimit = values['activity-limit'] === undefined ? undefined : Number(values['activity-limit']);
const maxGrowth = Number(values['max-growth-mb']) * 1024 * 1024;
if (
  ![duration, sampleEvery, connections].every((n) => Number.isFinite(n) && n > 0) ||
  sampleEvery > duration ||
  (activityLimit !== undefined && !(activityLimit > 0))
) {
  console.error(`bad option values\n${USAGE}`);
  process.exit(2);
}
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc (the heap is read after a forced GC)');
  process.exit(2);
}

const { startSandbox } = await import('../dist/index.js');
const sb = await startSandbox({ port: 0, speed: 600, activityLimit });
const { hostname, port } = new URL(sb.authUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

/** One request; resolves to its status (0 for a transport error). */
function request(method, path, token, body, form) {
  return new Promise((resolve) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload;
    if (body !== undefined) {
      payload = form ? new URLSearchParams(body).toString() : JSON.stringify(body);
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = http.request({ host: hostname, port, method, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: 0, text: '' }));
    });
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(payload);
  });
}

const stats = { requests: 0, errors: 0, firstError: undefined };
const record = (what, status, ok) => {
  stats.requests++;
  if (!ok) {
    stats.errors++;
    stats.firstError ??= `${what} → ${status}`;
  }
};

async function newToken() {
  const r = await request(
    'POST',
    '/auth/token',
    null,
    { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
    true,
  );
  record('POST /auth/token', r.status, r.status === 200);
  return r.status === 200 ? JSON.parse(r.text).data.access_token : null;
}

let running = true;
async function worker(n) {
  let token = await newToken();
  let tokenAt = performance.now();
  for (let i = 0; running; i++) {
    // A token lives 3599 virtual seconds: 6 real seconds at 600×. Renew every second.
    if (performance.now() - tokenAt > 1000) {
      token = await newToken();
      tokenAt = performance.now();
    }
    const step = (i + n) % 6;
    if (step === 0 || step === 3) {
      const r = await request('GET', '/v1/sites/123456', token);
      record('GET /v1/sites/123456', r.status, r.status === 200);
    } else if (step === 1) {
      const r = await request('POST', '/v1/sites/123456/notes', token, { subject: 'soak', body: `note ${i}` });
      record('POST /v1/sites/123456/notes', r.status, r.status === 200);
      if (r.status === 200) {
        const id = JSON.parse(r.text).data.id;
        const d = await request('DELETE', `/v1/sites/123456/notes/${id}`, token);
        record('DELETE /v1/sites/123456/notes/{id}', d.status, d.status === 200);
      }
    } else if (step === 2) {
      const r = await request('PUT', '/v1/account', token, { php_version: i % 2 ? '8.3' : '8.4' });
      record('PUT /v1/account', r.status, r.status === 200);
    } else if (step === 4) {
      const r = await request('POST', '/v1/account/logs/activity', token, {
        per_page: 50,
        filters: [{ field: 'source', operator: 'equals', value: 'api.v1' }],
      });
      record('POST /v1/account/logs/activity', r.status, r.status === 200);
    } else {
      const r = await request('GET', '/v1/alerts', token);
      record('GET /v1/alerts', r.status, r.status === 200);
    }
  }
}

/** Heap in use after a forced GC, without V8's code spaces (compiled code tiers up on its own schedule). */
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  const data = v8
    .getHeapSpaceStatistics()
    .filter((s) => !s.space_name.startsWith('code'))
    .reduce((sum, s) => sum + s.space_used_size, 0);
  return { heapUsed: data, rss: process.memoryUsage().rss };
};
const samples = [];
const take = (t) => {
  const m = heap();
  samples.push({
    t,
    requests: stats.requests,
    errors: stats.errors,
    heapMB: m.heapUsed / 1048576,
    rssMB: m.rss / 1048576,
    activity: sb.runtime.state.activity.length,
    tokens: sb.runtime.tokens.size,
  });
};

const started = performance.now();
take(0);
const workers = Array.from({ length: connections }, (_, n) => worker(n));
for (let t = sampleEvery; t <= duration + 1e-9; t += sampleEvery) {
  await new Promise((resolve) => setTimeout(resolve, started + t * 1000 - performance.now()));
  take(t);
}
running = false;
await Promise.all(workers);
agent.destroy();
await sb.stop();

// The warm-up: minute 2 of a run of 10 minutes or more, else the first half (rounded to a sample).
const warmT = duration >= 600 ? 120 : Math.max(sampleEvery, Math.round(duration / 2 / sampleEvery) * sampleEvery);
const from = samples.find((s) => s.t >= warmT) ?? samples[1];
const to = samples.at(-1);
const growth = (to.heapMB - from.heapMB) * 1048576;
const requests = to.requests - from.requests;
const figures = {
  duration,
  connections,
  requests: stats.requests,
  requestsPerSecond: Math.round(stats.requests / duration),
  errors: stats.errors,
  firstError: stats.firstError ?? null,
  warmupEnd: from.t,
  heapGrowthBytes: Math.round(growth),
  heapGrowthPerRequestBytes: Number((growth / Math.max(1, requests)).toFixed(2)),
  samples,
};

console.log(
  `soak: ${duration} s, ${connections} connections, ${figures.requestsPerSecond} req/s, Node ${process.version}`,
);
console.log('   t s   requests  errors  heap MB (after GC, no code)  rss MB  activity entries  tokens');
for (const s of samples) {
  console.log(
    `${String(s.t).padStart(6)}  ${String(s.requests).padStart(9)}  ${String(s.errors).padStart(6)}  ${s.heapMB.toFixed(2).padStart(28)}  ${s.rssMB.toFixed(1).padStart(6)}  ${String(s.activity).padStart(16)}  ${String(s.tokens).padStart(6)}`,
  );
}
console.log(
  `heap after GC from ${from.t} s to ${to.t} s: ${(growth / 1048576).toFixed(2)} MB over ${requests} requests (${figures.heapGrowthPerRequestBytes} B per request); errors: ${stats.errors}${stats.firstError ? ` (first: ${stats.firstError})` : ''}`,
);
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
const ok = stats.errors === 0 && growth <= maxGrowth;
console.log(ok ? 'within bounds' : `OUT OF BOUNDS (allowed: ${values['max-growth-mb']} MB, 0 errors)`);
process.exit(ok ? 0 : 1);

#!/usr/bin/env node
// MCP `tools/list` timing of hosting-api-mcp over stdio. Target: ≤ 200 ms.
// Usage: node bench/tools-list.mjs [--runs N] [--allow-destructive] (after `pnpm build`).
// Each run spawns the server and writes `initialize`, `notifications/initialized` and `tools/list`
// on its stdin at once (JSON-RPC lines, as an MCP client sends them; no SDK on this side, so the
// figures are the server's). Printed, median/min/max over the runs:
// - start → tools/list: from spawn to the tools/list answer (a client's whole wait);
// - tools/list alone: from the initialize answer to the tools/list answer, once the server is up;
// and a bare `node -e ''` spawn, the floor on this machine. No API call is made: listing needs none.
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, 'allow-destructive': { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
const bin = fileURLToPath(new URL('../bin/hosting-api-mcp.js', import.meta.url));
const env = {
  ...process.env,
  HOSTING_API_BASE_URL: 'http://127.0.0.1:9/v1', // never called
  HOSTING_API_CLIENT_ID: 'bench',
  HOSTING_API_CLIENT_SECRET: 'bench-secret',
};
const args = [bin, ...(values['allow-destructive'] ? ['--allow-destructive'] : [])];
const messages = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
];

function once() {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let buffer = '';
    let initialized;
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) initialized = performance.now();
        if (message.id === 2) {
          const done = performance.now();
          child.kill();
          resolve({ total: done - start, list: done - initialized, tools: message.result.tools.length });
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => code && reject(new Error(`exited ${code}`)));
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  });
}

const floor = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  await new Promise((r) => spawn(process.execPath, ['-e', '']).on('exit', r));
  floor.push(performance.now() - start);
}
const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)].toFixed(0).padStart(5)} ms ${s[0].toFixed(0).padStart(5)} ms ${s.at(-1).toFixed(0).padStart(5)} ms`;
};
console.log(
  `${runs} runs, Node ${process.version}, ${results[0].tools} tools listed, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${cpus().length} CPUs)\n`,
);
console.log(`${''.padEnd(28)} median      min      max`);
console.log(`${"node -e ''".padEnd(28)}${stats(floor)}`);
console.log(`${'start → tools/list'.padEnd(28)}${stats(results.map((r) => r.total))}`);
console.log(`${'tools/list alone'.padEnd(28)}${stats(results.map((r) => r.list))}`);

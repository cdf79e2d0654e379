#!/usr/bin/env node
// Size of hosting-api-mcp's `tools/list` answer (the JSON-RPC result line, in bytes) per mode, over
// stdio from the built executable: the default, --read-only, --allow-destructive, --toolsets sites,
// and --dynamic (which must stay at least 10 times smaller than the default). Usage, after
// `pnpm build`: node bench/tools-size.mjs. No API call is made: listing needs none.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/hosting-api-mcp.js', import.meta.url));
const env = {
  ...process.env,
  HOSTING_API_BASE_URL: 'http://127.0.0.1:9/v1', // never called
  HOSTING_API_CLIENT_ID: 'bench',
  HOSTING_API_CLIENT_SECRET: 'bench-secret',
};
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

function list(flags) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...flags], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        const message = JSON.parse(line);
        if (message.id !== 2) continue;
        child.kill();
        resolve({ bytes: Buffer.byteLength(JSON.stringify(message.result)), tools: message.result.tools.length });
      }
    });
    child.on('error', reject);
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  });
}

const modes = [
  ['default', []],
  ['--read-only', ['--read-only']],
  ['--allow-destructive', ['--allow-destructive']],
  ['--toolsets sites', ['--toolsets', 'sites']],
  ['--dynamic', ['--dynamic']],
];
const sizes = {};
console.log(`${'mode'.padEnd(24)}${'tools'.padStart(6)}${'bytes'.padStart(10)}`);
for (const [name, flags] of modes) {
  const { bytes, tools } = await list(flags);
  sizes[name] = bytes;
  console.log(`${name.padEnd(24)}${String(tools).padStart(6)}${String(bytes).padStart(10)}`);
}
const ratio = sizes.default / sizes['--dynamic'];
console.log(`\ndefault / --dynamic: ${ratio.toFixed(1)}x (target ≥ 10x)`);
if (ratio < 10) process.exitCode = 1;

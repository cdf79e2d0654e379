// One `hosting-api-contract check --allow-writes` against `sandbox` reached as a live URL (no
// control URL, no target data), with the sandbox's two applications: the benchmarks' shared run.
// The sandbox answers from the calling process, so the gate runs in a child it does not block on.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `extra`: more arguments, `env`: more environment. Answers {code, out (stdout and stderr), report (the --json file, or undefined), seconds}. */
export async function checkRun(sandbox, extra = [], env = {}) {
  const json = join(mkdtempSync(join(tmpdir(), 'contract-bench-')), 'check.json');
  const t0 = Date.now();
  const { code, out } = await new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '../bin/hosting-api-contract.js'),
        'check',
        '--base-url',
        sandbox.url,
        '--auth-url',
        sandbox.authUrl,
        '--client-id',
        sandbox.clients[0].clientId,
        // The sandbox's second application (scope authorized only): every documented 403 of a scope.
        '--limited-client-id',
        sandbox.clients[1].clientId,
        '--allow-writes',
        '--json',
        json,
        ...extra,
      ],
      {
        env: {
          ...process.env,
          CONTRACT_CLIENT_SECRET: sandbox.clients[0].clientSecret,
          CONTRACT_LIMITED_CLIENT_SECRET: sandbox.clients[1].clientSecret,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.on('exit', (code) => done({ code, out }));
  });
  let report;
  try {
    report = JSON.parse(readFileSync(json, 'utf8'));
  } catch {}
  return { code, out, report, seconds: (Date.now() - t0) / 1000 };
}

// Ctrl-C on the servers the root scripts start ends them cleanly: exit status 0 and no pnpm error.
// A terminal's Ctrl-C sends SIGINT to the whole foreground process group (pnpm, the shell running
// the script, the server); pnpm forwards one more to its child and reports a child that died of a
// signal as `ELIFECYCLE Command failed`. So each script `exec`s its server (the shell becomes it)
// and the server stops on SIGINT, however many arrive, with status 0.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Runs `pnpm <script> --port 0` as a terminal would (its own process group), Ctrl-C once it listens. */
function ctrlC(script: string, listening: RegExp) {
  const child = spawn('pnpm', [script, '--port', '0'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (listening.test(out) && child.pid) {
        listening = /$^/; // once
        process.kill(-child.pid, 'SIGINT');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code, signal) => resolve({ code, signal, out }));
  });
}

describe('Ctrl-C on pnpm start', () => {
  it('start, sandbox and mock exec their server after the build', () => {
    for (const name of ['start', 'sandbox', 'mock']) expect(scripts[name], name).toMatch(/ && exec node \S+\/cli\.js$/);
    expect(scripts.start.split(' && ').at(-1)).toBe(scripts.sandbox.split(' && ').at(-1));
  });

  // `pnpm sandbox` runs the same server as `pnpm start` and builds only what it needs (cached here:
  // turbo.json makes test:scripts wait for the sandbox's build).
  it('pnpm sandbox: the sandbox exits 0 and pnpm reports nothing', async () => {
    const r = await ctrlC('sandbox', /Credentials accepted/);
    expect(r.out).toContain('Hosting API sandbox listening');
    expect(r.out).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
    expect([r.code, r.signal], r.out).toEqual([0, null]);
  }, 60_000);
});

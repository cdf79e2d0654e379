// The 20-second version of bench/soak.mjs (the 10-minute soak is a benchmark, not a test): constant
// mixed load, no request fails, and the heap after a forced GC grows by less than 100 bytes per
// request after the warm-up (activity log at its limit, tokens expiring at 600× virtual time).
// Without the activity log's limit it grew by about 350 B per request, without the token sweep by
// about 220 B per token. Runs the built sandbox (dist/) in a child process with --expose-gc.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('keeps memory flat under 20 s of mixed load, with 0 errors', () => {
  const json = join(mkdtempSync(join(tmpdir(), 'soak-')), 'soak.json');
  const script = fileURLToPath(new URL('../bench/soak.mjs', import.meta.url));
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', script, '--duration', '20', '--sample', '5', '--activity-limit', '200', '--json', json],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const figures = JSON.parse(readFileSync(json, 'utf8'));
  expect(figures.errors, r.stdout).toBe(0);
  expect(figures.requests).toBeGreaterThan(1000);
  expect(figures.heapGrowthPerRequestBytes, r.stdout).toBeLessThan(100);
  expect(r.status, r.stdout + r.stderr).toBe(0);
}, 90_000);

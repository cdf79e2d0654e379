// vitest globalSetup: packs the published packages once and installs the tarballs into a scratch
// project outside the workspace, for every test that runs them as a user would: the packaging test
// (manifests, imports, bins on three Node lines) and the contract gate's own tests (its drift runs
// start the installed gate). Tests read where with `inject('packed')`.
//
// The install is the documented `pnpm install:packed` (install-packed.mjs): all tarballs in one
// install, every @hosting-api/* dependency among them overridden to its tarball. pnpm's isolated
// layout gives each package only what it declares, so a dependency a package forgot is not found in
// a sibling's copy, and strict peers fail as npm's ERESOLVE does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installPacked } from './install-packed.mjs';

export type Packed =
  | {
      scratch: string;
      versions: Record<string, string>;
      /** Each published package's tarball, as a `file:` dependency spec. */
      tarballs: Record<string, string>;
      timings: { pack: number; install: number };
    }
  | { problem: string };

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
  }
}

const INSTALL_TIMEOUT = 300_000;

/** Runs a command to its end: its exit status, and stdout and stderr together. */
export function run(cmd: string, args: string[], cwd: string, timeout = 120_000, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** Why npm cannot reach its registry (the third-party dependencies' metadata comes from there), if it cannot. */
function registryProblem(): string | undefined {
  const r = run('npm', ['view', 'zod@4.6.7', 'version', '--prefer-online'], tmpdir(), 30_000);
  if (r.status === 0 && r.out.includes('4.6.7')) return undefined;
  const errors = r.out
    .split('\n')
    .filter((l) => /^npm (error|ERR!)/.test(l) && !/complete log|npm help config/.test(l));
  return (errors.length ? errors : r.out.trim().split('\n')).slice(0, 2).join(' | ') || `npm exited with ${r.status}`;
}

export default function setup(project: TestProject) {
  const work = mkdtempSync(join(tmpdir(), 'hosting-api-packed-'));
  const scratch = join(work, 'scratch');
  mkdirSync(scratch);
  // The documented `pnpm install:packed <folder>`, with the tarballs beside the scratch project.
  const r = installPacked(scratch, { tarballDir: join(work, 'tarballs'), timeout: INSTALL_TIMEOUT });
  if (r.status !== 0) {
    // Only a registry npm cannot reach skips the tests of the installed packages; any other failure is theirs.
    const problem = registryProblem();
    if (!problem) throw new Error(`pnpm install of the tarballs failed:\n${r.out}`);
    console.warn(`packed install SKIPPED: npm cannot reach its registry: ${problem}`);
    project.provide('packed', { problem });
    return;
  }
  console.log(`packed install: pnpm pack ${r.timings.pack} ms, pnpm install ${r.timings.install} ms, in ${scratch}`);
  // (The scratch project is in the run's own TMPDIR, which ../../vitest.tmpdir.ts removes at the end.)
  project.provide('packed', { scratch, versions: r.versions, tarballs: r.tarballs, timings: r.timings });
}

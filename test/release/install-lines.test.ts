// Every install and npx line of the docs (scripts/install-lines.mjs), run against the packed install
// (packed-install.ts: the documented `pnpm install:packed`, into the scratch project). npm runs
// offline here, so a line that would need the registry fails as it would before the first release.
// An install line's packages must be in the scratch project (its pre-release form installed them);
// each npx line's package or bin is found by npx and run with `--version` for its arguments (the
// lines start servers and call APIs; their arguments are each tool's own tests).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { allInstallLines } from '../../scripts/install-lines.mjs';
import { BINS, describeInstalled, scratch, versions } from './installed.ts';

const lines = allInstallLines();
const ownerOf = (name: string) => Object.keys(BINS).find((p) => p === name || BINS[p] === name) ?? name;

/**
 * One `npx -p <pkg>… -c '<bin> --version; …'` in the scratch project, offline: npx finds each
 * package in the project as it does for `npx <pkg>` (a package not there would need the registry);
 * one npx for all of them, since npm takes seconds to read the installed tree.
 */
function npxVersions(packages: string[]) {
  const script = packages.map((p) => `echo "${p}=$(${BINS[p]} --version)"`).join('; ');
  const child = spawn('npx', ['--yes', ...packages.flatMap((p) => ['-p', p]), '-c', script], {
    cwd: scratch,
    env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  return new Promise<{ code: number; out: string }>((done) =>
    child.on('close', (code) => done({ code: code ?? -1, out })),
  );
}

describeInstalled('the docs install and npx lines, against the packed install', () => {
  it('every package an install line names is installed by the pre-release form, or declared by one that is', () => {
    const missing: string[] = [];
    for (const l of lines.filter((x) => x.kind === 'install')) {
      const ours = l.packages.filter((p) => p.startsWith('@hosting-api/'));
      const declared = ours
        .filter((p) => existsSync(join(scratch, 'node_modules', p, 'package.json')))
        .flatMap((p) => {
          const pkg = JSON.parse(readFileSync(join(scratch, 'node_modules', p, 'package.json'), 'utf8'));
          return Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies });
        });
      for (const p of l.packages)
        if (!(p.startsWith('@hosting-api/') ? existsSync(join(scratch, 'node_modules', p)) : declared.includes(p)))
          missing.push(`${l.file}:${l.line}: ${p}`);
      // `npm install -g`: the pre-release form puts the bins in node_modules/.bin (the README adds it to PATH).
      if (l.flags.includes('-g'))
        for (const p of ours)
          if (BINS[p] && !existsSync(join(scratch, 'node_modules/.bin', BINS[p]!)))
            missing.push(`${l.file}:${l.line}: bin of ${p}`);
    }
    expect(missing).toEqual([]);
  });

  it('every npx line runs its package or bin from the packed install, without the registry', async () => {
    const npx = lines.filter((l) => l.kind === 'npx');
    const packages = [...new Set(npx.map((l) => ownerOf(l.packages[0]!)))].sort();
    expect(packages.length).toBeGreaterThan(3);
    const r = await npxVersions(packages);
    expect(r.code, r.out).toBe(0);
    const failed = npx
      .filter((l) => !r.out.includes(`${ownerOf(l.packages[0]!)}=${versions[ownerOf(l.packages[0]!)]}\n`))
      .map((l) => `${l.file}:${l.line}: ${l.text}`);
    expect(failed, r.out).toEqual([]);
  });
});

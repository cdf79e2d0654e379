// True versions: on every supported Node line (scripts/node-lines.mjs), npm resolves an install of
// every published tarball without one EBADENGINE warning, and the `engines` each package declares is
// true of what it installs: every third-party package in the resolved tree declares a range that
// holds the whole of ours. npm reads the registry's current metadata for this (`--package-lock-only`:
// no package is downloaded or unpacked), so turbo keeps its result for a day at most (turbo.json).
// The machine's own line reads it from the registry; the other lines then resolve from npm's cache,
// which that read has just brought up to date (`--prefer-offline`: it asks the registry only for
// what the cache lacks, such as a version one line picks and another does not). Each line still
// resolves on its own Node, as npm picks versions whose engines fit the Node it runs on.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { ENGINES_NODE } from '../../scripts/node-lines.mjs';
import { describeInstalled, nodeLines, nodeOf, ownLine, scratch, tarballs } from './installed.ts';

const semver = createRequire(import.meta.url)('semver') as {
  subset(sub: string, dom: string): boolean;
  validRange(range: string): string | null;
};

/** npm's own command-line script, run on each line's `node` (npm 11 runs on Node 20.17+, 22.9+, 24). */
function npmCli(): string {
  const bin = join(dirname(process.execPath), 'npm');
  return join(dirname(realpathSync(bin)), 'npm-cli.js');
}

type Resolved = {
  status: number;
  out: string;
  lock?: { packages: Record<string, { version?: string; engines?: unknown }> };
};

/** `npm install --package-lock-only` of every tarball, on `node`, in a project of its own. */
function resolveWithNpm(node: string, dir: string, extra: string[] = []): Promise<Resolved> {
  mkdirSync(dir, { recursive: true });
  // The tarballs are the dependencies, and override every @hosting-api/* dependency among them, as
  // the pnpm install of packed-install.ts does: nothing of ours comes from the registry.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'engines-check', private: true, dependencies: tarballs, overrides: tarballs }),
  );
  const args = [npmCli(), 'install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', ...extra];
  const child = spawn(node, args, {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'warn' },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  return new Promise((done) =>
    child.on('close', (code) => {
      let lock: Resolved['lock'];
      try {
        lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      } catch {}
      done({ status: code ?? -1, out, lock });
    }),
  );
}

describeInstalled('engines: npm installs every tarball on every supported Node line', () => {
  let work = '';
  // The machine's line first, from the registry; the others then at once, from the cache it filled
  // (three online resolutions at once took 39 s of CPU and 35 s; this way 29 s of CPU).
  const runs = new Map<number, Promise<Resolved>>();
  const resolved = (major: number) => {
    if (!work) work = mkdtempSync(join(dirname(scratch), 'engines-'));
    if (!runs.has(major)) {
      const first = nodeLines.includes(ownLine) ? ownLine : nodeLines[0]!;
      const online = resolveWithNpm(nodeOf(first), join(work, `node${first}`));
      runs.set(first, online);
      for (const m of nodeLines.filter((l) => l !== first))
        runs.set(
          m,
          online.then(() => resolveWithNpm(nodeOf(m), join(work, `node${m}`), ['--prefer-offline'])),
        );
    }
    return runs.get(major)!;
  };

  it('every published package declares the same engines, the one scripts/node-lines.mjs states', () => {
    expect(Object.keys(tarballs).length).toBeGreaterThan(0);
    for (const name of Object.keys(tarballs)) {
      const pkg = JSON.parse(readFileSync(join(scratch, 'node_modules', name, 'package.json'), 'utf8'));
      expect(pkg.engines, name).toEqual({ node: ENGINES_NODE });
    }
  });

  it.each(nodeLines)(
    'Node %i: npm resolves the install with no EBADENGINE warning',
    async (major) => {
      const r = await resolved(major);
      expect(r.status, r.out).toBe(0);
      expect(r.out.split('\n').filter((l) => /EBADENGINE|Unsupported engine/.test(l))).toEqual([]);
      expect(Object.keys(r.lock?.packages ?? {})).toContain('node_modules/@hosting-api/mock');
    },
    240_000,
  );

  it.each(nodeLines)(
    `Node %i: every installed package's engines hold all of ${ENGINES_NODE}`,
    async (major) => {
      const r = await resolved(major);
      const narrower: string[] = [];
      for (const [path, meta] of Object.entries(r.lock?.packages ?? {})) {
        const range = (meta.engines as { node?: string } | undefined)?.node;
        if (typeof range !== 'string' || !semver.validRange(range)) continue;
        if (!semver.subset(ENGINES_NODE, range)) narrower.push(`${path}@${meta.version}: node ${range}`);
      }
      expect(narrower).toEqual([]);
    },
    240_000,
  );
});

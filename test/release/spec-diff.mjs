#!/usr/bin/env node
// Breaking-change gate: compares the bundled spec with the one of the last release using
// `redocly diff`. A change rated major fails unless pending changesets bump both
// @hosting-api/openapi and @hosting-api/client by a major version (or their package.json
// versions already carry the major bump, after `changeset version`).
//
// The last release's spec is, in order: the published @hosting-api/openapi's dist/openapi.json
// (npm registry), else the spec bundled from the newest git tag `@hosting-api/openapi@x.y.z`
// (changeset publish creates these tags), else there is none: nothing was released, nothing
// can break, and the gate says so and passes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPEC_PKG = '@hosting-api/openapi';
const CLIENT_PKG = '@hosting-api/client';
const GATED = [SPEC_PKG, CLIENT_PKG];
const here = dirname(fileURLToPath(import.meta.url));
const redoclyCli = createRequire(join(here, '../package.json')).resolve('@redocly/cli/bin/cli.js');

const HELP = `Usage: pnpm spec:diff [options]   (node test/release/spec-diff.mjs)

Fails when the bundled spec has a breaking change (redocly diff rates it "major") against the
last release, unless a changeset bumps ${SPEC_PKG} and ${CLIENT_PKG} by a major version.

Options:
  --revision <file>    spec to check            (default: <repo>/spec/dist/openapi.json)
  --base <file>        last release's spec      (default: found on npm, else from the newest
                                                 git tag ${SPEC_PKG}@x.y.z)
  --repo <dir>         repository root          (default: the one holding this script)
  --changesets <dir>   pending changesets       (default: <repo>/.changeset)
  --no-npm             do not ask the npm registry for the last release
  -h, --help           this text

Exit status: 0 no breaking change, or one covered by a major changeset; 1 an uncovered
breaking change; 2 the check could not run (message says why).`;

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { npm: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new UsageError(`${a} needs a value`);
      return resolve(v);
    };
    if (a === '-h' || a === '--help') opts.help = true;
    else if (a === '--revision') opts.revision = value();
    else if (a === '--base') opts.base = value();
    else if (a === '--repo') opts.repo = value();
    else if (a === '--changesets') opts.changesets = value();
    else if (a === '--no-npm') opts.npm = false;
    else throw new UsageError(`unknown option ${a} (see --help)`);
  }
  return opts;
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return {
    status: r.status ?? 1,
    stdout: r.stdout ?? '',
    stderr: `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
  };
}

const semver = (v) => v.split(/[.+-]/).slice(0, 3).map(Number);
const compareVersions = (a, b) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The last released version of a package: npm first, then the newest `<name>@x.y.z` tag. */
export function lastRelease(name, { repo, npm }) {
  if (npm) {
    const r = run('npm', ['view', name, 'version', '--json'], { cwd: repo });
    const version = r.status === 0 && r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
    if (typeof version === 'string') return { version, source: 'npm' };
  }
  const tags = run('git', ['tag', '--list', `${name}@*`], { cwd: repo });
  const versions = tags.stdout
    .split('\n')
    .map((t) => t.trim().slice(name.length + 1))
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(compareVersions);
  const version = versions.at(-1);
  return version ? { version, source: 'tag', tag: `${name}@${version}` } : undefined;
}

/** Writes the last release's bundled spec into `work` and returns its path. */
function fetchBaseSpec(release, { repo, work }) {
  if (release.source === 'npm') {
    const r = run('npm', ['pack', `${SPEC_PKG}@${release.version}`, '--pack-destination', work, '--json'], {
      cwd: work,
    });
    if (r.status !== 0)
      throw new Error(`npm pack ${SPEC_PKG}@${release.version} failed: ${r.stderr.trim().split('\n').at(-1)}`);
    const [{ filename }] = JSON.parse(r.stdout);
    const x = run('tar', ['-xzf', join(work, filename), '-C', work, 'package/dist/openapi.json']);
    if (x.status !== 0) throw new Error(`${filename} has no dist/openapi.json: ${x.stderr.trim()}`);
    return join(work, 'package/dist/openapi.json');
  }
  // dist/ is not committed: bundle the spec sources as they were at the tag.
  const src = join(work, 'src');
  const archive = run(
    'sh',
    ['-c', `mkdir -p "${src}" && git archive "${release.tag}" spec redocly.yaml | tar -x -C "${src}"`],
    { cwd: repo },
  );
  if (archive.status !== 0) throw new Error(`cannot read ${release.tag}: ${archive.stderr.trim()}`);
  const out = join(work, 'base.json');
  const bundle = run(
    process.execPath,
    [redoclyCli, 'bundle', join(src, 'spec/openapi.yaml'), '--config', join(src, 'redocly.yaml'), '-o', out],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    },
  );
  if (bundle.status !== 0 || !existsSync(out))
    throw new Error(
      `cannot bundle the spec of ${release.tag}: ${bundle.stderr.trim().split('\n').slice(-3).join(' / ')}`,
    );
  return out;
}

/** Runs `redocly diff` and returns its JSON report. */
export function diffSpecs(base, revision, work) {
  const out = join(work, 'diff.json');
  // Our own config: the repository's redocly.yaml does not extend diff-recommended, and without
  // it redocly diff rates every change as patch.
  const config = join(here, 'redocly-diff.yaml');
  const r = run(
    process.execPath,
    [redoclyCli, 'diff', base, revision, '--config', config, '--format', 'json', '--fail-on', 'none', '-o', out],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    },
  );
  if (r.status !== 0 || !existsSync(out)) {
    throw new Error(`redocly diff failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** Bumps per package named by the pending changesets (`.changeset/*.md` front matter). */
export function pendingBumps(dir) {
  const bumps = new Map();
  if (!existsSync(dir)) return bumps;
  const rank = { patch: 1, minor: 2, major: 3 };
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '';
    for (const line of front.split(/\r?\n/)) {
      const m = /^\s*["']?([^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (m && rank[m[2]] > (rank[bumps.get(m[1])?.bump] ?? 0)) bumps.set(m[1], { bump: m[2], file });
    }
  }
  return bumps;
}

function packageVersion(repo, name) {
  const dirs = { [SPEC_PKG]: 'spec', [CLIENT_PKG]: 'packages/client' };
  const file = join(repo, dirs[name], 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

/** Why each gated package is (or is not) cleared for a breaking change. */
function majorCoverage({ repo, changesets, npm }) {
  const bumps = pendingBumps(changesets);
  return GATED.map((name) => {
    const pending = bumps.get(name);
    if (pending?.bump === 'major') return { name, ok: true, why: `changeset ${pending.file} bumps it major` };
    const released = lastRelease(name, { repo, npm });
    const current = packageVersion(repo, name);
    if (released && current && semver(current)[0] > semver(released.version)[0]) {
      return { name, ok: true, why: `version ${current} is a major above the released ${released.version}` };
    }
    return {
      name,
      ok: false,
      why: pending ? `its changeset ${pending.file} is only ${pending.bump}` : 'no changeset bumps it major',
    };
  });
}

export function main(argv) {
  const opts = parseArgs(argv);
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  const repo = opts.repo ?? resolve(here, '../..');
  const revision = opts.revision ?? join(repo, 'spec/dist/openapi.json');
  const changesets = opts.changesets ?? join(repo, '.changeset');
  if (!existsSync(revision)) {
    throw new UsageError(
      `${relative(process.cwd(), revision)} not found. Bundle the spec first: pnpm --filter ${SPEC_PKG} bundle`,
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'spec-diff-'));
  try {
    let base = opts.base;
    let baseLabel = base && relative(process.cwd(), base);
    if (!base) {
      const release = lastRelease(SPEC_PKG, { repo, npm: opts.npm });
      if (!release) {
        console.log(
          `spec:diff: no release of ${SPEC_PKG} yet (not on npm, no git tag ${SPEC_PKG}@x.y.z): nothing to compare against, passing.`,
        );
        return 0;
      }
      base = fetchBaseSpec(release, { repo, work });
      baseLabel = `${SPEC_PKG}@${release.version} (${release.source === 'npm' ? 'npm' : `git tag ${release.tag}`})`;
    } else if (!existsSync(base)) {
      throw new UsageError(`--base ${baseLabel} not found`);
    }

    const report = diffSpecs(base, revision, work);
    const { major = 0, minor = 0, patch = 0 } = report.summary ?? {};
    console.log(
      `spec:diff: ${baseLabel} → ${relative(process.cwd(), revision)}: ${major} major, ${minor} minor, ${patch} patch change(s).`,
    );
    if (major === 0) return 0;

    console.log('Breaking changes:');
    for (const change of report.changes ?? []) {
      if (change.impact !== 'major') continue;
      for (const v of change.verdicts ?? []) {
        if (v.impact === 'major') console.log(`  - ${decodeURIComponent(change.path)}: ${v.message} (${v.ruleId})`);
      }
    }
    const coverage = majorCoverage({ repo, changesets, npm: opts.npm });
    for (const c of coverage) console.log(`  ${c.ok ? 'ok' : 'missing'}: ${c.name}: ${c.why}`);
    if (coverage.every((c) => c.ok)) {
      console.log('spec:diff: breaking changes are covered by a major release.');
      return 0;
    }
    console.error(
      `spec:diff: breaking change without a major version. Either keep the change compatible, or add a changeset ` +
        `(pnpm changeset) that bumps ${GATED.join(' and ')} by "major" and says what breaks.`,
    );
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(`spec:diff: ${err.message}`);
    process.exitCode = 2;
  }
}

// The breaking-change gate (release/spec-diff.mjs), run as CI runs it: a child process, judged
// by its exit status and what it prints. The cases run at once (each is a gate process that starts
// `redocly diff`, about 2 s of CPU, one core): the git-tag cases one after another, beside the rest.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const gate = join(import.meta.dirname, 'spec-diff.mjs');
const bundled = join(root, 'spec/dist/openapi.json');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edits of arbitrary spec JSON
type Json = Record<string, any>;

function runGate(args: string[], cwd = root) {
  const child = spawn(process.execPath, [gate, ...args], { cwd, env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  return new Promise<{ status: number | null; out: string }>((done) =>
    child.on('close', (status) => done({ status, out })),
  );
}

/** Removes `author` from the Note response schema (a field clients read). */
function removeResponseField(spec: Json): Json {
  const note = spec.components.schemas.Note;
  expect(note.properties.author, 'fixture: Note has no author property any more').toBeDefined();
  delete note.properties.author;
  note.required = note.required.filter((k: string) => k !== 'author');
  return spec;
}

/** Adds a required `priority` to the note request body (old clients do not send it). */
function addRequiredRequestField(spec: Json): Json {
  const schema = spec.components.requestBodies.NoteInput.content['application/json'].schema;
  schema.properties.priority = { type: 'integer' };
  schema.required.push('priority');
  return spec;
}

function changeset(dir: string, name: string, bumps: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  const front = Object.entries(bumps)
    .map(([pkg, bump]) => `"${pkg}": ${bump}`)
    .join('\n');
  writeFileSync(join(dir, name), `---\n${front}\n---\n\nNotes lose \`author\`; creating a note needs \`priority\`.\n`);
}

describe('spec:diff breaking-change gate', () => {
  let work: string;
  let base: string;
  const variant = (name: string, edit: (s: Json) => Json) => {
    const file = join(work, `${name}.json`);
    writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(bundled, 'utf8')))));
    return file;
  };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'spec-diff-test-'));
    base = join(work, 'base.json');
    cpSync(bundled, base);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // One scratch repository: its cases in order (it.sequential), beside the cases below (describe.concurrent),
  // and first, as the longest chain (its gate bundles the tag's spec before each diff).
  describe.concurrent('with the last release taken from a git tag', () => {
    let repo: string;
    const git = (...args: string[]) => {
      const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };

    beforeAll(() => {
      // A scratch repository holding the spec sources, as a clean clone of main would.
      repo = join(work, 'repo');
      for (const p of [
        'spec/openapi.yaml',
        'spec/paths',
        'spec/components',
        'spec/webhooks',
        'spec/lint',
        'redocly.yaml',
      ]) {
        cpSync(join(root, p), join(repo, p), { recursive: true });
      }
      git('init', '-q');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'empty');
    });

    it.sequential('passes with a clear message while nothing has been released', async ({ expect }) => {
      writeFileSync(join(work, 'repo-revision.json'), readFileSync(bundled));
      const r = await runGate([
        '--repo',
        repo,
        '--revision',
        join(work, 'repo-revision.json'),
        '--changesets',
        join(repo, '.changeset'),
        '--no-npm',
      ]);
      expect(r.status).toBe(0);
      expect(r.out).toContain('no release of @hosting-api/openapi yet');
    });

    it.sequential('bundles the spec of the newest release tag and fails a breaking change against it', async ({
      expect,
    }) => {
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'release');
      git('tag', '@hosting-api/openapi@0.9.0');
      git('tag', '@hosting-api/openapi@1.0.0');
      const revision = variant('tagged-removed', removeResponseField);
      const r = await runGate([
        '--repo',
        repo,
        '--revision',
        revision,
        '--changesets',
        join(repo, '.changeset'),
        '--no-npm',
      ]);
      expect(r.out).toContain('@hosting-api/openapi@1.0.0 (git tag @hosting-api/openapi@1.0.0)');
      expect(r.out).toMatch(/property-removed/);
      expect(r.status).toBe(1);

      changeset(join(repo, '.changeset'), 'major.md', {
        '@hosting-api/openapi': 'major',
        '@hosting-api/client': 'major',
      });
      expect(
        (await runGate(['--repo', repo, '--revision', revision, '--changesets', join(repo, '.changeset'), '--no-npm']))
          .status,
      ).toBe(0);
    });
  });

  it.concurrent('passes a compatible change', async ({ expect }) => {
    const revision = variant('compatible', (s) => {
      s.paths['/sites/{site_id}/notes'].get.summary = 'List the notes of a site';
      return s;
    });
    const r = await runGate(['--base', base, '--revision', revision, '--changesets', join(work, 'none'), '--no-npm']);
    expect(r.out).toContain('0 major');
    expect(r.status).toBe(0);
  });

  it.concurrent('fails a removed response field', async ({ expect }) => {
    const revision = variant('removed', removeResponseField);
    const r = await runGate(['--base', base, '--revision', revision, '--changesets', join(work, 'none'), '--no-npm']);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/property-removed/);
    expect(r.out).toContain('pnpm changeset');
  });

  it.concurrent('fails a new required request field', async ({ expect }) => {
    const revision = variant('required', addRequiredRequestField);
    const r = await runGate(['--base', base, '--revision', revision, '--changesets', join(work, 'none'), '--no-npm']);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/required-properties-added/);
    expect(r.out).toContain('Properties became required: `priority`');
  });

  it.concurrent('still fails when the changeset bumps only the spec package by major', async ({ expect }) => {
    const dir = join(work, 'changeset-partial');
    changeset(dir, 'partial.md', { '@hosting-api/openapi': 'major', '@hosting-api/client': 'minor' });
    const revision = variant('both-partial', (s) => addRequiredRequestField(removeResponseField(s)));
    const r = await runGate(['--base', base, '--revision', revision, '--changesets', dir, '--no-npm']);
    expect(r.status).toBe(1);
    expect(r.out).toContain('missing: @hosting-api/client: its changeset partial.md is only minor');
  });

  it.concurrent('passes a breaking change that a changeset bumps major for the spec and the client', async ({
    expect,
  }) => {
    const dir = join(work, 'changeset-major');
    changeset(dir, 'major.md', { '@hosting-api/openapi': 'major', '@hosting-api/client': 'major' });
    const revision = variant('both-major', (s) => addRequiredRequestField(removeResponseField(s)));
    const r = await runGate(['--base', base, '--revision', revision, '--changesets', dir, '--no-npm']);
    expect(r.out).toContain('covered by a major release');
    expect(r.status).toBe(0);
  });

  it.concurrent('says what to fix when the revision is missing', async ({ expect }) => {
    const r = await runGate(['--revision', join(work, 'nope.json'), '--no-npm']);
    expect(r.status).toBe(2);
    expect(r.out).toContain('Bundle the spec first');
  });
});

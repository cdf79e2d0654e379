// The portal's TypeScript samples must compile against the built @hosting-api/client (checked with
// TypeScript 7's native compiler, typescript-native: the same verdicts as tsc 5, several times faster).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');
const samples = join(pkgDir, 'dist/samples.ts');
const tsc = join(
  dirname(createRequire(join(pkgDir, 'package.json')).resolve('typescript-native/package.json')),
  'bin/tsc',
);

function typecheck(project: string) {
  const r = spawnSync(process.execPath, [tsc, '--singleThreaded', '--noEmit', '-p', project], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('generated TypeScript samples', () => {
  const negative = {
    source: join(pkgDir, 'dist/samples-negative.ts'),
    project: join(pkgDir, 'tsconfig.samples-negative.tmp.json'),
  };
  afterAll(() => {
    rmSync(negative.source, { force: true });
    rmSync(negative.project, { force: true });
  });

  it('type-check against the built client (tsc --noEmit)', () => {
    expect(existsSync(samples), 'dist/samples.ts is missing: run pnpm run docs').toBe(true);
    expect(
      existsSync(join(pkgDir, 'node_modules/@hosting-api/client/dist/index.d.ts')),
      'the client is not built: pnpm turbo run build --filter=@hosting-api/client',
    ).toBe(true);
    const text = readFileSync(samples, 'utf8');
    expect(text.match(/^\/\/ \w+: (GET|PUT|POST|DELETE|PATCH) /gm)?.length).toBeGreaterThanOrEqual(100);
    const r = typecheck('tsconfig.samples.json');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it('and the check fails when a sample passes a wrong argument', () => {
    // Same file with one site id turned into a string: the client's types must reject it.
    const broken = readFileSync(samples, 'utf8').replace(
      'client.sites.notes.list(123456',
      "client.sites.notes.list('123456'",
    );
    expect(broken).not.toBe(readFileSync(samples, 'utf8'));
    writeFileSync(negative.source, broken);
    writeFileSync(
      negative.project,
      JSON.stringify({ extends: './tsconfig.samples.json', include: ['dist/samples-negative.ts'] }),
    );
    const r = typecheck(negative.project);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/samples-negative\.ts\(\d+,\d+\): error TS2345/);
  });
});

// The import boundaries of biome.json (style/noRestrictedImports): each rule fails on a violating
// import and lets an allowed one through. Probe files are linted in a temporary copy of the layout
// (biome.json and the folders it names), never inside the packages, so parallel builds see nothing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../..');
const biome = createRequire(join(repo, 'package.json')).resolve('@biomejs/biome/bin/biome');
const work = mkdtempSync(join(tmpdir(), 'boundaries-'));
copyFileSync(join(repo, 'biome.json'), join(work, 'biome.json'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let probes = 0;
/** The import specifiers Biome restricts in a file at `path` that imports each of `specifiers`. */
function restricted(path: string, specifiers: string[]): string[] {
  const file = join(work, path.replace(/\.(\w+)$/, `.${probes++}.$1`));
  mkdirSync(dirname(file), { recursive: true });
  const lines = specifiers.map((s, i) => `import * as m${i} from '${s}';`);
  writeFileSync(file, `${lines.join('\n')}\nexport const all = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`);
  const r = spawnSync(
    process.execPath,
    [biome, 'lint', '--vcs-enabled=false', '--only=style/noRestrictedImports', '--reporter=json', file],
    { cwd: work, encoding: 'utf8' },
  );
  const report = JSON.parse(r.stdout) as { diagnostics: { category: string; location: { start: { line: number } } }[] };
  return report.diagnostics
    .filter((d) => d.category === 'lint/style/noRestrictedImports')
    .map((d) => specifiers[d.location.start.line - 1]!);
}

describe('import boundaries', () => {
  it('the client imports neither the sandbox nor the mock', () => {
    const bad = [
      '@hosting-api/sandbox',
      '@hosting-api/mock',
      '@hosting-api/mock/package.json',
      '../../sandbox/src/index',
    ];
    expect(restricted('packages/client/src/a.ts', [...bad, '@hosting-api/schemas', './runtime/core'])).toEqual(bad);
    // The rules are about what a package ships (src/): its tests may use the others.
    expect(restricted('packages/client/test/a.test.ts', ['@hosting-api/mock'])).toEqual([]);
  });

  it('the schemas and the sandbox do not import the client', () => {
    expect(restricted('packages/schemas/src/a.ts', ['@hosting-api/client', 'zod'])).toEqual(['@hosting-api/client']);
    expect(restricted('packages/sandbox/src/a.ts', ['@hosting-api/client', '@hosting-api/openapi/model'])).toEqual([
      '@hosting-api/client',
    ]);
  });

  it('nothing imports from test/ but test/ itself', () => {
    const bad = ['../../../test/contract/hooks.cjs', '@hosting-api/tests', '../test/helpers'];
    expect(restricted('packages/mock/src/a.ts', [...bad, 'vitest/config', './helpers'])).toEqual(bad);
    expect(restricted('generators/docs/a.mjs', ['../../test/release/pack.mjs'])).toEqual([
      '../../test/release/pack.mjs',
    ]);
    expect(restricted('test/contract/a.mjs', ['../release/helpers.mjs', '@hosting-api/sandbox'])).toEqual([]);
  });
});

/** The files among `files` (path → source) that Biome reports as part of an import cycle. */
function inCycles(files: Record<string, string>): string[] {
  const dir = join(work, `cycle-${probes++}`);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const r = spawnSync(
    process.execPath,
    [biome, 'lint', '--vcs-enabled=false', '--only=suspicious/noImportCycles', '--reporter=json', dir],
    { cwd: work, encoding: 'utf8' },
  );
  const report = JSON.parse(r.stdout) as { diagnostics: { category: string; location: { path: string } }[] };
  return report.diagnostics
    .filter((d) => d.category === 'lint/suspicious/noImportCycles')
    .map((d) => d.location.path.replace(/^.*cycle-\d+\//, ''))
    .sort();
}

describe('import cycles (suspicious/noImportCycles)', () => {
  it('fail on two files that import each other, even when one import is type-only', () => {
    expect(
      inCycles({
        'src/transport.ts':
          "import { send } from './send';\nexport interface Req { url: string }\nexport const go = send;\n",
        'src/send.ts': "import type { Req } from './transport';\nexport const send = (r: Req) => r.url;\n",
      }),
    ).toEqual(['src/send.ts', 'src/transport.ts']);
  });

  it('let a shared piece in its own module through', () => {
    expect(
      inCycles({
        'src/request.ts': 'export interface Req { url: string }\n',
        'src/transport.ts': "import { send } from './send';\nexport const go = send;\n",
        'src/send.ts': "import type { Req } from './request';\nexport const send = (r: Req) => r.url;\n",
      }),
    ).toEqual([]);
  });
});

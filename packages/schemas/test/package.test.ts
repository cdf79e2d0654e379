// The built package (dist/, made by `build` before `test`): both module formats and the
// package.json fields that point at them.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { responseExamples } from './spec';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const require = createRequire(import.meta.url);

describe('package', () => {
  it('declares ESM and CommonJS entry points with types, and no side effects', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(pkg.types).toBe('./dist/index.d.ts');
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'])
      expect(existsSync(new URL(`dist/${file}`, root)), file).toBe(true);
  });

  it('depends on zod only at run time', () => {
    expect(Object.keys(pkg.dependencies)).toEqual(['zod']);
    const cjs = readFileSync(new URL('dist/index.cjs', root), 'utf8');
    expect(new Set([...cjs.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]))).toEqual(new Set(['zod']));
  });

  it('has the same exports in both formats, and they validate', async () => {
    const esm = await import(new URL('dist/index.js', root).href);
    const cjs = require(new URL('dist/index.cjs', root).pathname);
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    const e = responseExamples.find((x) => x.operation.id === 'getSite' && x.status === '200')!;
    for (const mod of [esm, cjs]) {
      expect(mod.operations.getSite.response.safeParse(e.value).success).toBe(true);
      expect(mod.getSiteResponse.safeParse({ ...e.value, data: null }).success).toBe(false);
    }
  });
});

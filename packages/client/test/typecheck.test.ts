import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe('public API', () => {
  it('the sample program calls at least one operation of every tag', () => {
    const spec = JSON.parse(readFileSync(require.resolve('@hosting-api/openapi/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { tags?: string[]; 'x-client-method'?: string }>>;
    };
    const tagOf = new Map<string, string>();
    for (const item of Object.values(spec.paths)) {
      for (const op of Object.values(item)) if (op && typeof op === 'object' && op['x-client-method']) tagOf.set(op['x-client-method'], op.tags?.[0] ?? '');
    }
    const sample = readFileSync(here('./fixtures/sample-program.ts'), 'utf8');
    const called = [...sample.matchAll(/client\.([\w.]+)\(/g)].map((m) => m[1]!);
    const covered = new Set(called.map((m) => tagOf.get(m)).filter(Boolean));
    const tags = new Set(tagOf.values());
    expect([...tags].filter((t) => !covered.has(t))).toEqual([]);
  });

  it('the sample program type-checks against the built declarations (tsc --noEmit)', () => {
    const tsc = require.resolve('typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--noEmit', '-p', here('./fixtures/tsconfig.json')], { encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);
});

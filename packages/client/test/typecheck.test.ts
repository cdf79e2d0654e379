import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
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
      for (const op of Object.values(item))
        if (op && typeof op === 'object' && op['x-client-method']) tagOf.set(op['x-client-method'], op.tags?.[0] ?? '');
    }
    const sample = readFileSync(here('./fixtures/sample-program.ts'), 'utf8');
    const called = [...sample.matchAll(/client\.([\w.]+)\(/g)].map((m) => m[1]!);
    const covered = new Set(called.map((m) => tagOf.get(m)).filter(Boolean));
    const tags = new Set(tagOf.values());
    expect([...tags].filter((t) => !covered.has(t))).toEqual([]);
  });

  it('the sample program type-checks against the built declarations (tsc --noEmit)', () => {
    // TypeScript 7's native compiler (typescript-native): the same verdicts as tsc 5, several times faster.
    const tsc = join(dirname(require.resolve('typescript-native/package.json')), 'bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--singleThreaded', '--noEmit', '-p', here('./fixtures/tsconfig.json')], {
        encoding: 'utf8',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);

  it('hover help on a method call in an editor shows its summary, description, method and path, and the portal link', () => {
    const file = here('./fixtures/sample-program.ts');
    const text = readFileSync(file, 'utf8');
    const options = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      paths: { '@hosting-api/client': [here('../dist/index.d.ts')] },
    };
    const service = ts.createLanguageService({
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) => {
        const source = ts.sys.readFile(f);
        return source === undefined ? undefined : ts.ScriptSnapshot.fromString(source);
      },
      getCurrentDirectory: () => here('.'),
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
    });
    const at = text.indexOf('client.sites.notes.list(siteId') + 'client.sites.notes.li'.length;
    const info = service.getQuickInfoAtPosition(file, at);
    const doc = ts.displayPartsToString(info?.documentation);
    const tags = (info?.tags ?? []).map((t) => `@${t.name} ${ts.displayPartsToString(t.text)}`);
    expect(doc).toBe(
      "List a site's notes\n\nReturns the site's notes, paginated.\n\n`GET /sites/{site_id}/notes` (paginated)",
    );
    expect(tags).toEqual([
      expect.stringMatching(
        /^@see \{@link https:\/\/\S+\/#\/notes\/listsitenotes listSiteNotes in the API reference\}$/,
      ),
    ]);
  }, 120_000);
});

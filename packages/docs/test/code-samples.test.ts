// The code-sample generator (generators/docs/code-samples.mjs) on the real bundled spec.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs generator without types
import { addCodeSamples, tsLiteral } from '../../../generators/docs/code-samples.mjs';

type Sample = { lang: string; label: string; source: string };
type Op = { operationId: string; 'x-client-method': string; security?: unknown[]; 'x-codeSamples'?: Sample[] };
type Spec = { paths: Record<string, Record<string, Op>> };

const specPath = join(import.meta.dirname, '../../../spec/dist/openapi.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as Spec;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = (s: Spec) =>
  Object.entries(s.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })),
  );

const result = (await addCodeSamples(spec)) as { spec: Spec; samplesTs: string; count: number };

describe('code-samples generator', () => {
  it('gives every operation a TypeScript and a curl sample, and leaves its input alone', () => {
    const ops = operations(result.spec);
    expect(result.count).toBe(ops.length);
    expect(ops.length).toBe(operations(spec).length);
    for (const { op } of ops) expect(op['x-codeSamples']?.map((s) => s.label)).toEqual(['TypeScript', 'curl']);
    for (const { op } of operations(spec)) expect(op['x-codeSamples']).toBeUndefined();
  });

  it("calls the operation's x-client-method with path parameters first", () => {
    const notes = result.spec.paths['/sites/{site_id}/notes/{note_id}']!;
    const ts = notes.put!['x-codeSamples']![0]!.source;
    expect(ts).toContain("import { createClient } from '@hosting-api/client';");
    expect(ts).toMatch(/await client\.sites\.notes\.update\(123456, \d+, \{\n {2}subject: '/);
    for (const { op } of operations(result.spec)) {
      expect(op['x-codeSamples']![0]!.source).toContain(`await client.${op['x-client-method']}(`);
    }
  });

  it('writes curl with the example path and query values, and a bearer token where the operation is secured', () => {
    const list = result.spec.paths['/sites/{site_id}/notes']!.get!['x-codeSamples']![1]!.source;
    expect(list).toMatch(
      /^curl -X GET 'https:\/\/api\.hosting\.invalid\/v1\/sites\/123456\/notes\?page=\d+&per_page=\d+'/,
    );
    expect(list).toContain('-H "Authorization: Bearer $HOSTING_API_TOKEN"');
    const token = result.spec.paths['/auth/token']!.post!['x-codeSamples']![1]!.source;
    expect(token).toMatch(/^curl -X POST 'https:\/\/auth\.hosting\.invalid\/auth\/token'/);
    expect(token).toContain("--data-urlencode 'grant_type=client_credentials'");
    expect(token).not.toContain('Authorization');
  });

  it('puts every TypeScript sample into the type-check file, each in its own block', () => {
    const blocks = result.samplesTs.match(/^\/\/ \w+: (GET|PUT|POST|DELETE|PATCH) \S+\n\{\n/gm) ?? [];
    expect(blocks.length).toBe(result.count);
    expect(result.samplesTs.match(/^import /gm)).toHaveLength(1);
  });

  it('refuses an operation without x-client-method, naming it', async () => {
    const broken = structuredClone(spec);
    delete (broken.paths['/account']!.get as Partial<Op>)['x-client-method'];
    await expect(addCodeSamples(broken)).rejects.toThrow('GET /account has no x-client-method');
  });

  it('writes TypeScript literals with quotes escaped and bare keys only where legal', () => {
    expect(tsLiteral({ a: "it's", 'b-c': [1, null, true] })).toBe("{\n  a: 'it\\'s',\n  'b-c': [1, null, true],\n}");
  });

  it('keeps the portal spec valid OpenAPI (x-codeSamples in the shape Redocly expects)', () => {
    const work = mkdtempSync(join(tmpdir(), 'docs-lint-'));
    try {
      const specFile = join(work, 'openapi.json');
      writeFileSync(specFile, JSON.stringify(result.spec));
      writeFileSync(join(work, 'redocly.yaml'), 'telemetry: off\nextends: [recommended]\n');
      const cli = createRequire(join(import.meta.dirname, '../package.json')).resolve('@redocly/cli/bin/cli.js');
      const r = spawnSync(process.execPath, [cli, 'lint', specFile, '--config', join(work, 'redocly.yaml')], {
        encoding: 'utf8',
      });
      expect(`${r.stdout}${r.stderr}`).toContain('Your API description is valid');
      expect(r.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

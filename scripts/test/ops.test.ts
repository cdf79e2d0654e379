// scripts/ops.mjs: the operations index, on the repository and on a small fixture layout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { operationsIndex, render } from '../ops.mjs';

type Row = {
  operationId: string;
  method: string;
  path: string;
  clientMethod?: string;
  specFile?: string;
  sandboxHandler: string[];
};
const repo = join(import.meta.dirname, '../..');
const script = join(repo, 'scripts/ops.mjs');

describe('the operations index of the repository', () => {
  it('finds, for every operation, its client method, its spec file and its one sandbox handler file', async () => {
    const model = await loadModel();
    const rows: Row[] = operationsIndex(model);
    expect(rows.map((r) => r.operationId)).toEqual(model.operations.map((o) => o.operationId));
    for (const r of rows) {
      expect(r.clientMethod, r.operationId).toBe(`client.${model.operation(r.operationId).clientMethod}`);
      expect(readFileSync(join(repo, r.specFile!), 'utf8'), r.operationId).toContain(`operationId: ${r.operationId}`);
      expect(r.sandboxHandler, r.operationId).toHaveLength(1);
      expect(readFileSync(join(repo, r.sandboxHandler[0]!), 'utf8')).toMatch(
        new RegExp(`^\\s*${r.operationId}\\s*[:(]`, 'm'),
      );
    }
  });

  it('prints the rows matching a filter, and says so when none does', () => {
    const r = spawnSync(process.execPath, [script, 'sites.notes.get'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stdout).toMatch(
      /getSiteNote +GET \/sites\/\{site_id\}\/notes\/\{note_id\} +client\.sites\.notes\.get +spec\/paths\/sites_\{site_id\}_notes_\{note_id\}\.yaml +packages\/sandbox\/src\/\S+\.ts/,
    );
    const none = spawnSync(process.execPath, [script, 'no-such-operation'], { encoding: 'utf8' });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no operation matches "no-such-operation"');
  });
});

describe('the operations index on a fixture layout', () => {
  const root = mkdtempSync(join(tmpdir(), 'ops-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it('follows the spec $refs and finds handlers wherever the sandbox keeps them', async () => {
    write('spec/openapi.yaml', 'paths:\n  /things:\n    $ref: paths/things.yaml\n');
    write('packages/sandbox/src/http/server.ts', '// getThing: (ctx) => a comment, not a handler\n');
    write(
      'packages/sandbox/src/domain/areas/things.ts',
      "export default {\n  'getThing': (ctx) => ctx,\n  listThings(ctx) { return ctx; },\n};\n",
    );
    write('packages/sandbox/src/generated/openapi.ts', '  getThing: { parameters: {} };\n');
    const doc = {
      openapi: '3.1.0',
      info: { title: 'fixture', version: '1' },
      paths: {
        '/things': {
          get: {
            operationId: 'getThing',
            'x-client-method': 'things.get',
            responses: { '200': { description: 'ok' } },
          },
          post: { operationId: 'createThing', responses: { '200': { description: 'ok' } } },
        },
      },
    };
    const rows: Row[] = operationsIndex(await loadModel(doc), root);
    expect(rows).toEqual([
      {
        operationId: 'getThing',
        method: 'GET',
        path: '/things',
        clientMethod: 'client.things.get',
        specFile: 'spec/paths/things.yaml',
        sandboxHandler: ['packages/sandbox/src/domain/areas/things.ts'],
      },
      {
        operationId: 'createThing',
        method: 'POST',
        path: '/things',
        clientMethod: undefined,
        specFile: 'spec/paths/things.yaml',
        sandboxHandler: [],
      },
    ]);
    expect(render(rows).split('\n')[2]).toMatch(/^createThing +POST \/things +- +spec\/paths\/things\.yaml +-$/);
    expect(existsSync(join(root, 'spec/paths/things.yaml'))).toBe(false); // names the file; never reads it
  });
});

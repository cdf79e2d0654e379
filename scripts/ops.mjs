#!/usr/bin/env node
// The operations index, generated each time from the sources, never kept by hand: for every
// operation of the spec its method and path, client method (`x-client-method`), spec file (the
// `$ref` of its path in spec/openapi.yaml) and sandbox handler file (found by scanning
// packages/sandbox/src for the operationId as a key, so it follows the sandbox's layout).
//
//   pnpm ops [FILTER] [--json]   FILTER: a case-insensitive substring of any column
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';
import { parse } from 'yaml';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'generated') yield* sourceFiles(path);
    else if (entry.isFile() && /\.[cm]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** One row per operation of the model; files are relative to `root`. */
export function operationsIndex(model, root = ROOT) {
  const specRoot = join(root, 'spec');
  const pathRefs = parse(readFileSync(join(specRoot, 'openapi.yaml'), 'utf8')).paths ?? {};
  const sources = [...sourceFiles(join(root, 'packages/sandbox/src'))].map((file) => ({
    file: relative(root, file),
    text: readFileSync(file, 'utf8'),
  }));
  return model.operations.map((o) => {
    const ref = pathRefs[o.path]?.$ref;
    // A handler is the operationId as an object key or method at the start of a line.
    const key = new RegExp(`^\\s*(['"]?)${o.operationId}\\1\\s*[:(]`, 'm');
    return {
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: o.path,
      clientMethod: o.clientMethod ? `client.${o.clientMethod}` : undefined,
      specFile: ref ? relative(root, join(specRoot, ref)) : undefined,
      sandboxHandler: sources.filter((s) => key.test(s.text)).map((s) => s.file),
    };
  });
}

export function render(rows) {
  const cells = rows.map((r) => [
    r.operationId,
    `${r.method} ${r.path}`,
    r.clientMethod ?? '-',
    r.specFile ?? '-',
    r.sandboxHandler.join(', ') || '-',
  ]);
  const header = ['operationId', 'method and path', 'client method', 'spec file', 'sandbox handler'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values, positionals } = parseArgs({ options: { json: { type: 'boolean' } }, allowPositionals: true });
    const filter = positionals.join(' ').toLowerCase();
    const rows = operationsIndex(await loadModel()).filter(
      (r) => !filter || JSON.stringify(Object.values(r)).toLowerCase().includes(filter),
    );
    if (!rows.length) throw new Error(`no operation matches "${filter}"`);
    console.log(values.json ? JSON.stringify(rows, null, 2) : render(rows));
  } catch (error) {
    console.error(`ops: ${error.message}\nUsage: pnpm ops [FILTER] [--json]`);
    process.exitCode = 1;
  }
}

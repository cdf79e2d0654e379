#!/usr/bin/env node
// Generates @hosting-api/schemas' src/generated/ from the bundled spec with orval's zod client.
//
//   1. prepare.mjs rewrites a copy of the bundle into what orval 7 can express (see there);
//   2. orval runs twice: on the operations, and on a synthetic document with one operation per
//      component schema (orval's zod mode emits per-operation schemas only);
//   3. postprocess.mjs turns the markers left by step 1 into zod calls, renames the component
//      exports and writes the operationId lookup (operations.ts).
//
// Run from packages/schemas (its `generate` script): orval and the spec resolve from there.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { componentsDocument, operationsDocument } from './prepare.mjs';
import { finishComponents, finishOperations, writeLookup } from './postprocess.mjs';

const HELP = `Usage: node generators/schemas/generate.mjs [--out DIR]

Generates zod schemas from @hosting-api/openapi's dist/openapi.json into DIR
(default: src/generated of the current package). Run it through the package script:
  pnpm --filter @hosting-api/schemas generate`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const outIndex = args.indexOf('--out');
const known = outIndex >= 0 ? [outIndex, outIndex + 1] : [];
if (outIndex >= 0 && !args[outIndex + 1]) {
  console.error(`--out needs a directory.\n\n${HELP}`);
  process.exit(2);
}
if (args.some((_, i) => !known.includes(i))) {
  console.error(`Unknown arguments: ${args.filter((_, i) => !known.includes(i)).join(' ')}\n\n${HELP}`);
  process.exit(2);
}
const outDir = resolve(outIndex >= 0 ? args[outIndex + 1] : 'src/generated');

// Resolve from the calling package, which declares orval and @hosting-api/openapi.
const require = createRequire(join(process.cwd(), 'package.json'));
let specPath;
try {
  specPath = require.resolve('@hosting-api/openapi/openapi.json');
  readFileSync(specPath);
} catch {
  console.error(
    'Cannot read @hosting-api/openapi/openapi.json. Bundle the spec first:\n' +
      '  pnpm --filter @hosting-api/openapi bundle\n' +
      '(and run this from packages/schemas, which depends on @hosting-api/openapi).',
  );
  process.exit(1);
}
const { generate } = require('orval');
const spec = JSON.parse(readFileSync(specPath, 'utf8'));

const work = mkdtempSync(join(tmpdir(), 'schemas-gen-'));
try {
  const zodOverride = {
    // Path and query values arrive as strings on a server: coerce numbers only (z.coerce.boolean
    // would turn "false" into true).
    coerce: { param: ['number'], query: ['number'] },
    // RFC 3339 allows offsets (`+02:00`) as well as `Z`.
    dateTimeOptions: { offset: true },
  };
  const run = async (name, doc) => {
    const input = join(work, `${name}.json`);
    const target = join(work, `${name}.ts`);
    writeFileSync(input, JSON.stringify(doc));
    // orval logs and swallows generation errors, so the output file is checked below.
    await generate(
      {
        input: { target: input },
        output: {
          target,
          client: 'zod',
          mode: 'single',
          // orval picks zod 3 or 4 syntax from this file's zod version.
          packageJson: join(process.cwd(), 'package.json'),
          override: { header: false, zod: zodOverride },
        },
      },
      process.cwd(),
    );
    try {
      return readFileSync(target, 'utf8');
    } catch {
      throw new Error(`orval wrote no ${name} output (see its messages above)`);
    }
  };

  const operationsTs = finishOperations(await run('endpoints', operationsDocument(spec)));
  const componentsTs = finishComponents(await run('components', componentsDocument(spec)), spec);
  const lookupTs = writeLookup(spec, operationsTs, componentsTs);

  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'endpoints.ts'), operationsTs);
  writeFileSync(join(outDir, 'components.ts'), componentsTs);
  writeFileSync(join(outDir, 'operations.ts'), lookupTs);
  const lines = (s) => s.split('\n').length;
  console.log(
    `schemas: wrote ${outDir} (endpoints.ts ${lines(operationsTs)} lines, components.ts ` +
      `${lines(componentsTs)} lines, operations.ts ${lines(lookupTs)} lines)`,
  );
} catch (error) {
  console.error(`schemas: generation failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

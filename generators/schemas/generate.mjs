#!/usr/bin/env node
// Generates @hosting-api/schemas' src/generated/ from the spec model with orval's zod client
// (orval.config.mjs, fed by prepare.mjs), finished by postprocess.mjs.
//
//   node generators/schemas/generate.mjs [--out DIR]   (default DIR: src/generated)
// Run from packages/schemas (its `generate` script), where orval is installed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';
import { projects } from './orval.config.mjs';
import { applyMarkers, finishComponents, writeLookup } from './postprocess.mjs';

/** Writes endpoints.ts, components.ts and operations.ts of a spec model into outDir. */
export async function generateSchemas(model, outDir, pkgDir = process.cwd()) {
  const work = mkdtempSync(join(tmpdir(), 'schemas-gen-'));
  try {
    const { generate } = createRequire(join(pkgDir, 'package.json'))('orval');
    const raw = {};
    for (const [name, options] of Object.entries(projects(model, work, pkgDir))) {
      await generate(options, pkgDir); // orval logs and swallows its errors: check the file
      if (!existsSync(options.output.target)) throw new Error(`orval wrote no ${name} output (see its messages above)`);
      raw[name] = readFileSync(options.output.target, 'utf8');
    }
    const files = {
      'endpoints.ts': applyMarkers(raw.endpoints),
      'components.ts': finishComponents(raw.components, model, pkgDir),
      'operations.ts': writeLookup(model),
    };
    mkdirSync(outDir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
    return Object.keys(files);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const outDir = resolve(parseArgs({ options: { out: { type: 'string' } } }).values.out ?? 'src/generated');
    const written = await generateSchemas(await loadModel(), outDir);
    console.log(`schemas: wrote ${written.join(', ')} into ${outDir}`);
  } catch (error) {
    const usage = 'Usage: node generators/schemas/generate.mjs [--out DIR]';
    console.error(`schemas: generation failed: ${error.message}\n${usage}`);
    process.exitCode = 1;
  }
}

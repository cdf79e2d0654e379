#!/usr/bin/env node
// Emits a package's type declarations with TypeScript 7's native compiler, after tsup has built
// the JavaScript. tsup's own declaration bundling (rollup + TypeScript 5.9) took 5–10 s of CPU
// per package; this takes under a second. The declarations stay one file per source module:
// relative specifiers get their `.js` extension (Node's ESM resolution needs it), the project's
// `paths` become relative specifiers (a target outside rootDir, such as the spec's types, is copied
// in, so users need no other package), and `--cjs` adds a `.d.cts` twin of every file whose
// specifiers name `.cjs`, for CommonJS consumers.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const HELP = `Usage: node scripts/declarations.mjs [--project FILE] [--cjs]

Run in a package folder after its JavaScript build. Emits the declarations of the TypeScript
project (default tsconfig.build.json, which sets outDir, rootDir and emitDeclarationOnly) and makes
their imports resolvable by Node: './x' becomes './x.js', and a specifier of the project's own
compilerOptions.paths points at its declaration in outDir. --cjs also writes a .d.cts beside
each .d.ts, importing './x.cjs', for the package's "require" types.`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      project: { type: 'string', default: 'tsconfig.build.json' },
      cjs: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  console.error(`declarations: ${error.message}\n\n${HELP}`);
  process.exit(2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const cwd = process.cwd();
let tsc;
try {
  tsc = join(dirname(createRequire(join(cwd, 'package.json')).resolve('typescript-native/package.json')), 'bin/tsc');
} catch {
  console.error('declarations: this package has no typescript-native devDependency (npm:typescript@7).');
  process.exit(2);
}
const project = JSON.parse(readFileSync(join(cwd, values.project), 'utf8'));
const options = project.compilerOptions ?? {};
const outDir = resolve(cwd, options.outDir ?? 'dist');
const rootDir = resolve(cwd, options.rootDir ?? 'src');
// --singleThreaded: CI's two cores are busy with other tasks; tsgo's own threads only add CPU there.
const r = spawnSync(process.execPath, [tsc, '--singleThreaded', '-p', values.project], { cwd, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

// Each `paths` specifier → the declaration file (without extension) it stands for in outDir.
const mapped = new Map();
for (const [specifier, [target]] of Object.entries(options.paths ?? {})) {
  const source = resolve(cwd, target);
  if (relative(rootDir, source).startsWith('..')) {
    const name = basename(source).replace(/\.d\.ts$/, '');
    copyFileSync(source, join(outDir, `${name}.d.ts`));
    mapped.set(specifier, join(outDir, name));
  } else mapped.set(specifier, join(outDir, relative(rootDir, source)).replace(/\.ts$/, ''));
}

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*)(['"])([^'"]+)\2/g;
for (const file of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const path = join(outDir, file);
  const code = readFileSync(path, 'utf8');
  const local = (to) => {
    const spec = relative(dirname(path), to);
    return spec.startsWith('.') ? spec : `./${spec}`;
  };
  const withExtension = (ext) =>
    code.replace(SPECIFIER, (whole, lead, q, spec) => {
      let target =
        mapped.get(spec) ?? (spec.startsWith('.') ? resolve(dirname(path), spec.replace(/\.js$/, '')) : undefined);
      if (target === undefined) return whole; // a package: left as it is
      if (statSync(target, { throwIfNoEntry: false })?.isDirectory()) target = join(target, 'index'); // `.` is ./index
      return `${lead}${q}${local(target)}${ext}${q}`;
    });
  writeFileSync(path, withExtension('.js'));
  if (values.cjs) writeFileSync(path.replace(/\.d\.ts$/, '.d.cts'), withExtension('.cjs'));
}

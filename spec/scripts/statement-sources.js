// Where each behaviour statement of the spec is written: the file and line under spec/ of every
// `x-list`, `x-effects`, `x-state`, `x-relation`, `x-unit`, `x-units` and `links` node (and of each entry inside them),
// and of each field rule (`x-values-from`, `x-special-values`, `x-free-text`, `enum`, `pattern`, lengths, bounds), by
// its JSON pointer in the bundled document. `bundle` writes the map to dist/sources.json beside
// the bundle; the model (index.js) reads it so that a failed check can cite `spec/<file>:<line>`.
// Run: node scripts/statement-sources.js [specDir] [outFile]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';

export const STATEMENT_KEYS = [
  'x-list',
  'x-effects',
  'x-state',
  'x-relation',
  'x-unit',
  'x-units',
  'links',
  'x-values-from',
  'x-special-values',
  'x-free-text',
  // The field rules JSON Schema states itself (model/statements.js RULE_KEYWORDS).
  'enum',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
];
const escapeKey = (key) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/** Every statement node of one YAML file: in-file pointer → line (1-based). */
function statementLines(file) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter });
  const lines = {};
  const line = (node) => (node?.range ? lineCounter.linePos(node.range[0]).line : undefined);
  // The statement, its parts and the entries of those parts (x-list/filters/0), not deeper.
  const mark = (node, pointer, keyNode, depth = 0) => {
    lines[pointer] = line(keyNode) ?? line(node);
    if (depth === 2) return;
    if (isMap(node))
      for (const pair of node.items) mark(pair.value, `${pointer}/${escapeKey(pair.key.value)}`, pair.key, depth + 1);
    else if (isSeq(node))
      node.items.forEach((item, i) => {
        mark(item, `${pointer}/${i}`, undefined, depth + 1);
      });
  };
  const walk = (node, pointer) => {
    if (isMap(node))
      for (const pair of node.items) {
        const key = String(pair.key?.value);
        const at = `${pointer}/${escapeKey(key)}`;
        if (STATEMENT_KEYS.includes(key)) mark(pair.value, at, pair.key);
        else walk(pair.value, at);
      }
    else if (isSeq(node))
      node.items.forEach((item, i) => {
        walk(item, `${pointer}/${i}`);
      });
  };
  walk(doc.contents, '');
  return lines;
}

/** pointer in the bundle → `spec/<file>:<line>`, for the spec sources in `specDir`. */
export function statementSources(specDir) {
  const root = parseDocument(readFileSync(join(specDir, 'openapi.yaml'), 'utf8')).toJS();
  const sources = {};
  const add = (file, prefix) => {
    const name = `spec/${relative(specDir, file).replaceAll('\\', '/')}`;
    for (const [pointer, line] of Object.entries(statementLines(file)))
      sources[`${prefix}${pointer}`] = `${name}:${line}`;
  };
  add(join(specDir, 'openapi.yaml'), '');
  for (const [path, item] of Object.entries(root.paths ?? {}))
    if (typeof item?.$ref === 'string') add(join(specDir, item.$ref), `/paths/${escapeKey(path)}`);
  for (const kind of ['schemas', 'requestBodies']) {
    const dir = join(specDir, 'components', kind);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml')))
      add(join(dir, file), `/components/${kind}/${escapeKey(file.replace(/\.yaml$/, ''))}`);
  }
  return sources;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const specDir = process.argv[2] ?? join(import.meta.dirname, '..');
  const out = process.argv[3] ?? join(specDir, 'dist/sources.json');
  writeFileSync(out, `${JSON.stringify(statementSources(specDir), null, 1)}\n`);
}

// The generators' budget (issue #15): each generator under generators/ is configuration
// (`*.config.mjs`) plus at most 150 lines of script, counted as `wc -l` counts them, comments included.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BUDGET = 150;
const root = join(import.meta.dirname, '../../generators');
const generators = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'node_modules')
  .map((e) => e.name);

/** Lines of script of a generator folder: every .mjs/.js/.ts file but its configuration. */
function scriptLines(dir: string): Record<string, number> {
  const files = readdirSync(dir).filter((f) => /\.(m?js|ts)$/.test(f) && !/\.config\.\w+$/.test(f));
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8').split('\n').length - 1]));
}

describe('generator budget', () => {
  it('finds the generators', () => {
    expect(generators).toEqual(expect.arrayContaining(['client', 'docs', 'schemas']));
  });
  it.each(generators)(`generators/%s is at most ${BUDGET} lines of script`, (name) => {
    const lines = scriptLines(join(root, name));
    const total = Object.values(lines).reduce((a, b) => a + b, 0);
    expect(total, `generators/${name}: ${JSON.stringify(lines)}`).toBeLessThanOrEqual(BUDGET);
  });
});

// The README's "Testing failure paths" examples, run as written: its ts blocks in order (imports
// resolved here), each line `EXPR; // VALUE` checked (EXPR deep-equals VALUE); the --fault and
// --outcome values of its sh block parsed and checked as the CLI does.
import { readFileSync } from 'node:fs';
import * as client from '@hosting-api/client';
import * as mswNode from 'msw/node';
import { expect, it } from 'vitest';
import { checkOutcome, parseOutcomeFlag } from '../src/domain/outcomes.js';
import { checkFault, parseFaultFlag } from '../src/http/faults.js';
import { loadSpec } from '../src/http/spec.js';
import * as sandbox from '../src/index.js';
import * as msw from '../src/msw.js';

const MODULES: Record<string, Record<string, unknown>> = {
  '@hosting-api/client': client,
  '@hosting-api/sandbox': sandbox,
  '@hosting-api/sandbox/msw': msw,
  'msw/node': mswNode,
};

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Testing failure paths'),
  readme.indexOf('\n## ', readme.indexOf('## Testing failure paths') + 1),
);
const blocks = (lang: string) =>
  [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

it('runs the examples of the section, checking every `EXPR; // VALUE` line', async () => {
  const names: Record<string, unknown> = {};
  const code: string[] = [];
  let checks = 0;
  for (const block of blocks('ts')) {
    for (const line of block.split('\n')) {
      const imported = /^import \{ (.+) \} from '(.+)';$/.exec(line);
      if (imported) {
        for (const name of imported[1]!.split(', ')) names[name] = MODULES[imported[2]!]![name];
        continue;
      }
      const check = /^(.+); \/\/ (.+)$/.exec(line);
      let expected: unknown;
      try {
        expected = check && new Function(`return (${check[2]});`)();
      } catch {
        expected = undefined; // a comment, not a value
      }
      if (check && expected !== undefined) {
        code.push(`__check(${JSON.stringify(line)}, ${check[1]}, ${JSON.stringify(expected)});`);
        checks++;
      } else code.push(line);
    }
  }
  expect(Object.keys(names).sort()).toEqual([
    'createClient',
    'createSandboxHandlers',
    'createWebhookReceiver',
    'setupServer',
    'startSandbox',
  ]);
  const AsyncFunction = (async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<{ sandbox: sandbox.Sandbox }>;
  const __check = (line: string, actual: unknown, expected: unknown) => expect(actual, line).toEqual(expected);
  const run = new AsyncFunction(...Object.keys(names), '__check', `${code.join('\n')}\nreturn { sandbox };`);
  const { sandbox: started } = await run(...Object.values(names), __check);
  await started.stop();
  expect(checks).toBe(9);
});

it('its --fault and --outcome values are ones the CLI takes', async () => {
  const { operations } = await loadSpec();
  const known = (id: string) => operations.some((op) => op.operationId === id);
  const sh = blocks('sh').join('\n');
  const faults = [...sh.matchAll(/--fault '([^']+)'/g)].map((m) => m[1]!);
  const outcomes = [...sh.matchAll(/--outcome (\S+)/g)].map((m) => m[1]!);
  expect(faults).toHaveLength(3);
  expect(outcomes).toHaveLength(1);
  for (const f of faults) expect(() => checkFault(parseFaultFlag(f), known), f).not.toThrow();
  const state = sandbox.seedState(Date.now());
  for (const o of outcomes) expect(() => checkOutcome(parseOutcomeFlag(o), state), o).not.toThrow();
});

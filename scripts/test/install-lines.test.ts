// The docs' install and npx lines (scripts/install-lines.mjs): each names a published package or
// bin, and says how to run it before the first release. test/release/install-lines.test.ts runs them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allInstallLines, installLines, PRE_RELEASE } from '../install-lines.mjs';

const repo = join(import.meta.dirname, '../..');
const published = readdirSync(join(repo, 'packages'))
  .map((d) => JSON.parse(readFileSync(join(repo, 'packages', d, 'package.json'), 'utf8')))
  .concat(JSON.parse(readFileSync(join(repo, 'spec/package.json'), 'utf8')))
  .filter((p) => !p.private);
const bins = (p: { bin?: string | Record<string, string> }) => Object.keys(typeof p.bin === 'object' ? p.bin : {});
const lines = allInstallLines();
const where = (l: { file: string; line: number; text: string }) => `${l.file}:${l.line}: ${l.text}`;

describe('the install and npx lines of the docs', () => {
  it('are found: the getting-started step 1, the CLI README, the MCP configs', () => {
    expect(lines.map((l) => `${l.file}: ${l.text}`)).toEqual(
      expect.arrayContaining([
        'packages/docs/guides/01-getting-started.md: npx @hosting-api/sandbox --port 4011',
        'packages/cli/README.md: npm install -g @hosting-api/cli',
      ]),
    );
    expect(lines.filter((l) => l.file === 'packages/mcp/README.md' && l.text.startsWith('[')).length).toBeGreaterThan(
      1,
    );
    expect(lines.length).toBeGreaterThan(25);
  });

  it(`each names the pre-release form (${PRE_RELEASE}) in its block or the paragraph before it`, () => {
    expect(lines.filter((l) => !l.explained).map(where)).toEqual([]);
  });

  it('each names a published package, and each npx line one whose package has one bin (what npx runs)', () => {
    const names = published.map((p) => p.name);
    const wrong = lines.flatMap((l) =>
      l.packages
        .filter((p) => p.startsWith('@hosting-api/') || l.kind === 'npx')
        .filter((p) => {
          const pkg = published.find((q) => q.name === p || bins(q).includes(p));
          return !pkg || (l.kind === 'npx' && bins(pkg).length !== 1) || (p.startsWith('@') && !names.includes(p));
        })
        .map((p) => `${where(l)} (${p})`),
    );
    expect(wrong).toEqual([]);
  });

  it('a block without the pre-release form, and an MCP config, are read as such', () => {
    const md = [
      'Install:',
      '',
      '```sh',
      'npm install -g @hosting-api/cli   # comment',
      'npx -y @hosting-api/sandbox --port 0 &',
      'npx vitest run',
      '```',
      '',
      `Before the first release, ${PRE_RELEASE} ~/tools and then:`,
      '```json',
      '{ "command": "npx", "args": ["-y", "@hosting-api/mcp"] }',
      '```',
    ].join('\n');
    expect(installLines('x.md', md)).toEqual([
      expect.objectContaining({
        line: 4,
        kind: 'install',
        flags: ['-g'],
        packages: ['@hosting-api/cli'],
        explained: false,
      }),
      expect.objectContaining({
        line: 5,
        kind: 'npx',
        flags: ['-y'],
        packages: ['@hosting-api/sandbox'],
        args: ['--port', '0'],
        explained: false,
      }),
      expect.objectContaining({ line: 11, kind: 'npx', packages: ['@hosting-api/mcp'], explained: true }),
    ]);
  });
});

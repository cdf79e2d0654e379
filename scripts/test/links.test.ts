// Every relative link of every Markdown file of the repository works where the file is read (on
// GitHub: a file or folder of the repository, and a heading for a #fragment), and every link that
// uses the repository's public URL names a file that exists. The READMEs inside the packed tarballs
// are checked against each tarball's own files by test/release/packaging.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchors, brokenLinks, links, REPOSITORY_URL } from '../markdown-links.mjs';

const root = join(import.meta.dirname, '../..');
/**
 * The portal's guides are read in the portal, where `sandbox.html` and `../index.html` are its pages:
 * packages/docs/test/guides.test.ts checks every link of the built site.
 */
const READ_ELSEWHERE = /^packages\/docs\/guides\//;

const markdown = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && !READ_ELSEWHERE.test(f));

describe('links of the repository’s Markdown files', () => {
  it('finds the Markdown files', () => {
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'packages/client/README.md']));
  });

  it.each(markdown)('%s: every relative link and every link to the repository works', (file) => {
    expect(brokenLinks(join(root, file), { root, repoRoot: root })).toEqual([]);
  });
});

describe('the link check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'pkg/docs'), { recursive: true });
  writeFileSync(
    join(dir, 'pkg/docs/guide.md'),
    '# The guide\n\n## Rate limits & retries\n\n## Rate limits & retries\n',
  );
  const readme = join(dir, 'pkg/README.md');

  it('reads inline links, images, reference definitions and HTML, not code', () => {
    const text =
      '[a](a.md) ![i](img.png "t") <a href="b.md">b</a>\n[ref]: c.md\n`[x](not-a-link.md)`\n```\n[y](nor-this.md)\n```\n';
    expect(links(text).map((l) => l.target)).toEqual(['a.md', 'img.png', 'b.md', 'c.md']);
  });

  it('knows GitHub’s heading anchors, repeats numbered', () => {
    expect([
      ...anchors('# The guide\n## Rate limits & retries\n## Rate limits & retries\n## What `pnpm test` reruns\n'),
    ]).toEqual(['the-guide', 'rate-limits--retries', 'rate-limits--retries-1', 'what-pnpm-test-reruns']);
  });

  it('passes links that work, fails each kind of broken link', () => {
    writeFileSync(
      readme,
      [
        '[ok](docs/guide.md) [ok anchor](docs/guide.md#rate-limits--retries-1) [folder](docs) [self](#top)',
        '# Top',
        '[web](https://example.com/x.md) [mail](mailto:a@example.com)',
        '[missing](docs/nothing.md)',
        '[outside](../../elsewhere/TOOLCHAIN.md)',
        '[no anchor](docs/guide.md#no-such-heading)',
        `[repo file](${REPOSITORY_URL}/blob/main/README.md) [repo missing](${REPOSITORY_URL}/blob/main/spec/NOPE.md)`,
      ].join('\n'),
    );
    const problems = brokenLinks(readme, { root: join(dir, 'pkg'), repoRoot: root });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^README\.md:4: docs\/nothing\.md: no such file/);
    expect(problems[1]).toMatch(/^README\.md:5: \.\.\/\.\.\/elsewhere\/TOOLCHAIN\.md: points outside/);
    expect(problems[2]).toMatch(/^README\.md:6: docs\/guide\.md#no-such-heading: no heading #no-such-heading/);
    expect(problems[3]).toMatch(/^README\.md:7: .*spec\/NOPE\.md: no spec\/NOPE\.md in the repository/);
  });
});

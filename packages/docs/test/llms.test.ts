// llms.txt and the per-operation Markdown pages of the built portal (pnpm run docs): every
// operation of the spec listed and described from the spec, with its parameters, body, responses
// with examples, and errors.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '../dist');
const spec = JSON.parse(readFileSync(join(import.meta.dirname, '../../../spec/dist/openapi.json'), 'utf8'));
const operations = Object.entries(
  spec.paths as Record<string, Record<string, { operationId?: string; summary?: string }>>,
).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op?.operationId)
    .map(([method, op]) => ({ path, method, id: op.operationId!, summary: op.summary ?? '' })),
);

describe('llms.txt and the operation pages', () => {
  const llms = readFileSync(join(dist, 'llms.txt'), 'utf8');

  it('llms.txt: the title, a summary, the reference, and a link per operation with its method, path and summary', () => {
    expect(llms.split('\n')[0]).toBe(`# ${spec.info.title} ${spec.info.version}`);
    expect(llms).toMatch(/^> .+CMS sites/m);
    expect(llms).toContain('[API reference](index.html)');
    for (const op of operations)
      expect(llms).toContain(
        `- [${op.id}](operations/${op.id}.md): \`${op.method.toUpperCase()} ${op.path}\`, ${op.summary}`,
      );
    expect(llms.match(/^- \[\w+\]\(operations\//gm)).toHaveLength(operations.length);
  });

  it('one Markdown page per operation, and no other', () => {
    const markdown = readdirSync(join(dist, 'operations')).filter((f) => f.endsWith('.md'));
    expect(markdown.sort()).toEqual(operations.map((o) => `${o.id}.md`).sort());
    for (const op of operations) expect(existsSync(join(dist, 'operations', `${op.id}.md`))).toBe(true);
  });

  it('a page holds the method and path, parameters, the body with its example, responses with examples, and the errors', () => {
    const page = readFileSync(join(dist, 'operations/createSiteNote.md'), 'utf8');
    expect(page).toContain('`POST /sites/{site_id}/notes`');
    expect(page).toMatch(/\| `site_id` \| path \| integer \| yes \|/);
    expect(page).toMatch(/\| `subject` \| string \| yes \|/);
    expect(page).toContain(JSON.stringify({ subject: 'Launch checklist' }, null, 2).slice(2, -2));
    expect(page).toMatch(/### 200\n/);
    expect(page).toContain('"message": "Success"');
    expect(page).toMatch(
      /## Errors\n\n\| status \| message \|\n\|---\|---\|\n\| 400 \| There was a problem processing your request\. \|/,
    );
    expect(page).toMatch(/\| 401 \| Unauthorized \|/);
    // The example host is named for what it is: a placeholder for {base_url}.
    expect(page).toContain(
      "Base URL: `{base_url}`, your account's versioned base address. The API documentation does not name its host, so the examples use the placeholder `https://api.hosting.invalid/v1`",
    );
  });
});

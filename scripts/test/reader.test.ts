// The one-reader rule (scripts/reader-check.mjs): the repository's shipped code reads no HTTP
// answer outside @hosting-api/openapi/http, and a file that does fails the check.
import { describe, expect, it } from 'vitest';
import { offences, scan } from '../reader-check.mjs';

describe('one reader of HTTP answers', () => {
  it('a raw read outside the reader fails the check; the reader itself may read', () => {
    const raw = 'const res = await fetch(url);\nconst text = await res.text();\n';
    expect(offences('packages/cli/src/probe.ts', raw)).toEqual([
      'packages/cli/src/probe.ts:2: reads a body with no cap: use @hosting-api/openapi/http (const text = await res.text();)',
    ]);
    expect(offences('spec/http/node.js', raw)).toEqual([]);
  });

  it('so does a decompression, a json() or a for await over a response', () => {
    const lines = [
      "import { gunzipSync } from 'node:zlib';",
      'const data = await response.json();',
      'for await (const chunk of res) size += chunk.length;',
      'for await (const line of process.stdin) lines.push(line);',
      '// res.text() in a comment is no read',
    ];
    expect(offences('packages/mock/src/probe.ts', lines.join('\n')).map((o) => o.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('the repository has no other read', () => {
    expect(scan()).toEqual([]);
  });
});

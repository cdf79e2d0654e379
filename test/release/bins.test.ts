// The installed servers on the Node lines users run (installed.ts): the sandbox's and the mock's bins
// start, and a consumer, as ESM and as CommonJS, gets a token and calls three operations through the
// installed client (with the installed schemas validating).
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeInstalled,
  LONG_TIMEOUT,
  nodeLines,
  nodeOf,
  run,
  SANDBOX_SECRET,
  scratch,
  startBin,
  startSandbox,
  stop,
} from './installed.ts';

// The consumer, once as ESM and once as CommonJS: an explicit token request, then three
// operations through the client with `validate: true` (which loads @hosting-api/schemas itself),
// and the schemas used directly. Prints one JSON line for the test to check.
const CONSUMER_BODY = `
async function main() {
  const [baseUrl, authUrl, clientId, clientSecret] = process.argv.slice(2);
  const res = await fetch(authUrl + '/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  const token = (await res.json()).data.access_token;
  const client = createClient({ baseUrl, authUrl, accessToken: token, validate: true });
  const account = await client.account.get();
  const site = await client.sites.get(123456);
  const input = createSiteNoteBody.parse({ subject: 'Packaging test', body: 'Installed from the packed tarballs.' });
  const note = Note.parse(await client.sites.notes.create(site.id, input));
  console.log(JSON.stringify({
    node: process.version, format: FORMAT, resolved: RESOLVED, tokenStatus: res.status, tokenLength: token.length,
    accountEmail: account.email, siteId: site.id, note: { id: note.id, subject: note.subject },
    extra: EXTRA,
  }));
}
main().catch((err) => { console.error(err); process.exit(1); });
`;

const ESM_CONSUMER = `import { createClient } from '@hosting-api/client';
import { Note, createSiteNoteBody } from '@hosting-api/schemas';
const FORMAT = typeof require === 'undefined' ? 'esm' : 'cjs';
const RESOLVED = [import.meta.resolve('@hosting-api/client'), import.meta.resolve('@hosting-api/schemas')];
const EXTRA = {};
${CONSUMER_BODY}`;

const CJS_CONSUMER = `'use strict';
const { createClient } = require('@hosting-api/client');
const { Note, createSiteNoteBody } = require('@hosting-api/schemas');
const FORMAT = typeof module === 'object' && typeof require === 'function' ? 'cjs' : 'esm';
const RESOLVED = [require.resolve('@hosting-api/client'), require.resolve('@hosting-api/schemas')];
// The servers are ESM; Node >= 20.19 loads them with require(esm).
const EXTRA = {
  startSandbox: typeof require('@hosting-api/sandbox').startSandbox,
  startMock: typeof require('@hosting-api/mock').startMock,
};
${CONSUMER_BODY}`;

describeInstalled('the installed servers, with a consumer of the installed client', () => {
  let sandbox: ChildProcess | undefined;
  let mock: ChildProcess | undefined;

  beforeAll(() => {
    writeFileSync(join(scratch, 'consumer.mjs'), ESM_CONSUMER);
    writeFileSync(join(scratch, 'consumer.cjs'), CJS_CONSUMER);
  });

  afterAll(async () => {
    await Promise.all([stop(sandbox), stop(mock)]);
  });

  it.each(nodeLines)(
    'Node %i: the sandbox bin starts; ESM and CommonJS consumers get a token and call three operations',
    async (major) => {
      const node = nodeOf(major);
      const started = startSandbox(node, 0);
      sandbox = started.child;
      try {
        const { baseUrl, authUrl } = await started.ready;
        expect(baseUrl).toMatch(/\/v1$/);
        for (const [file, format] of [
          ['consumer.mjs', 'esm'],
          ['consumer.cjs', 'cjs'],
        ] as const) {
          const r = run(node, [file, baseUrl, authUrl, 'sandbox-client', SANDBOX_SECRET], scratch, 30_000);
          expect(r.status, r.out).toBe(0);
          const result = JSON.parse(r.out.trim().split('\n').at(-1)!);
          expect(result.node).toMatch(new RegExp(`^v${major}\\.`));
          expect(result.format).toBe(format);
          // Each format got its own build: dist/index.js for import, dist/index.cjs for require.
          const ext = format === 'esm' ? /\/dist\/index\.js$/ : /\/dist\/index\.cjs$/;
          for (const resolved of result.resolved) expect(resolved).toMatch(ext);
          expect(result).toMatchObject({ tokenStatus: 200, siteId: 123456, note: { subject: 'Packaging test' } });
          expect(result.tokenLength).toBeGreaterThan(10);
          expect(result.accountEmail).toMatch(/@/);
          expect(result.note.id).not.toBe(42); // a new note, not the seeded one
          if (format === 'cjs') expect(result.extra).toEqual({ startSandbox: 'function', startMock: 'function' });
        }
      } finally {
        await stop(sandbox);
      }
    },
    LONG_TIMEOUT,
  );

  it.each(nodeLines)(
    'Node %i: the mock bin starts (Prism from the installed dependencies) and answers the same consumer',
    async (major) => {
      const node = nodeOf(major);
      const started = startBin(
        'hosting-api-mock',
        ['--port', '0', '--quiet'],
        /base URL:\s+(http:\S+)\n\s*auth URL:\s+(http:\S+)\n/,
        node,
      );
      mock = started.child;
      try {
        const [, baseUrl, authUrl] = await started.ready;
        const r = run(node, ['consumer.mjs', baseUrl!, authUrl!, 'any', 'any'], scratch, 30_000);
        expect(r.status, r.out).toBe(0);
        expect(JSON.parse(r.out.trim().split('\n').at(-1)!)).toMatchObject({
          node: expect.stringMatching(new RegExp(`^v${major}\\.`)),
          format: 'esm',
          tokenStatus: 200,
          siteId: 123456,
        });
      } finally {
        await stop(mock);
      }
    },
    120_000,
  );
});

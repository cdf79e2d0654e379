// How a run ends, from the installed gate (gate.ts), against one server in front of a sandbox that
// plays three targets by path prefix:
// - /flaky: the sandbox, except that a site's notes read differently once, by themselves, right
//   after a refused note: the comparison is `flaky` with its observations; --fail-on-flaky fails;
// - /scoped: a team's server that implements only listSites and getSite (and the token operations,
//   which the gate needs for itself): `check --only` is green and no workflow outside the scope runs;
// - /badtoken: a token answer that breaks the spec: exit 3, one message, JUnit and JSON say why.
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocal, relay, runContractCli } from './gate';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let server: Awaited<ReturnType<typeof listenLocal>>;
const dir = mkdtempSync(join(tmpdir(), 'gate-endings-'));
/** /flaky: set by a refused note, spent by the next read of the notes. */
const drift = { armed: true, pending: false };
const notFound = { message: 'We could not locate the requested resources.', data: null, errors: null };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0 });
  server = await listenLocal(
    http.createServer(async (req, res) => {
      const [, tenant, ...rest] = (req.url ?? '/').split('/');
      const url = `/${rest.join('/')}`;
      const path = url.split('?')[0]!;
      if (tenant === 'badtoken' && path === '/auth/token')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'Success', data: { access_token: 'x', token_type: 7 }, errors: null }));
      if (
        tenant === 'scoped' &&
        !(path.startsWith('/auth/') || (req.method === 'GET' && /^\/v1\/sites(\/[^/]+)?$/.test(path)))
      )
        return res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(notFound));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const answer = await fetch(`${sandbox.authUrl}${url}`, {
        method: req.method,
        headers,
        body: chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined,
      });
      let text = await answer.text();
      if (tenant === 'flaky' && path === '/v1/sites/123456/notes') {
        if (req.method === 'POST' && answer.status === 400 && drift.armed) [drift.armed, drift.pending] = [false, true];
        else if (req.method === 'GET' && drift.pending) {
          drift.pending = false;
          const json = JSON.parse(text);
          json.data[0].subject = `${json.data[0].subject} (edited elsewhere)`;
          text = JSON.stringify(json);
        }
      }
      relay(res, answer, text);
    }),
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  await sandbox?.stop();
});

const live = (tenant: string) => [
  '--base-url',
  `${server.url}/${tenant}/v1`,
  '--auth-url',
  `${server.url}/${tenant}`,
  '--client-id',
  'sandbox-client',
];
const env = { CONTRACT_CLIENT_SECRET: 'sandbox-secret' };
type Case = { outcome: string; check: string; reason?: string; observations?: { failures: unknown[] }[] };
const report = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('flaky is a verdict', () => {
  const fuzz = (more: string[], json: string) => {
    [drift.armed, drift.pending] = [true, false];
    return runContractCli(
      [
        'fuzz',
        ...live('flaky'),
        '--allow-writes',
        '--only',
        'createSiteNote',
        '--checks',
        'negative_data_rejection',
        '--seed',
        '3',
        '--max-examples',
        '5',
        '--json',
        json,
        ...more,
      ],
      env,
    );
  };

  it('a read that changes by itself once: flaky with each observation, not a failure; --fail-on-flaky fails', async () => {
    const json = join(dir, 'flaky.json');
    const run = await fuzz(['--junit', join(dir, 'flaky.xml')], json);
    expect(run.code, run.output + run.stderr).toBe(0);
    const flaky = (report(json).checks as Case[]).find((c) => c.outcome === 'flaky')!;
    expect(flaky.check).toBe('negative_data_rejection');
    const observed = flaky.observations!.map((o) => o.failures.length > 0);
    expect(observed[0]).toBe(true);
    expect(observed.slice(1)).toContain(false);
    expect(JSON.stringify(flaky)).toContain('(edited elsewhere)');
    expect(run.output).toMatch(/FLAKY negative_data_rejection createSiteNote/);
    expect(run.output).not.toContain('Property failed by returning false');
    expect(readFileSync(join(dir, 'flaky.xml'), 'utf8')).toContain('[flaky]');
    const strict = await fuzz(['--fail-on-flaky'], join(dir, 'strict.json'));
    expect(strict.code).toBe(1);
    expect(report(join(dir, 'strict.json'))).toMatchObject({ flaky: 1, failOnFlaky: true });
  });
});

describe('reports in every ending', () => {
  it('a token answer that breaks the spec: exit 3, one message, JUnit and JSON say why', async () => {
    const [json, junit] = [join(dir, 'token.json'), join(dir, 'token.xml')];
    const run = await runContractCli(['check', ...live('badtoken'), '--json', json, '--junit', junit], env);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^hosting-api-contract: the token answer of .*\/badtoken\/auth\/token does not match the spec/,
    );
    expect(report(json)).toMatchObject({ stopped: { at: 'preflight', code: 3 }, failed: 1 });
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure[^>]*does not match the spec/);
  });

  it('--only listSites,getSite against a server with only those: green, no workflow outside the scope', async () => {
    const json = join(dir, 'scoped.json');
    const run = await runContractCli(
      ['check', ...live('scoped'), '--only', 'listSites,getSite', '--max-examples', '2', '--json', json],
      env,
    );
    const cases = report(json).checks as (Case & { phase: string; name: string })[];
    expect(
      cases.filter((c) => c.outcome === 'failed').map((c) => `${c.phase} ${c.name}`),
      run.output.slice(-3000),
    ).toEqual([]);
    expect(run.code).toBe(0);
    const workflows = cases.filter((c) => c.phase === 'workflows');
    expect(workflows.length).toBeGreaterThan(0);
    expect(workflows.every((c) => c.outcome === 'skipped' && /out of scope/.test(c.reason ?? ''))).toBe(true);
    expect(run.output).not.toContain('123461');
  }, 240_000);
});

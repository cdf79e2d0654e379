// list_filters against a target whose list changes while the gate reads it (issue 38): the alert
// list's `category=all` must answer the unfiltered list. In front of one sandbox, two behaviours
// of that answer, one gate run each (`fuzz --only listAlerts --checks list_filters`):
// - concurrent: before each `category=all` answer, someone else's alert is published (as queued work
//   does on a target whose clock runs). A correct server: passed, not flaky.
// - once: the first `category=all` answer leaves out an alert, later ones do not: flaky, with every
//   observation (the failing one and the passing replays), and --fail-on-flaky makes it red.
// A drift every time stays a failure: contract-statements.test.ts (list_filters searchAccountActivityLogs).

import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listenLocal, passOn, relay, runContractCli } from './gate';

let sandbox: Sandbox;
let front: { url: string; close(): Promise<void> };
let mode: 'concurrent' | 'once' = 'concurrent';
let allAnswers = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0 });
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const isAll = req.method === 'GET' && url.pathname === '/v1/alerts' && url.searchParams.get('category') === 'all';
    if (isAll && mode === 'concurrent')
      sandbox.runtime.publishAlert({ type: 'site.other', category: 'in_progress', title: 'Other', message: 'Other' });
    const answer = await passOn(req, sandbox.authUrl);
    let text = await answer.text();
    if (isAll && mode === 'once' && allAnswers === 0 && answer.status === 200) {
      const list = JSON.parse(text);
      list.data.shift();
      text = JSON.stringify(list);
    }
    if (isAll) allAnswers++;
    relay(res, answer, text);
  });
  front = await listenLocal(server);
});
afterAll(async () => {
  await front?.close();
  await sandbox?.stop();
});

interface Case {
  check: string;
  operation?: string;
  outcome: string;
  failures?: { message: string }[];
  observations?: { status: number; failures: { message: string }[] }[];
}
/** `fuzz --only listAlerts --checks list_filters` through the front server: the exit code, the list_filters case of `category`, the output. */
async function run(extra: string[] = []) {
  const json = join(mkdtempSync(join(tmpdir(), 'contract-list-filters-')), 'r.json');
  allAnswers = 0;
  const out = await runContractCli(
    ['fuzz', '--only', 'listAlerts', '--checks', 'list_filters', '--json', json, ...extra],
    {
      CONTRACT_BASE_URL: `${front.url}/v1`,
      CONTRACT_AUTH_URL: front.url,
      CONTRACT_CLIENT_ID: sandbox.clients[0]!.clientId,
      CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret,
    },
  );
  const checks: Case[] = JSON.parse(readFileSync(json, 'utf8')).checks;
  const category = checks.filter((c) => c.check === 'list_filters' && /category/.test(c.failures?.[0]?.message ?? ''));
  return { ...out, checks, category };
}

it('passes a correct list that grows between the reads, with no flaky case', async () => {
  mode = 'concurrent';
  const r = await run();
  expect(allAnswers).toBeGreaterThan(0);
  expect(
    r.checks.filter((c) => c.outcome !== 'passed' && c.outcome !== 'skipped'),
    r.output,
  ).toEqual([]);
  expect(r.code).toBe(0);
}, 60_000);

it('reports a failure that passes when replayed as flaky, with each observation', async () => {
  mode = 'once';
  const r = await run(['--fail-on-flaky']);
  expect(
    r.category.map((c) => c.outcome),
    r.output,
  ).toEqual(['flaky']);
  const [flaky] = r.category;
  expect(flaky!.failures![0]!.message).toMatch(/^flaky: failed 1 of 4 times; category = "all" means no filter/);
  expect(flaky!.observations!.map((o) => o.failures.length > 0)).toEqual([true, false, false, false]);
  expect(flaky!.observations![0]!.failures[0]!.message).toMatch(/1 items of the unfiltered list left out, 0 not in it/);
  expect(flaky!.observations![0]!.status).toBe(200);
  expect(r.output).toMatch(/FLAKY list_filters listAlerts/);
  expect(r.code).toBe(1);
}, 60_000);

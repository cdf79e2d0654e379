#!/usr/bin/env node

// The contract gate's stateful half: runs the Arazzo workflows of spec/workflows with
// `redocly respect` against the sandbox (started here) or a live target, and validates every
// webhook delivery the target sends to the listener it runs. See README.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import type { Sandbox } from '@hosting-api/sandbox';
import { parse as parseYaml } from 'yaml';
import {
  obtainToken,
  parseCommandLine,
  REQUEST_TIMEOUT_MS,
  requireLiveVars,
  specFile,
  startGateSandbox,
  TOKEN_REFRESH_MS,
} from './cli';

const require = createRequire(import.meta.url);

const HELP = `Usage: node dist/workflows.js [--sandbox | --live] [--workflow IDS] [--report FILE]

  --sandbox        (the default) start @hosting-api/sandbox (free port, frozen clock, webhooks to the gate's
                   listener) and run every workflow of spec/workflows
  --live           run against CONTRACT_BASE_URL / CONTRACT_AUTH_URL with CONTRACT_CLIENT_ID /
                   CONTRACT_CLIENT_SECRET; only workflows that change nothing unless
                   CONTRACT_ALLOW_WRITES=1
  --workflow IDS   comma-separated workflowIds to run (default: all that may run)
  --report FILE    write {"passed": N, "failed": N, "skipped": N} (workflows, for CI totals)
  --results FILE   write every workflow's outcome, the schema problems and the invalid webhooks as JSON

Live targets, optional:
  CONTRACT_WEBHOOK_PORT   port the gate's webhook listener binds (the target must deliver to
                          http://<this host>:PORT/hooks); without it webhook workflows are skipped
  CONTRACT_WEBHOOK_HOST   address the listener binds (default 127.0.0.1)
  CONTRACT_CONTROL_URL    a target that also serves the sandbox's control routes (/__sandbox/…);
                          without it clock steps are no-ops and state checks retry (up to 60 s)
  CONTRACT_WORKFLOW_INPUTS  JSON object of workflow inputs that fit the target (siteId,
                          dnsSiteId, notesSiteId, zoneId, notEnrolledSiteId, scratchSiteId,
                          scratchSiteId2); a live target's are found through its lists
Other variables: HOSTING_API_SPEC (bundled spec for the webhook schemas), CONTRACT_WORKFLOWS_DIR.`;

const { values, usage } = parseCommandLine('contract:workflows', HELP, {
  sandbox: { type: 'boolean', default: false },
  live: { type: 'boolean', default: false },
  workflow: { type: 'string' },
  report: { type: 'string' },
  results: { type: 'string' },
});
if (values.sandbox && values.live) usage('say one target: --sandbox (the default) or --live.');
const target = values.live ? 'live' : 'sandbox';
const started = Date.now();

// ---- the spec: its model (@hosting-api/openapi/model) and the checks of spec-check.ts ---------
const spec = specFile(usage);
let model!: SpecModel;
try {
  model = await loadModel(spec);
} catch (error) {
  usage((error as Error).message);
}
// The token operations (served at the auth URL, outside /v1) and their paths, from the spec.
const TOKEN_OPERATIONS = new Set(model.tokenOperations.map((o) => o.operationId));
const tokenOp = model.issueTokenOperation;
if (!tokenOp) usage('the spec has no token operation with the client-credentials grant (grant_type).');

import { createApi } from './api';
import { checkOfProblem } from './checks';
import { cappedFetch } from './http-cap';
import { cannotPutBack, createObserver, openLedger, rememberSetting } from './ledger';
import { changesEveryItem } from './live-plan';
import { guardOutput, shown } from './redact';
import { idNeedsWrites } from './safety';
import { createChecker, exercisedResponse } from './spec-check';
import type { CappedAnswer, Failure, Json, Req, SpecModel } from './types';

// Nothing a target sent is printed verbatim: tokens redacted, long lines cut (redact.ts).
guardOutput();

/** A workflow of the Arazzo files and what it needs of the target. */
interface Workflow {
  id: string;
  file: string;
  writes: boolean;
  clock: boolean;
  webhook: boolean;
  sandboxOnly: boolean;
  alerts: boolean;
  /** Uses an operation that changes every alert (live-plan.ts changesEveryItem). */
  changesEveryAlert: boolean;
  /** Why a write of it cannot be undone, if one cannot (ledger.ts cannotPutBack). */
  irreversible: string | undefined;
  inputs: string[];
  /** The operations of its steps (--only and --exclude scope the workflows by them). */
  operations: string[];
  /** Ids written into its steps (path parameters with a literal value): the sandbox's seed, not a live target's. */
  literalIds: string[];
}

const checker = await createChecker(model);

// ---- the workflows -------------------------------------------------------------------------
// The workflows ship with the spec package, so the gate's version is the spec's.
const dir = resolve(
  process.env.CONTRACT_WORKFLOWS_DIR ??
    join(dirname(require.resolve('@hosting-api/openapi/package.json')), 'workflows'),
);
if (!existsSync(dir)) usage(`no workflows folder: ${dir}`);
// The operations of the sandbox's control routes and of the gate's listener (clock, reset, webhook
// deliveries, finding a list item): none of them changes the target's data.
const controlFile = join(dir, 'sandbox-control.openapi.yaml');
if (!existsSync(controlFile)) usage(`no description of the control routes: ${controlFile}`);
const CONTROL_OPERATIONS = new Set(
  Object.values<Json>(parseYaml(readFileSync(controlFile, 'utf8')).paths ?? {}).flatMap((item) =>
    Object.values<Json>(item).map((op) => op.operationId),
  ),
);
// File order is run order: auth last (its expired-token workflow moves the clock on by an hour).
const ORDER = ['sites', 'settings', 'dns', 'notes', 'backups', 'git', 'maintenance', 'account', 'alerts', 'auth'];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.arazzo.yaml'))
  .sort(
    (a, b) =>
      (ORDER.indexOf(a.split('.')[0]!) + 1 || 99) - (ORDER.indexOf(b.split('.')[0]!) + 1 || 99) || a.localeCompare(b),
  )
  .map((f) => join(dir, f));
// The workflows name the spec's source (`../openapi.yaml`), which an installed package does not
// ship: respect reads copies that name the bundle instead (the same description, $refs resolved).
const bundledYaml = specFile(usage, 'yaml');
const copies = mkdtempSync(join(tmpdir(), 'workflows-src-'));
// Removed however the run ends, a usage error or an unreachable target included.
process.on('exit', () => rmSync(copies, { recursive: true, force: true }));
const runFiles = new Map(
  files.map((file) => {
    const copy = join(copies, basename(file));
    const text = readFileSync(file, 'utf8')
      .replace(/^(\s+url:\s*)\.\.\/openapi\.yaml\s*$/gm, `$1${JSON.stringify(bundledYaml)}`)
      .replace(/^(\s+url:\s*)\.\/sandbox-control\.openapi\.yaml\s*$/gm, `$1${JSON.stringify(controlFile)}`);
    writeFileSync(copy, text);
    return [file, copy];
  }),
);
const workflows: Workflow[] = [];
for (const file of files) {
  const doc = parseYaml(readFileSync(file, 'utf8'));
  for (const wf of doc.workflows ?? []) {
    const ops = (wf.steps ?? []).map(
      (s: Json) =>
        String(s.operationId ?? '')
          .split('.')
          .pop()!,
    );
    workflows.push({
      id: wf.workflowId,
      file,
      writes: ops.some(
        (op: string) => idNeedsWrites(model, op) && !TOKEN_OPERATIONS.has(op) && !CONTROL_OPERATIONS.has(op),
      ),
      clock: ops.includes('advanceSandboxClock'),
      webhook: ops.includes('waitForWebhook'),
      sandboxOnly: wf['x-sandbox-only'] === true,
      // Operations that change alerts the run did not cause (the first listed one, or all of
      // them), which no operation can put back.
      alerts: ops.some((op: string) => /^(markAllAlertsRead|dismissAllAlerts|markAlertRead|dismissAlert)$/.test(op)),
      changesEveryAlert: ops.some((op: string) => changesEveryItem(op)),
      // A write nothing undoes (ledger.ts), sent to what existed before the run (the batch writes go to the scratch sites).
      irreversible: ops
        .filter((op: string) => !/^batch/.test(op))
        .map((op: string) => cannotPutBack({ operationId: op }))
        .find(Boolean),
      // The inputs it reads ($inputs.siteId, …): one the target lacks skips it.
      inputs: [...new Set([...JSON.stringify(wf).matchAll(/\$inputs\.(\w+)/g)].map((m) => m[1]!))],
      operations: ops.filter((op: string) => !TOKEN_OPERATIONS.has(op) && !CONTROL_OPERATIONS.has(op)),
      literalIds: [
        ...new Set<string>(
          (wf.steps ?? []).flatMap((step: Json) =>
            (step.parameters ?? [])
              .filter((p: Json) => p.in === 'path' && typeof p.value === 'number')
              .map((p: Json) => String(p.value)),
          ),
        ),
      ],
    });
  }
}
const chosen = (values.workflow ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const id of chosen)
  if (!workflows.some((w) => w.id === id))
    usage(`--workflow: no workflow "${id}"; the workflows are ${workflows.map((w) => w.id).join(', ')}.`);

// ---- the webhook listener (also serves no-op control routes for live targets) ---------------
const checkDelivery = checker.checkWebhook;

/** A webhook delivery the listener received, checked against the spec's `webhooks:`. */
interface Delivery {
  seq: number;
  event: string;
  valid: boolean;
  errors: string[];
  documented: boolean;
  payload: unknown;
}
const deliveries: Delivery[] = [];
const waiting = new Set<() => unknown>();
const envelope = (data: unknown) => JSON.stringify({ message: 'Success', data, errors: null });
const listener = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://listener');
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const json = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.method === 'POST' && /^\/hooks(\/[^/]+)?$/.test(url.pathname)) {
      const event =
        url.pathname.split('/')[2] ?? req.headers['x-hosting-event'] ?? url.searchParams.get('event') ?? 'unnamed';
      const result = checkDelivery(String(event), req.headers['content-type'], Buffer.concat(chunks).toString('utf8'));
      const delivery = {
        seq: deliveries.length + 1,
        event: String(event),
        valid: result.errors.length === 0,
        errors: result.errors,
        documented: result.documented,
        payload: result.payload ?? null,
      };
      deliveries.push(delivery);
      for (const wake of waiting) wake();
      return json(200, '{}');
    }
    // findItem: the one item of `items` whose fields equal every value of `where` (Arazzo 1.0
    // outputs are JSON Pointers only, so a workflow cannot pick a list item by its content).
    if (req.method === 'POST' && url.pathname === '/find') {
      let items: unknown;
      let where: unknown;
      try {
        ({ items, where } = JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {}
      if (!Array.isArray(items) || typeof where !== 'object' || where === null)
        return json(400, JSON.stringify({ message: 'send {"items": [...], "where": {...}}' }));
      const found = items.filter((item) => Object.entries(where).every(([k, v]) => item?.[k] === v));
      if (found.length === 1) return json(200, JSON.stringify({ item: found[0] }));
      return json(404, JSON.stringify({ message: `${found.length} of ${items.length} items match`, where }));
    }
    const m = /^\/deliveries\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const event = decodeURIComponent(m[1]!);
      const after = Number(url.searchParams.get('after') ?? 0);
      const deadline = Date.now() + Math.min(Number(url.searchParams.get('wait') ?? 0), 60) * 1000;
      const find = () => deliveries.filter((d) => d.event === event && d.seq > after).pop();
      const answer = () => {
        const found = find();
        if (found) json(200, JSON.stringify(found));
        else if (Date.now() >= deadline) {
          json(
            404,
            JSON.stringify({ message: `no ${event} delivery arrived`, received: deliveries.map((d) => d.event) }),
          );
        } else return false;
        return true;
      };
      if (answer()) return;
      const wake = () => answer() && done();
      const timer = setTimeout(wake, Math.max(0, deadline - Date.now()) + 5);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(wake);
      };
      waiting.add(wake);
      return;
    }
    // A live target without control routes: clock steps and resets are no-ops (the waits retry).
    if (req.method === 'POST' && (url.pathname === '/__sandbox/clock' || url.pathname === '/__sandbox/reset'))
      return json(200, envelope({ noop: true }));
    json(404, JSON.stringify({ message: 'not a listener route' }));
  });
});
const webhookPort =
  target === 'live' && process.env.CONTRACT_WEBHOOK_PORT ? Number(process.env.CONTRACT_WEBHOOK_PORT) : 0;
if (!Number.isInteger(webhookPort) || webhookPort < 0 || webhookPort > 65535)
  usage(`CONTRACT_WEBHOOK_PORT is not a port: ${process.env.CONTRACT_WEBHOOK_PORT}`);
await new Promise<void>((ok, fail) => {
  listener.once('error', (e) => fail(usage(`the webhook listener cannot bind port ${webhookPort}: ${e.message}`)));
  listener.listen(webhookPort, process.env.CONTRACT_WEBHOOK_HOST ?? '127.0.0.1', ok);
});
const listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;

// ---- the target ------------------------------------------------------------------------------
let baseUrl: string;
let authUrl: string;
let controlUrl: string;
let sandbox: Sandbox | undefined;
let receivesWebhooks: boolean;
/** What a live target lacks when an input is null. */
const INPUT_NEEDS: Record<string, string> = {
  notesSiteId: 'a site with at least two notes to page through',
  notEnrolledSiteId: 'a site whose git configuration answers 422 (not enrolled)',
  zoneId: 'a DNS zone in GET /zones',
  siteId: 'a site in GET /sites',
  dnsSiteId: 'a DNS record attached to a site',
  scratchSiteId: 'two sites the run created (needs --allow-writes and POST /sites)',
  scratchSiteId2: 'two sites the run created (needs --allow-writes and POST /sites)',
};
// The sandbox's ids (it is reset before the run); a live target's are found through its lists
// (null until found: a workflow that needs one the target lacks is skipped, never sent a seed id).
const SANDBOX_INPUTS: Record<string, number> = {
  notEnrolledSiteId: 123461,
  zoneId: 5501,
  siteId: 123456,
  dnsSiteId: 123456,
  notesSiteId: 123456,
  scratchSiteId: 123456,
  scratchSiteId2: 123457,
};
// With control routes (CONTRACT_CONTROL_URL) the target is a sandbox the run may reset: its seed ids hold.
const seeded = target === 'sandbox' || Boolean(process.env.CONTRACT_CONTROL_URL);
let inputs: Record<string, number | null> = seeded
  ? { ...SANDBOX_INPUTS }
  : Object.fromEntries(Object.keys(SANDBOX_INPUTS).map((k) => [k, null]));
let givenInputs: Record<string, number | null> = {};
const scratchSites: number[] = [];
if (target === 'sandbox') {
  sandbox = await startGateSandbox(usage, { webhookUrl: `${listenerUrl}/hooks` });
  baseUrl = sandbox.url;
  authUrl = sandbox.authUrl;
  controlUrl = sandbox.authUrl;
  receivesWebhooks = true;
} else {
  requireLiveVars(
    'contract:workflows --live',
    'Workflows that change the target run only with CONTRACT_ALLOW_WRITES=1.',
  );
  baseUrl = process.env.CONTRACT_BASE_URL!.replace(/\/$/, '');
  authUrl = process.env.CONTRACT_AUTH_URL!.replace(/\/$/, '');
  controlUrl = process.env.CONTRACT_CONTROL_URL?.replace(/\/$/, '') ?? listenerUrl;
  receivesWebhooks = Boolean(process.env.CONTRACT_WEBHOOK_PORT);
  if (process.env.CONTRACT_WORKFLOW_INPUTS) {
    try {
      givenInputs = JSON.parse(process.env.CONTRACT_WORKFLOW_INPUTS);
      inputs = { ...inputs, ...givenInputs };
    } catch (error) {
      usage(`CONTRACT_WORKFLOW_INPUTS is not a JSON object: ${(error as Error).message}`);
    }
  }
}
const allowWrites = target === 'sandbox' || process.env.CONTRACT_ALLOW_WRITES === '1';
const hasControl = target === 'sandbox' || Boolean(process.env.CONTRACT_CONTROL_URL);

// The recorder: respect talks to the API through it; it forwards each request to the target and
// checks every response against the spec (status documented, Content-Type, 3.1 schema), exactly
// as the Dredd hooks check a transaction.
const schemaProblems: string[] = [];
let checkedResponses = 0;
// Live runs: the ledger (ledger.ts) records what every answer says the run created or deleted.
const ledger = openLedger();
const observer = createObserver(model.operations, ledger);
const observe = (method: string, path: string, status: number, sent: string | undefined, answer: string) =>
  observer(method, path, status, sent, answer, 'workflows');
/** The settings the workflows changed (ledger.ts rememberSetting), put back after the last workflow. */
const putBacks = new Map<string, (() => Promise<string | undefined>) | undefined>();
const api = createApi({ baseUrl, token: () => token, timeout: REQUEST_TIMEOUT_MS });
const exercised = new Set(); // "<operationId> <status>" answered and checked without a problem, for the coverage
const recorder = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const path = req.url ?? '/';
    const to = model.authPaths.includes(path.split('?')[0]!) ? `${authUrl}${path}` : `${baseUrl}${path}`;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    );
    // The run's token (the workflows' input) is renewed when it gets old: a target's tokens may
    // expire mid-run. Tokens a workflow obtained itself pass as they are.
    if (headers.authorization === `Bearer ${inputToken}` && Date.now() - tokenAt > TOKEN_REFRESH_MS) {
      try {
        token = await obtainToken(authUrl, tokenOp!, { checker });
        tokenAt = Date.now();
      } catch {}
    }
    if (headers.authorization === `Bearer ${inputToken}`) headers.authorization = `Bearer ${token}`;
    // A setting the workflow changes (an add-on's quantity): read first, put back after the phase.
    const settingOp =
      target === 'live' && req.method !== 'GET' ? checker.findOperation(req.method!, path.split('?')[0]!) : undefined;
    if (settingOp && !putBacks.has(settingOp.op.operationId)) {
      putBacks.set(settingOp.op.operationId, undefined);
      const putBack = await rememberSetting(settingOp.model, api, ledger, 'workflows').catch(() => undefined);
      putBacks.set(settingOp.op.operationId, putBack);
    }
    let answer: CappedAnswer;
    try {
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      // http-cap.ts: a wall-clock deadline for the whole answer, a size cap, no redirect followed.
      answer = await cappedFetch(to, { method: req.method, headers, body }, { deadline: REQUEST_TIMEOUT_MS });
    } catch (error) {
      res
        .writeHead(502, { 'content-type': 'text/plain' })
        .end(`the gate's recorder got no answer from ${to}: ${(error as Error).message}`);
      schemaProblems.push(`${req.method} ${path}: no answer from the target (${(error as Error).message})`);
      return;
    }
    const bytes = answer.bytes;
    const out: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(answer.headers))
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(k))
        out[k] = v;
    res.writeHead(answer.statusCode, out).end(bytes);
    const pathname = path.split('?')[0]!;
    if (target === 'live')
      observe(
        req.method!,
        pathname,
        answer.statusCode,
        chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined,
        bytes.toString('utf8'),
      );
    const info = checker.findOperation(req.method!, pathname);
    if (!info) return void schemaProblems.push(`${req.method} ${pathname}: no such operation in the spec`);
    checkedResponses += 1;
    const status = String(answer.statusCode);
    const text = bytes.toString('utf8');
    const problems = checker.checkResponse(info, status, { statusCode: answer.statusCode, headers: out, body: text });
    for (const problem of problems)
      schemaProblems.push(`${info.op.operationId} ${status} (${req.method} ${pathname}): ${problem}`);
    const key = exercisedResponse(info.op.operationId, status, out['content-type'], text, problems);
    if (key) exercised.add(key);
  });
});
// respect's fetch keeps connections alive (undici, 4 s idle); the recorder keeps them longer, so that it
// never closes one as respect sends on it (seen as "fetch failed (UND_ERR_SOCKET)" under load).
recorder.keepAliveTimeout = 65_000;
await new Promise<void>((ok) => recorder.listen(0, '127.0.0.1', ok));
const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;

async function stopAll() {
  await sandbox?.stop();
  await new Promise<void>((done) => listener.close(() => done()));
  await new Promise<void>((done) => recorder.close(() => done()));
}

// A token for the workflows (the token workflows get and revoke their own).
let token: string;
let inputToken: string;
let tokenAt = Date.now();
try {
  token = await obtainToken(authUrl, tokenOp!, { checker });
  inputToken = token;
} catch (error) {
  process.stderr.write(`contract:workflows: ${(error as Error).message}\n`);
  await stopAll();
  process.exit(3); // the target is unreachable or refuses the credentials
}

// A live target: the inputs that name its resources are found through its lists (reads only),
// unless CONTRACT_WORKFLOW_INPUTS gives them: its first zone, and a site whose git configuration
// answers 422 (not enrolled in the git integration).
if (target === 'live') {
  const read = async (path: string) => {
    try {
      const r = await cappedFetch(
        `${baseUrl}${path}`,
        { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
        { deadline: REQUEST_TIMEOUT_MS },
      );
      return { status: r.statusCode, json: JSON.parse(r.body) };
    } catch {
      return { status: 0 };
    }
  };
  if (givenInputs.zoneId === undefined) {
    const zone = (await read('/zones')).json?.data?.[0];
    if (zone) inputs.zoneId = zone.id;
  }
  const sites = ((await read('/sites')).json?.data ?? []).slice(0, 30);
  if (givenInputs.siteId === undefined && sites.length)
    inputs.siteId = (sites.find((x: Json) => x.state === 'live') ?? sites[0]).id;
  if (givenInputs.notesSiteId === undefined) {
    inputs.notesSiteId = null;
    for (const site of sites) {
      const notes = (await read(`/sites/${site.id}/notes`)).json;
      if ((notes?.page?.totalItems ?? notes?.data?.length ?? 0) >= 2) {
        inputs.notesSiteId = site.id;
        break;
      }
    }
  }
  if (givenInputs.dnsSiteId === undefined && inputs.zoneId != null) {
    const records = (await read(`/zones/${inputs.zoneId}/records`)).json?.data?.records ?? [];
    const attached = records.find((r: Json) => r.siteId != null);
    if (attached) inputs.dnsSiteId = attached.siteId;
  }
  // Sites the workflows may change (a collaborator added): created here, deleted after the run.
  if (allowWrites && givenInputs.scratchSiteId === undefined) {
    const ids: number[] = [];
    for (const n of [1, 2]) {
      try {
        const r = await cappedFetch(
          `${baseUrl}/sites`,
          {
            method: 'POST',
            headers: {
              Accept: 'application/json',
              'Content-Type': 'application/json',
              Authorization: `Bearer ${token}`,
            },
            body: JSON.stringify({
              name: `arazzo-scratch-${Date.now().toString(36)}-${n}`,
              php_version: '8.4',
              staging: false,
              sandbox: false,
              kit: false,
              datacenter_code: 'DCA',
            }),
          },
          { deadline: REQUEST_TIMEOUT_MS },
        );
        observe('POST', '/sites', r.statusCode, undefined, r.body);
        const id = JSON.parse(r.body)?.data?.id;
        if (id != null) ids.push(id);
      } catch {}
    }
    if (ids.length === 2) [inputs.scratchSiteId, inputs.scratchSiteId2] = ids as [number, number];
    scratchSites.push(...ids);
  }
  if (givenInputs.notEnrolledSiteId === undefined)
    for (const site of sites)
      if ((await read(`/sites/${site.id}/git`)).status === 422) {
        inputs.notEnrolledSiteId = site.id;
        break;
      }
}

// ---- which workflows run -------------------------------------------------------------------
// --only and --exclude (operationIds; "<operationId> <status>" names its operation): a workflow runs
// only when every operation of its steps is in scope.
const idsOf = (list: string | undefined) =>
  (list ?? '')
    .split(',')
    .map((x) => x.trim().split(/\s+/)[0]!)
    .filter(Boolean);
const ONLY = idsOf(process.env.CONTRACT_ONLY);
const EXCLUDE = idsOf(process.env.CONTRACT_EXCLUDE);
const skipped: { id: string; reason: string }[] = [];
const run: Workflow[] = [];
for (const wf of workflows) {
  if (chosen.length && !chosen.includes(wf.id)) continue;
  let reason: string | undefined;
  const outOfScope = wf.operations.filter((op) => (ONLY.length && !ONLY.includes(op)) || EXCLUDE.includes(op));
  if (outOfScope.length)
    reason = `out of scope: its steps call ${[...new Set(outOfScope)].join(', ')} (--only, --exclude)`;
  else if (wf.sandboxOnly && !hasControl) reason = 'needs the sandbox clock (x-sandbox-only)';
  else if (!seeded && wf.literalIds.length)
    reason = `live: its steps name ids of the sandbox's seed (${wf.literalIds.join(', ')}), not ids found through the target's lists`;
  else if (wf.writes && !allowWrites) reason = 'changes the target; set CONTRACT_ALLOW_WRITES=1 to run it';
  else if (wf.webhook && !receivesWebhooks)
    reason = 'waits for a webhook; set CONTRACT_WEBHOOK_PORT and have the target deliver to it';
  else if (wf.inputs.some((name) => inputs[name] === null))
    reason = `live: the target has no ${wf.inputs.filter((name) => inputs[name] === null).join(', ')} (${INPUT_NEEDS[wf.inputs.find((name) => inputs[name] === null)!] ?? 'see the workflow'})`;
  else if (target === 'live' && wf.irreversible)
    reason = `live: not sent to what existed before the run: ${wf.irreversible}`;
  else if (target === 'live' && wf.changesEveryAlert)
    reason =
      'live: changes every alert (read_all, dismiss_all), those that existed before the run too, which cannot be put back';
  else if (wf.alerts && !hasControl)
    reason =
      'live: reads or dismisses alerts that existed before the run, which cannot be put back (needs CONTRACT_CONTROL_URL: a target the run may reset)';
  if (reason) skipped.push({ id: wf.id, reason });
  else run.push(wf);
}

console.log(`Contract workflows: ${target} target, base URL ${baseUrl}, auth URL ${authUrl}`);
console.log(
  `Control routes: ${hasControl ? controlUrl : 'none (clock steps are no-ops, state checks retry)'}; webhook listener: ${listenerUrl}/hooks`,
);

// respect prints where its JSON logs are: the folder stays after the run (in the system's temp
// folder), so that the path it prints can be opened.
const work = mkdtempSync(join(tmpdir(), 'hosting-api-contract-workflows-'));
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const runId = Date.now().toString(36);
let code = 0;
if (run.length && target === 'sandbox') await fetch(`${controlUrl}/__sandbox/reset`, { method: 'POST' });
// One `respect` run for every file with a workflow to run; the others are named with --skip.
const reports: string[] = [];
const batches = [files.filter((f) => run.some((w) => w.file === f))];
for (const batch of batches) {
  if (!batch.length) continue;
  const skip = workflows.filter((w) => batch.includes(w.file) && !run.includes(w));
  const jsonOut = join(work, `${reports.length}.json`);
  reports.push(jsonOut);
  const args = [
    redocly,
    'respect',
    ...batch.map((file) => runFiles.get(file)!),
    ...skip.flatMap((w) => ['--skip', w.id]),
    ...['api', recorderUrl, 'auth', recorderUrl, 'control', controlUrl, 'listener', listenerUrl].flatMap((v, i, a) =>
      i % 2 ? [] : ['--server', `${v}=${a[i + 1]}`],
    ),
    ...Object.entries({
      ...inputs,
      token,
      run: runId,
      clientId: process.env.CONTRACT_CLIENT_ID,
      clientSecret: process.env.CONTRACT_CLIENT_SECRET,
    }).flatMap(([k, v]) => ['--input', `${k}=${v}`]),
    '--json-output',
    jsonOut,
    // Respect's own schema check treats every object the spec leaves open as closed (its Ajv runs
    // with defaultUnevaluatedProperties: false), which would fail a correct server: it stays a
    // warning, and the recorder checks every response with the gate's 3.1 validator instead.
    '--severity',
    'SCHEMA_CHECK=warn',
    // A second more than the recorder's deadline: the recorder gives up first and says why (a 502
    // and a problem on the record), instead of respect aborting with "failed network request".
    '--max-fetch-timeout',
    String(REQUEST_TIMEOUT_MS + 1000),
    ...(process.env.CONTRACT_VERBOSE ? ['--verbose'] : []),
  ];
  const status = await new Promise<number>((done) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NODE_NO_WARNINGS: '1', NO_COLOR: '1' },
    });
    // Respect's report, without Redocly's Node 20 banner.
    child.stdout.on('data', (c: Buffer) => process.stdout.write(c));
    child.stderr.on('data', (c: Buffer) => {
      const text = c
        .toString()
        .split('\n')
        .filter((l: string) => !/[║╔╚]/.test(l))
        .join('\n');
      if (text.trim()) process.stderr.write(text);
    });
    child.on('exit', (s) => done(s ?? 1));
  });
  if (status !== 0) code = status;
}
// The scratch sites go when they are no longer busy (a deploy or a collaborator batch running).
for (const id of scratchSites) {
  const call = (method: string) =>
    cappedFetch(
      `${baseUrl}/sites/${id}`,
      { method, headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
      { deadline: REQUEST_TIMEOUT_MS },
    ).catch(() => ({ statusCode: 0, body: '' }));
  for (let i = 0, delay = 100; i < 40; i++, delay = Math.min(delay * 1.5, 3000)) {
    const r = await call('GET');
    if (r.statusCode !== 200 || !/ing"/.test(/"state":"[a-z_]*"/.exec(r.body)?.[0] ?? '')) break;
    await new Promise((ok) => setTimeout(ok, delay));
  }
  const gone = await call('DELETE');
  observe('DELETE', `/sites/${id}`, gone.statusCode, undefined, gone.body);
}
// A fresh token: a workflow may have revoked the one the run started with.
if (putBacks.size) token = await obtainToken(authUrl, tokenOp!, { checker }).catch(() => token);
for (const [operationId, putBack] of putBacks) {
  const problem = await putBack?.();
  if (problem) schemaProblems.push(`${operationId}: ${problem}`);
}
await stopAll();

// ---- summary -------------------------------------------------------------------------------
/** What respect's report says of a workflow that ran. */
interface WorkflowDetail {
  ms: number;
  failures: Failure[];
  expected: unknown;
  actual: unknown;
  request: Req | undefined;
}
const outcome = new Map<string, string>();
const detail = new Map<string, WorkflowDetail>(); // workflowId → {ms, failures, expected, actual, request} from respect's report
for (const jsonOut of reports.filter((f) => existsSync(f))) {
  const report = JSON.parse(readFileSync(jsonOut, 'utf8'));
  for (const file of Object.values<Json>(report.files ?? {})) {
    for (const wf of file.executedWorkflows ?? []) {
      outcome.set(wf.workflowId, wf.status === 'success' ? 'pass' : 'fail');
      const step = (wf.executedSteps ?? []).find((s: Json) =>
        s.checks?.some((c: Json) => !c.passed && c.severity === 'error'),
      );
      const failing = step?.checks.filter((c: Json) => !c.passed && c.severity === 'error') ?? [];
      detail.set(wf.workflowId, {
        ms: Math.round(wf.totalTimeMs ?? 0),
        failures: failing.map((c: Json) => ({
          check: 'workflow_success',
          message:
            `step ${step.stepId}: ${c.name}: ${c.condition ?? ''} ${c.message ? `(${c.message.replace(/\s+/g, ' ').slice(0, 300)})` : ''}`.trim(),
        })),
        expected: failing[0]?.condition,
        actual: step?.response?.statusCode,
        request: step?.request && {
          method: step.request.method.toUpperCase(),
          url: step.request.url.replace(recorderUrl, baseUrl),
          headers: Object.fromEntries(
            Object.entries(step.request.headers ?? {}).map(([k, v]) => [
              k,
              /^authorization$/i.test(k) ? 'Bearer $TOKEN' : v,
            ]),
          ),
          body:
            step.request.body === undefined
              ? undefined
              : typeof step.request.body === 'string'
                ? step.request.body
                : JSON.stringify(step.request.body),
        },
      });
    }
  }
}
// A live target without control routes moves through an in-between state (enabling, deploying, …)
// in its own time: a step that reads it a moment too late finds the state after it. Such a miss is
// a skip with its reason, not a failure (with CONTRACT_CONTROL_URL the clock is held and it fails).
const IN_BETWEEN =
  /== '(enabling|disabling|deploying|cloning|creating|deleting|converting|processing|in_progress|restoring)'/;
if (target === 'live' && !hasControl)
  for (const w of run) {
    const d = detail.get(w.id);
    const late =
      d?.failures.some((f) => IN_BETWEEN.test(f.message)) && !d.failures.some((f) => /\$statusCode/.test(f.message));
    if (outcome.get(w.id) === 'fail' && late) {
      outcome.set(w.id, 'late');
      skipped.push({
        id: w.id,
        reason: `live, no control URL: the in-between state was over before it was read (${d!.failures[0]!.message.slice(0, 160)})`,
      });
    }
  }
const passed = run.filter((w) => outcome.get(w.id) === 'pass');
const failed = run.filter((w) => outcome.get(w.id) !== 'pass' && outcome.get(w.id) !== 'late');
const lines = [''];
lines.push(
  `Workflows: ${workflows.length} in ${files.length} files, ${run.length} run: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped.`,
);
for (const s of skipped) lines.push(`  skipped ${s.id}: ${s.reason}`);
for (const w of failed) lines.push(`  FAILED ${w.id} (${w.file.split('/').pop()})`);
lines.push(
  `Responses checked against the spec (status, Content-Type, 3.1 schema): ${checkedResponses}, ${schemaProblems.length} problems.`,
);
for (const p of schemaProblems) lines.push(`  SCHEMA ${p}`);
const badDeliveries = deliveries.filter((d) => d.documented && !d.valid);
const undocumented = [...new Set(deliveries.filter((d) => !d.documented).map((d) => d.event))];
lines.push(
  `Webhook deliveries: ${deliveries.length} received, ${deliveries.length - badDeliveries.length - deliveries.filter((d) => !d.documented).length} valid against the spec, ${badDeliveries.length} invalid.`,
);
if (undocumented.length) lines.push(`  events the spec does not document (not checked): ${undocumented.join(', ')}`);
for (const d of badDeliveries) lines.push(`  INVALID webhook ${d.event} #${d.seq}: ${d.errors.join('; ')}`);
let failures = failed.length + badDeliveries.length + schemaProblems.length;
if (code !== 0 && failures === 0 && !run.some((w) => outcome.get(w.id) === 'late')) {
  lines.push(`redocly respect exited with code ${code} without a failing workflow: see its output above.`);
  failures = 1;
}
lines.push(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
lines.push(
  `Contract workflows (${target}): ${failures === 0 ? 'PASSED' : 'FAILED'}: ${passed.length} passed, ${failures} failed, ${skipped.length} skipped`,
);
console.log(lines.join('\n'));
if (values.report) {
  mkdirSync(dirname(resolve(values.report)), { recursive: true });
  writeFileSync(
    values.report,
    `${JSON.stringify({ passed: passed.length, failed: failures, skipped: skipped.length })}\n`,
  );
}
if (values.results) {
  const byId = (w: Workflow, outcome: string, more?: object) => ({
    key: w.id,
    name: w.id,
    check: 'workflow_success',
    file: w.file.split('/').pop(),
    outcome,
    ms: detail.get(w.id)?.ms,
    ...more,
  });
  const failedWith = (w: Workflow) => {
    const d: Partial<WorkflowDetail> = detail.get(w.id) ?? {};
    const failures = d.failures?.length
      ? d.failures
      : [{ check: 'workflow_success', message: `workflow ${w.id} failed: see its steps in the output` }];
    return {
      failures,
      errors: failures.map((f) => f.message),
      expected: d.expected,
      actual: d.actual,
      request: d.request,
    };
  };
  const results = [
    ...passed.map((w) => byId(w, 'pass')),
    ...failed.map((w) => byId(w, 'fail', failedWith(w))),
    ...skipped.map((s) => ({ key: s.id, name: s.id, check: 'workflow_success', outcome: 'skip', reason: s.reason })),
    ...schemaProblems.map((p) => ({
      key: p.split(':')[0],
      name: `response ${p.split(':')[0]}`,
      operationId: p.split(' ')[0],
      outcome: 'fail',
      failures: [{ check: checkOfProblem(p.split(': ').slice(1).join(': ')), message: p }],
      errors: [p],
    })),
    ...badDeliveries.map((d) => ({
      key: `webhook ${d.event}`,
      name: `webhook ${d.event} #${d.seq}`,
      check: 'webhook_conformance',
      outcome: 'fail',
      failures: d.errors.map((message: string) => ({ check: 'webhook_conformance', message })),
      errors: d.errors,
    })),
  ];
  writeFileSync(
    values.results,
    JSON.stringify(
      shown({ mode: target, coverage: { responses: { exercised: [...exercised].sort() } }, results }),
      null,
      1,
    ),
  );
}
process.exit(failures === 0 ? 0 : 1);

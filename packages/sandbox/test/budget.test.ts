// The state's size budget (src/domain/budget.ts) and the heap with 1 MB note subjects. Driven
// in-process: the app's request handler (createSandboxCore().app.handle, what the server and the
// MSW handlers call) with a request and an answer of the test's own, no sockets; the 1,000 notes
// of the heap check go through the notes handlers themselves. Over loopback HTTP they took 25 s.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { RequestCtx } from '../src/domain/area.js';
import { handlers } from '../src/domain/areas/index.js';
import { stateSize } from '../src/domain/budget.js';
import {
  ACTIVITY_FIELD_LIMIT,
  ACTIVITY_TEXT_LIMIT,
  ALERT_LIMIT,
  createSandboxCore,
  DUMP_SIZE_LIMIT,
  loadFixture,
  type SandboxOptions,
  STATE_SIZE_LIMIT,
  seedState,
} from '../src/index.js';
import { START } from './helpers.js';

interface Answer {
  status: number;
  body: any;
}

/** A sandbox without a port, and a way to send it a request (a Buffer body is sent as is). */
async function inProcess(options: SandboxOptions = {}) {
  const core = createSandboxCore({ speed: 0, startTime: START, ...options });
  const app = await core.app;
  const rt = core.runtime;
  const token = rt.tokens.issue(core.clients[0]!, rt.clock.now()).token;
  const send = (method: string, path: string, body?: unknown, parse = true, type = 'application/json') =>
    new Promise<Answer>((resolve) => {
      const raw = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, host: '127.0.0.1' };
      if (raw) Object.assign(headers, { 'content-type': type, 'content-length': String(raw.length) });
      const listeners: Record<string, ((chunk?: Buffer) => void)[]> = {};
      const req = {
        method,
        url: path,
        headers,
        socket: { remoteAddress: '127.0.0.1' },
        resume: () => req,
        on(event: string, listener: (chunk?: Buffer) => void) {
          listeners[event] = [...(listeners[event] ?? []), listener];
          if (event === 'end')
            queueMicrotask(() => {
              if (raw) for (const l of listeners.data ?? []) l(raw);
              for (const l of listeners.end ?? []) l();
            });
          return req;
        },
      };
      let status = 0;
      const res = {
        req,
        headersSent: false,
        writeHead(code: number) {
          status = code;
          res.headersSent = true;
          return res;
        },
        end(data?: string | Buffer) {
          resolve({ status, body: parse && data ? JSON.parse(String(data)) : undefined });
        },
        destroy: () => resolve({ status: -1, body: undefined }),
      };
      app.handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    });
  return { rt, send };
}

/** A note body whose subject takes `size` characters. */
const noteBody = (size: number) => Buffer.from(JSON.stringify({ subject: 's'.repeat(size), body: 'b' }));

describe('1 MB note subjects', () => {
  it('keeps the heap after GC flat over 1,000 notes of 1 MB created and deleted, the log cut and the dump answering', async () => {
    // activityLimit 100: a log entry that kept its note's subject alive would hold 100 MB.
    const { rt, send } = await inProcess({ activityLimit: 100 });
    // Through the app: a 1 MB subject (a 1 MB body is under the 1 MiB limit) is kept whole, quoted
    // cut in the log, and the dump answers.
    const created = await send('POST', '/v1/sites/123456/notes', noteBody(1_000_000));
    expect(created.body.data.subject).toHaveLength(1_000_000);
    expect((await send('DELETE', `/v1/sites/123456/notes/${created.body.data.id}`)).status).toBe(200);
    const texts = rt.state.activity.slice(-2).map((e) => e.message.length);
    expect(Math.max(...texts)).toBeLessThanOrEqual(ACTIVITY_FIELD_LIMIT);
    expect((await send('GET', '/__sandbox/state')).status).toBe(200);
    // 1,000 more through the notes handlers (the app's own step after parsing and validation, so
    // no 1 MB body to parse and answer each time). Each subject is a new 1 MB string (one decode of
    // one reused buffer): anything that kept one alive (a note, a log entry, a slice of it) shows.
    const source = Buffer.from('s'.repeat(1_000_000), 'latin1');
    const request = { method: 'POST', headers: {}, socket: { remoteAddress: '127.0.0.1' } } as IncomingMessage;
    const run = (op: 'createSiteNote' | 'deleteSiteNote', params: object, body?: object) =>
      (handlers[op] as (ctx: unknown) => { data: { id: number } | null })(
        new RequestCtx(rt, op, request, null, { params, query: {}, body }),
      );
    const note = () => {
      const created = run('createSiteNote', { site_id: 123456 }, { subject: source.toString('latin1'), body: 'b' });
      run('deleteSiteNote', { site_id: 123456, note_id: created.data!.id });
    };
    for (let i = 0; i < 20; i++) note(); // warm-up
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1000; i++) note();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    expect(rt.state.notes.every((n) => n.subject.length < 1_000_000)).toBe(true);
    expect(rt.activityTextSize).toBeLessThanOrEqual(ACTIVITY_TEXT_LIMIT);
  }, 120_000);

  it('cuts every text of a log entry at 1,000 characters, ending in …', async () => {
    const { rt } = await inProcess();
    const entry = rt.logActivity({ name: 'settings', description: 'd'.repeat(5000), message: 'm'.repeat(5000) });
    expect([entry.message.length, entry.description.length]).toEqual([ACTIVITY_FIELD_LIMIT, ACTIVITY_FIELD_LIMIT]);
    expect(entry.message.endsWith('…')).toBe(true);
  });
});

describe('the state size limit', () => {
  it('refuses a write whose body would take the state past 64 Mi, with the envelope; the dump answers; deleting frees room', async () => {
    expect(STATE_SIZE_LIMIT).toBe(64 * 1024 * 1024);
    // With the response self-check: the refusal is an answer the spec documents for the operation.
    const undocumented: string[] = [];
    const { rt, send } = await inProcess({ selfCheck: true, onError: (message) => undocumented.push(message) });
    const body = noteBody(1_000_000);
    let refused: Answer | undefined;
    let accepted = 0;
    while (!refused && accepted < 100) {
      const answer = await send('POST', '/v1/sites/123456/notes', body, false);
      if (answer.status === 200) accepted++;
      else refused = await send('POST', '/v1/sites/123456/notes', body);
    }
    // 67 notes of 1 MB fit in 64 Mi; the state stays within it.
    expect(accepted).toBe(67);
    expect(refused!.status).toBe(400);
    expect(refused!.body).toMatchObject({ message: 'There was a problem processing your request.', data: null });
    expect(refused!.body.errors[0]).toMatch(/^body: the sandbox keeps at most 67108864 characters of state \(it holds/);
    expect(stateSize(rt.state)).toBeLessThanOrEqual(STATE_SIZE_LIMIT);
    // A small write still fits; a write without a body is never refused.
    const seeded = rt.state.notes[0]!;
    const small = { subject: 'short', body: 'b' };
    expect((await send('PUT', `/v1/sites/${seeded.siteId}/notes/${seeded.id}`, small, false)).status).toBe(200);
    // Filled to 10 characters below the limit (a merge patch, held to the limit too): the smallest
    // note is refused, while reads sent with a body (searches) and the token operations are not
    // writes and still answer.
    const organization = 'o'.repeat(rt.state.account.organization.length + STATE_SIZE_LIMIT - 10 - stateSize(rt.state));
    expect((await send('PATCH', '/__sandbox/state', { account: { organization } })).status).toBe(200);
    expect(stateSize(rt.state)).toBe(STATE_SIZE_LIMIT - 10);
    expect((await send('POST', '/v1/sites/123456/notes', { subject: 's', body: 'b' })).status).toBe(400);
    expect((await send('POST', '/v1/sites/search', { filters: [] }, false)).status).toBe(200);
    expect((await send('POST', '/v1/account/logs/activity', {}, false)).status).toBe(200);
    const form = Buffer.from('grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret');
    expect((await send('POST', '/auth/token', form, false, 'application/x-www-form-urlencoded')).status).toBe(200);
    expect(undocumented).toEqual([]);
    const dump = await send('GET', '/__sandbox/state');
    expect(dump.status).toBe(200);
    expect(dump.body.data.notes).toHaveLength(rt.state.notes.length);
    // The merge patch is held to the same limit.
    const patch = await send('PATCH', '/__sandbox/state', {
      account: { organization: `${organization}${'o'.repeat(20)}` },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.errors[0]).toMatch(/its state takes about \d+ characters, more than the sandbox keeps/);
    const big = rt.state.notes.find((n) => n.subject.length === 1_000_000)!;
    expect((await send('DELETE', `/v1/sites/123456/notes/${big.id}`)).status).toBe(200);
    expect((await send('POST', '/v1/sites/123456/notes', body, false)).status).toBe(200);
  });

  it('counts what the state control routes load (replace and merge patch), and the dump refuses a state past 80 Mi', async () => {
    // A 1 MiB limit (`stateLimit`), so the state routes can fill it with bodies of about 1 MB.
    const stateLimit = 1024 * 1024;
    const { rt, send } = await inProcess({ stateLimit, bodyLimit: 4 * 1024 * 1024 });
    expect((await send('POST', '/v1/sites/123456/notes', noteBody(10), false)).status).toBe(200); // walked: small
    // A patch that leaves the state just under the limit: the next write is measured against it.
    const organization = 'o'.repeat(stateLimit - stateSize(rt.state) - 1_000);
    expect((await send('PATCH', '/__sandbox/state', { account: { organization } })).status).toBe(200);
    const after = await send('POST', '/v1/sites/123456/notes', noteBody(10_000));
    expect(after.status).toBe(400);
    // A replaced state past the limit is refused whole.
    const dump = (await send('GET', '/__sandbox/state')).body.data;
    dump.account.name = 'n'.repeat(10_000);
    const put = await send('PUT', '/__sandbox/state', dump);
    expect(put.status).toBe(400);
    expect(put.body.errors[0]).toMatch(/more than the sandbox keeps \(1048576\)/);
    // Only a state changed in-process can pass the dump's limit: a 400 envelope, not a 500.
    rt.state.notes[0]!.body = 'x'.repeat(DUMP_SIZE_LIMIT);
    const refused = await send('GET', '/__sandbox/state');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'There was a problem processing your request.', data: null });
    expect(refused.body.errors[0]).toMatch(/more than the dump answers \(83886080\)/);
  });
});

describe('records the sandbox keeps on its own', () => {
  it('keeps the last 1,000 alerts, each text cut at 1,000 characters', async () => {
    const { rt } = await inProcess();
    const first = rt.publishAlert({ type: 'site.test', category: 'completed', title: 't', message: 'm' });
    for (let i = 0; i < ALERT_LIMIT; i++)
      rt.publishAlert({ type: 'site.test', category: 'completed', title: 't', message: 'm' });
    expect(rt.state.alerts).toHaveLength(ALERT_LIMIT);
    expect(rt.state.alerts.some((a) => a.id === first.id)).toBe(false);
    const long = rt.publishAlert({
      type: 'site.test',
      category: 'completed',
      title: 't'.repeat(5000),
      message: 'm'.repeat(5000),
    });
    expect([long.title.length, long.message.length]).toEqual([ACTIVITY_FIELD_LIMIT, ACTIVITY_FIELD_LIMIT]);
  });

  it('takes at most 100 faults and 100 armed outcomes at once, each at most 4,096 characters', async () => {
    const { send } = await inProcess();
    const fault = { operationId: 'getSite', fault: 'status', status: 503 };
    const outcome = { outcome: 'git_deploy_failed', site_id: 123456 };
    for (let i = 0; i < 100; i++) {
      expect((await send('POST', '/__sandbox/faults', fault)).status).toBe(200);
      expect((await send('POST', '/__sandbox/outcomes', outcome)).status).toBe(200);
    }
    const faults = await send('POST', '/__sandbox/faults', fault);
    expect(faults.status).toBe(400);
    expect(faults.body.errors).toEqual(['at most 100 faults at once: DELETE /__sandbox/faults clears them']);
    expect((await send('POST', '/__sandbox/outcomes', outcome)).body.errors).toEqual([
      'at most 100 outcomes at once: DELETE /__sandbox/outcomes clears them',
    ]);
    expect((await send('DELETE', '/__sandbox/faults')).status).toBe(200);
    const long = await send('POST', '/__sandbox/faults', {
      method: 'GET',
      path: `/${'p'.repeat(5000)}`,
      fault: 'drop',
    });
    expect(long.body.errors).toEqual(['body: one of the faults takes at most 4096 characters']);
    expect((await send('POST', '/__sandbox/faults', fault)).status).toBe(200);
  });

  it('refuses a --seed fixture past the state size limit, naming the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'budget-')), 'big.json');
    writeFileSync(file, JSON.stringify(seedState(Date.parse(START))));
    expect(() => loadFixture(file, 1_000)).toThrow(
      new RegExp(
        `^Seed fixture ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a sandbox state: \\(the fixture\\): its state takes about \\d+ characters, more than the sandbox keeps \\(1000\\)$`,
      ),
    );
    expect(loadFixture(file).account.id).toBe(98765);
  });
});

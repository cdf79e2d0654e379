// The gate's read-only run (the default) sends only what the spec calls safe: a safe method and no
// stated effect (@hosting-api/openapi/model `safe`). Against the sandbox behind a server that
// records every request, no operation with an effect is sent: not the SSH disconnect GET, not the
// database-admin URL GET, no write. The gate is the one installed from its packed tarball (gate.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listenLocal, passOn, relay, runContractCli } from './gate';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let proxy: Awaited<ReturnType<typeof listenLocal>>;
const seen: string[] = [];
const json = join(mkdtempSync(join(tmpdir(), 'gate-safety-')), 'report.json');
let run: Awaited<ReturnType<typeof runContractCli>>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0 });
  const server = http.createServer(async (req, res) => {
    seen.push(`${req.method} ${(req.url ?? '/').split('?')[0]}`);
    const answer = await passOn(req, sandbox.authUrl);
    relay(res, answer, await answer.text());
  });
  proxy = await listenLocal(server);
  run = await runContractCli(
    ['check', '--base-url', `${proxy.url}/v1`, '--client-id', 'sandbox-client', '--max-examples', '1', '--json', json],
    { CONTRACT_CLIENT_SECRET: 'sandbox-secret' },
  );
}, 300_000);
afterAll(async () => {
  await proxy?.close();
  await sandbox?.stop();
});

it('a read-only run sends no operation the spec states an effect for, and says it left them out', async () => {
  const model = await loadModel();
  const pattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  const sentOps = new Set<string>();
  for (const line of seen) {
    const [method, path] = line.split(' ') as [string, string];
    const v1 = path.replace(/^\/v1(?=\/)/, '');
    for (const o of model.operations)
      if (o.method.toUpperCase() === method && pattern(o.outsideV1 ? o.path : o.path).test(o.outsideV1 ? path : v1))
        sentOps.add(o.operationId);
  }
  const unsafe = model.operations.filter((o) => !o.safe && !o.outsideV1).map((o) => o.operationId);
  expect(seen.length, run.output.slice(-2000)).toBeGreaterThan(100);
  expect([...sentOps].filter((id) => unsafe.includes(id))).toEqual([]);
  expect(sentOps.has('getSite')).toBe(true);
  const cases: { operation?: string; outcome: string; reason?: string }[] = JSON.parse(
    readFileSync(json, 'utf8'),
  ).checks;
  const disconnect = cases.filter((c) => c.operation === 'getSiteDisconnectSsh');
  expect(disconnect.length).toBeGreaterThan(0);
  expect(disconnect.every((c) => c.outcome === 'skipped' && /not safe by the spec/.test(c.reason ?? ''))).toBe(true);
  // Colour codes only on a terminal: this output is a pipe.
  expect(run.output).not.toContain(`${String.fromCharCode(27)}[`);
});

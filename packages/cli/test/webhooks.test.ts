// `hosting-api webhooks trigger` and `webhooks listen --forward-to`, in-process: against one sandbox,
// and against two with a profile on one of them.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebhookReceiver } from '@hosting-api/client';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

let sb: Sandbox;
/** A second sandbox, on another port: the profile of the target tests is not on it. */
let other: Sandbox;
let receiver: http.Server;
let forwardTo: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  [sb, other] = await Promise.all([startSandbox({ speed: 0 }), startSandbox({ speed: 0 })]);
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  forwardTo = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(async () => {
  await Promise.all([sb?.stop(), other?.stop()]);
  await new Promise((resolve) => receiver?.close(resolve));
});

/** No target: a config folder of its own (none stored), no HOSTING_API_* variables; `--sandbox` names it. */
const cli = (args: string[], onErr?: (text: string) => void) =>
  runCli(args, { onErr, env: { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hosting-api-webhooks-')) } });

describe('hosting-api webhooks', () => {
  it('trigger sends one valid delivery; listen forwards it with its headers', async () => {
    let ready!: () => void;
    const listening = new Promise<void>((resolve) => (ready = resolve));
    const listen = cli(
      ['webhooks', 'listen', '--forward-to', forwardTo, '--sandbox', sb.authUrl, '--interval', '20', '--count', '2'],
      (err) => err.includes('Forwarding') && ready(),
    );
    await listening;
    const trigger = await cli([
      'webhooks',
      'trigger',
      'git_deploy_completed',
      '--site',
      '123456',
      '--sandbox',
      sb.authUrl,
    ]);
    expect(trigger).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(trigger.out)).toMatchObject({
      event: 'git_deploy_completed',
      payload: { git: { state: 'deployed' } },
    });
    await cli([
      'webhooks',
      'trigger',
      'git_deploy_completed',
      '--site',
      '123456',
      '--deploy',
      '3101',
      '--sandbox',
      sb.authUrl,
    ]);
    const done = await listen;
    expect(done.code).toBe(0);
    expect(done.out.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^git_deploy_completed delivery \\d+ → ${forwardTo} 200$`)),
      expect.stringMatching(new RegExp(`^git_deploy_completed delivery \\d+ → ${forwardTo} 200$`)),
    ]);
    expect(received).toHaveLength(2);
    const rx = createWebhookReceiver();
    for (const delivery of received) {
      const parsed = await rx.receive(delivery);
      expect(parsed).toMatchObject({
        event: 'git_deploy_completed',
        payload: { git: { state: 'deployed' } },
        repeat: false,
      });
    }
  });

  it('says what to fix, with the usage or network exit status', async () => {
    const unknown = await cli(['webhooks', 'trigger', 'site_created', '--site', '123456', '--sandbox', sb.authUrl]);
    expect(unknown.code).toBe(6);
    expect(unknown.err).toContain("body.event: one of the spec's webhook events: git_deploy_completed");
    const badSite = await cli([
      'webhooks',
      'trigger',
      'git_deploy_completed',
      '--site',
      'abc',
      '--sandbox',
      sb.authUrl,
    ]);
    expect(badSite).toMatchObject({ code: 2, err: 'error: --site must be a whole number, got "abc"\n' });
    const badUrl = await cli(['webhooks', 'listen', '--forward-to', 'ftp://x', '--sandbox', sb.authUrl]);
    expect(badUrl).toMatchObject({ code: 2, err: 'error: --forward-to must be an http(s) URL, got "ftp://x"\n' });
    const down = await cli([
      'webhooks',
      'trigger',
      'git_deploy_completed',
      '--site',
      '1',
      '--sandbox',
      'http://127.0.0.1:9',
    ]);
    expect(down.code).toBe(8);
    expect(down.err).toContain('cannot reach the sandbox at http://127.0.0.1:9');
  });
});

describe('hosting-api webhooks follow the target', () => {
  const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hosting-api-webhooks-')) };
  const recorded = async (s: Sandbox) =>
    ((await (await fetch(`${s.authUrl}/__sandbox/webhooks`)).json()) as { data: { id: number }[] }).data.map(
      (d) => d.id,
    );
  const trigger = (...more: string[]) =>
    runCli(['webhooks', 'trigger', 'git_deploy_completed', '--site', '123456', ...more], { env });

  beforeAll(async () => {
    const { clientId, clientSecret } = sb.clients[0]!;
    const login = await runCli(['auth', 'login', '--profile', 'a', '--base-url', sb.url, '--client-id', clientId], {
      env,
      stdin: `${clientSecret}\n`,
    });
    expect(login.code, login.err).toBe(0);
  });

  it("two sandboxes, a profile on one: trigger and listen call only the profile's", async () => {
    const [mine, theirs] = [await recorded(sb), await recorded(other)];
    const sent = await trigger('--profile', 'a');
    expect(sent).toMatchObject({ code: 0, err: '' });
    const delivery = JSON.parse(sent.out).delivery as number;
    expect(await recorded(sb)).toEqual([...mine, delivery]);
    expect(await recorded(other)).toEqual(theirs);

    // listen forwards the profile's sandbox's delivery, not the one the other sandbox records first.
    let ready!: () => void;
    const listening = new Promise<void>((resolve) => (ready = resolve));
    const listen = runCli(
      ['webhooks', 'listen', '--profile', 'a', '--forward-to', forwardTo, '--interval', '20', '--count', '1'],
      { env, onErr: (err) => err.includes('Forwarding') && ready() },
    );
    await listening;
    expect((await trigger('--base-url', other.url)).code).toBe(0);
    const next = JSON.parse((await trigger('--profile', 'a')).out).delivery as number;
    const done = await listen;
    expect(done.err).toContain(`Forwarding the webhook deliveries of ${sb.authUrl} to`);
    expect(done.out).toMatch(new RegExp(`^git_deploy_completed delivery ${next} → `));
  });

  it('--base-url and the environment win over the profile, as in every command', async () => {
    const theirs = await recorded(other);
    const byFlag = await trigger('--profile', 'a', '--base-url', other.url);
    const byEnv = await runCli(['webhooks', 'trigger', 'git_deploy_completed', '--site', '123456', '--profile', 'a'], {
      env: { ...env, HOSTING_API_BASE_URL: other.url },
    });
    expect([byFlag.code, byEnv.code]).toEqual([0, 0]);
    expect((await recorded(other)).length).toBe(theirs.length + 2);
  });

  it('a profile on one sandbox and --sandbox (or HOSTING_API_SANDBOX_URL) on another: refused, naming both', async () => {
    const before = [await recorded(sb), await recorded(other)];
    const byFlag = await trigger('--profile', 'a', '--sandbox', other.authUrl);
    expect(byFlag).toMatchObject({
      code: 2,
      err: `error: --sandbox ${other.authUrl} is another sandbox than the target's ${sb.authUrl} (profile a): drop one, or make them agree\n`,
    });
    const byEnv = await runCli(
      ['webhooks', 'listen', '--forward-to', forwardTo, '--base-url', sb.url, '--count', '1'],
      { env: { ...env, HOSTING_API_SANDBOX_URL: other.authUrl } },
    );
    expect(byEnv.code).toBe(2);
    expect(byEnv.err).toContain(
      `HOSTING_API_SANDBOX_URL ${other.authUrl} is another sandbox than the target's ${sb.authUrl} (--base-url)`,
    );
    expect(await trigger('--profile', 'a', '--sandbox', `${sb.authUrl}/`)).toMatchObject({ code: 0 });
    expect([(await recorded(sb)).length, await recorded(other)]).toEqual([before[0]!.length + 1, before[1]]);
  });

  it('no target and no --sandbox: one line saying what to give', async () => {
    expect(await runCli(['webhooks', 'trigger', 'git_deploy_completed', '--site', '1'], { env })).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^error: no sandbox: pass --base-url .* or give --sandbox\n$/),
    });
  });
});

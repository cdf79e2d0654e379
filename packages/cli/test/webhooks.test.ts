// `hosting-api webhooks trigger` and `webhooks listen --forward-to` against one sandbox, in-process.
import http from 'node:http';
import { createWebhookReceiver } from '@hosting-api/client';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

let sb: Sandbox;
let receiver: http.Server;
let forwardTo: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  sb = await startSandbox({ speed: 0 });
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
  await sb?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const cli = (args: string[], onErr?: (text: string) => void) => runCli(args, { onErr });

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

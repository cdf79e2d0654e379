// `pnpm docs:serve` serves the built portal on localhost.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '../scripts/serve.mjs');

describe('docs:serve', () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill();
  });

  it('serves the portal and its spec on 127.0.0.1, and nothing outside dist/', async () => {
    server = spawn(process.execPath, [script, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(server.stdout!, 'data')) as [Buffer];
    const base = /http:\/\/127\.0\.0\.1:\d+\//.exec(line.toString())?.[0];
    expect(base).toBeDefined();
    const page = await fetch(base!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<title>Hosting Platform Management API v1</title>');
    const spec = await fetch(`${base}openapi.json`);
    expect(((await spec.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await fetch(`${base}..%2Fpackage.json`)).status).toBe(403);
    expect((await fetch(`${base}missing.html`)).status).toBe(404);
    // A malformed percent-encoding is the client's error, and the server goes on serving.
    const malformed = await fetch(`${base}%E0%A4%A`);
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain('malformed URL');
    expect((await fetch(base!)).status).toBe(200);
  });

  it('says in one line what to do when the port is busy', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    try {
      const port = String((busy.address() as { port: number }).port);
      const child = spawn(process.execPath, [script, '--port', port, '--no-sandbox'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(1);
      expect(err).toBe(
        `docs:serve: port ${port} is in use; pass another with --port <n> (or PORT=<n>), or stop what is using it\n`,
      );
    } finally {
      busy.close();
    }
  });

  it('refuses a bad port with a message that says what to pass', async () => {
    const child = spawn(process.execPath, [script, '--port', 'nope'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(err).toContain('pass --port <0-65535>');
  });
});

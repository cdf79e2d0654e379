// The mock as a client sees it: /v1 and the auth root, the spec's envelopes, readable errors.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSpecPath, type RunningMock, startMock } from '../src/index.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.stop();
});

const auth = { Authorization: 'Bearer test-token' };

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(mock.url + path, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text ? JSON.parse(text) : undefined };
}

describe('startMock', () => {
  it('reports its base and auth URLs', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.baseUrl).toBe(`${mock.url}/v1`);
    expect(mock.authUrl).toBe(mock.url);
  });

  it('serves the token operation at the auth root, like the real service', async () => {
    const res = await call('/auth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=id&client_secret=secret',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.token_type).toBe('Bearer');
    expect(typeof res.body.data.access_token).toBe('string');
  });

  it('serves API operations under /v1 with the static example', async () => {
    const first = await call('/v1/sites/123456', { headers: auth });
    const second = await call('/v1/sites/123456', { headers: auth });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: 'Success', errors: null, data: { id: 123456 } });
    expect(second.body).toEqual(first.body);
  });

  it('answers a request without a bearer token with the spec 401 envelope', async () => {
    const res = await call('/v1/sites/123456');
    expect(res.status).toBe(401);
    expect(res.type).toContain('application/json');
    expect(res.body).toMatchObject({ data: null });
    expect(res.body).toHaveProperty('message');
  });

  it('selects a documented response with Prefer: code=…', async () => {
    const res = await call('/v1/sites/123456', { headers: { ...auth, Prefer: 'code=404' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'We could not locate the requested resources.', data: null, errors: null });
  });

  it('answers unknown routes with a 404 envelope that says where operations live', async () => {
    const unknown = await call('/v1/no-such-thing', { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.type).toContain('application/json');
    expect(unknown.body.message).toBe('We could not locate the requested resources.');
    expect(unknown.body.errors[0]).toContain('GET /v1/no-such-thing');

    const unversioned = await call('/sites', { headers: auth });
    expect(unversioned.status).toBe(404);
    expect(unversioned.body.errors[0]).toContain('under /v1');

    const tokenUnderV1 = await call('/v1/auth/token', { method: 'POST' });
    expect(tokenUnderV1.status).toBe(404);
    expect(tokenUnderV1.body.errors[0]).toContain('outside /v1: POST /auth/token and POST /auth/revoke.');
  });

  it('answers an invalid request with a 400 envelope naming the problem', async () => {
    const path = await call('/v1/sites/not-a-number', { headers: auth });
    expect(path.status).toBe(400);
    expect(path.body.message).toBe('There was a problem processing your request.');
    expect(path.body.errors.join(' ')).toMatch(/site_id/);

    const body = await call('/auth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    });
    expect(body.status).toBe(400);
    expect(body.body.errors.join(' ')).toMatch(/client_id/);
  });

  // Prism leaves a malformed JSON body unanswered and exits on a path or a form body it cannot
  // percent-decode (every later request then failed with 502); the front answers these itself.
  it('answers input Prism cannot take, as the sandbox reads it, and stays up', async () => {
    const json = { ...auth, 'Content-Type': 'application/json' };
    const malformed = await call('/v1/sites/123456/notes', { method: 'POST', headers: json, body: '{bad' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      message: 'There was a problem processing your request.',
      data: null,
      errors: [expect.stringMatching(/^body: malformed JSON \(/)],
    });
    // A body the operation does not declare is ignored, whatever it holds.
    const ignored = await call('/v1/sites/123456', { method: 'DELETE', headers: json, body: '{bad' });
    expect(ignored.status).toBe(200);
    // A form body is decoded leniently: '%%%' is a field of that name, so the required ones are missing.
    const form = await call('/auth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '%%%&grant_type=client_credentials',
    });
    expect(form.status).toBe(400);
    expect(form.body.errors).toContain("body: Request body must have required property 'client_id'");
    const path = await call('/v1/sites/%E0%A4%A', { headers: auth });
    expect(path).toMatchObject({
      status: 404,
      body: { message: 'We could not locate the requested resources.', data: null },
    });
    const query = await call('/v1/sites?page=%ZZ', { headers: auth });
    expect(query.status).toBe(400);
    expect(query.body.errors).toEqual([expect.stringContaining('query.page')]);
    // Prism's own error formats (its server's `{"error": …}`, a 500 for a media type it cannot
    // read) and a request Node cannot parse get the envelope too.
    const odd = await call('/v1/sites/123456/notes', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json;;;' },
      body: '{"subject":"a","body":"b"}',
    });
    expect(odd).toMatchObject({
      status: 400,
      body: { message: 'There was a problem processing your request.', data: null },
    });
    const huge = await call('/v1/sites', { headers: { ...auth, 'X-Padding': 'x'.repeat(20_000) } });
    expect(huge).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('malformed HTTP request')] } });
    expect((await call('/v1/sites/123456', { headers: auth })).status).toBe(200);
  });

  it('answers a method the path does not have with 405 and an envelope', async () => {
    const res = await call('/v1/sites', { method: 'PATCH', headers: auth });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ data: null, errors: [expect.stringContaining('PATCH')] });
  });

  it('takes Prism down with it when its process exits without stop()', async () => {
    // A copy of the spec under a unique path: the Prism started for it is the only process that
    // names that path.
    const dir = mkdtempSync(join(tmpdir(), 'mock-exit-'));
    const spec = join(dir, 'openapi.json');
    copyFileSync(defaultSpecPath(), spec);
    const script = `import { startMock } from ${JSON.stringify(join(__dirname, '..', 'dist', 'index.js'))};
      await startMock({ port: 0, spec: ${JSON.stringify(spec)} }); console.log('started'); process.exit(0);`;
    const prismsFor = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(spec);
          } catch {
            return false; // gone meanwhile
          }
        });
    // Its scratch files go to a folder of this test's, to see that none is left.
    const scratch = join(dir, 'tmp');
    mkdirSync(scratch);
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TMPDIR: scratch },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toContain('started');
    expect(code).toBe(0);
    // SIGKILL is immediate; give the kernel a moment to reap it.
    for (let i = 0; i < 20 && prismsFor().length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(prismsFor()).toEqual([]);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('refuses a 10 MB body and JSON 5,000 deep before Prism sees them, keeps answering, RSS under 300 MB', async () => {
    const big = await call('/v1/sites/123456/notes', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: 'x'.repeat(10 * 1024 * 1024), body: 'b' }),
    });
    expect(big.status).toBe(400);
    expect(big.body).toEqual({
      message: 'There was a problem processing your request.',
      data: null,
      errors: ['body: larger than the 1048576 bytes allowed'],
    });
    // Unauthenticated, 30 KB: Prism would parse it before anything else.
    const deep = await call('/v1/sites/123456/notes', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.errors).toEqual(['body: JSON nested deeper than 64 levels']);
    // A chunked body (no Content-Length) over the limit is cut off as it arrives.
    const chunks = (async function* () {
      for (let i = 0; i < 20; i++) yield new Uint8Array(1024 * 1024).fill(32);
    })();
    const chunked = await fetch(`${mock.url}/v1/sites/123456/notes`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: chunks as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect((await call('/v1/sites/123456', { headers: auth })).status).toBe(200);
    const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
    const prism = readdirSync('/proc').find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(process.pid);
      } catch {
        return false;
      }
    });
    expect(prism).toBeDefined();
    expect(rss(Number(prism))).toBeLessThan(300 * 1024 * 1024);
    expect(rss(process.pid)).toBeLessThan(300 * 1024 * 1024 + 200 * 1024 * 1024); // this process runs vitest too
  });

  it('answers the early 400 for an over-limit body before it closes: 0 of 80 lost', async () => {
    // A client that reads only once it has written the whole body (as curl and most blocking
    // clients do): closing while it still writes would reset the connection and lose the answer.
    const { port } = new URL(mock.url);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const once = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        socket.pause();
        let text = '';
        const outcome = (why: string) => resolve(text.startsWith('HTTP/1.1 400 ') ? '400' : why);
        socket.on('data', (c) => {
          text += c;
          if (text.includes('\r\n\r\n')) socket.destroy(); // the status line and headers are enough
        });
        socket.on('error', (error: NodeJS.ErrnoException) => outcome(error.code ?? error.message));
        socket.on('close', () => outcome('no answer'));
        socket.write(
          `POST /v1/sites/123456/notes HTTP/1.1\r\nHost: mock\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${64 * chunk.length}\r\n\r\n`,
        );
        let left = 64;
        const write = () => {
          while (left-- > 0) if (!socket.write(chunk)) return void socket.once('drain', write);
          socket.resume();
        };
        write();
      });
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) outcomes.push(...(await Promise.all(Array.from({ length: 10 }, once))));
    expect(outcomes.filter((o) => o !== '400')).toEqual([]);
  });

  it('answers a client that half-closes after a full request', async () => {
    const { port } = new URL(mock.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        // The whole request, then the end of the client's side (FIN): it still reads.
        socket.end('GET /v1/sites/123456 HTTP/1.1\r\nHost: mock\r\nAuthorization: Bearer t\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  // Last of this block: it stops the file's mock (stop() is idempotent, so afterAll is a no-op).
  it('stops: the port no longer answers', async () => {
    await mock.stop();
    await expect(fetch(`${mock.url}/v1/sites`)).rejects.toThrow();
  });
});

/** A one-operation spec: Prism starts in a fraction of the bundle's time. */
function tinySpec(): string {
  const spec = join(mkdtempSync(join(tmpdir(), 'mock-tiny-')), 'openapi.json');
  const ok = {
    description: 'ok',
    content: { 'application/json': { example: { message: 'Success', data: 1, errors: null } } },
  };
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/ping': { get: { responses: { 200: ok } } } },
    }),
  );
  return spec;
}

describe('hosting-api-mock CLI', () => {
  const cli = join(__dirname, '..', 'dist', 'cli.js');

  it('prints the URL it listens on and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--quiet']);
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    expect(out).toContain(`base URL: ${url}/v1`);
    const res = await fetch(`${url}/v1/sites`, { headers: auth });
    expect(res.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    await expect(fetch(`${url}/v1/sites`)).rejects.toThrow();
  });

  it('stops with one line and exit 1 when Prism dies under it, instead of answering 502 to everything', async () => {
    const spec = tinySpec();
    const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', '--spec', spec]);
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
    });
    expect((await fetch(`${url}/v1/ping`)).status).toBe(200);
    const prism = readdirSync('/proc').find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(child.pid);
      } catch {
        return false;
      }
    });
    expect(prism, 'Prism runs as a child of the mock').toBeDefined();
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', resolve);
      process.kill(Number(prism), 'SIGKILL');
    });
    expect(code).toBe(1);
    expect(err).toBe('hosting-api-mock: Prism, which answers for the mock, exited (SIGKILL): restart the mock\n');
  });

  it('names a busy port (exit 2), not a Prism exit', async () => {
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const child = spawn(process.execPath, [cli, '--port', String(port), '--quiet', '--spec', tinySpec()]);
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    busy.close();
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe(
      `hosting-api-mock: Port ${port} on 127.0.0.1 is in use. Pick another with --port, or stop what is listening there.`,
    );
  });

  it('takes Prism down within 2 s when the mock is killed with SIGKILL', async () => {
    const spec = tinySpec();
    const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', '--spec', spec]);
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('listening on')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const prisms = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('prism-cli');
          } catch {
            return false;
          }
        })
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(child.pid);
          } catch {
            return false;
          }
        });
    const mine = prisms();
    expect(mine).toHaveLength(1);
    await new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGKILL');
    });
    const started = Date.now();
    const alive = () =>
      existsSync(`/proc/${mine[0]}`) && !readFileSync(`/proc/${mine[0]}/stat`, 'utf8').includes(') Z ');
    // Wait on Prism's own exit (its pipe from the mock closed), up to 2 s.
    while (alive() && Date.now() - started < 2000) await new Promise((r) => setImmediate(r));
    expect(alive()).toBe(false);
  });

  it('rejects a bad option with a message and a non-zero exit', async () => {
    const child = spawn(process.execPath, [cli, '--port', 'abc']);
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be an integer');
    // A value that starts with "-": one line that says how to write it, not node:util's three.
    const negative = spawnSync(process.execPath, [cli, '--port', '-1'], { encoding: 'utf8' });
    expect(negative.status).toBe(2);
    expect(negative.stderr.split('\n')[0]).toBe(
      'hosting-api-mock: --port needs a value (write --port=VALUE for one that starts with "-")',
    );
  });
});

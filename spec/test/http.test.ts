// The reader (http/node.js, http/web.js) against a hostile loopback server of this file's own: an
// endless answer, a gzip bomb, a trickle, a redirect, a lying Content-Length.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflate, limitedFetch, request } from '../http/node.js';
import { limitServer, serverOptions } from '../http/server.js';
import { readText } from '../http/web.js';

const MiB = 1024 * 1024;
const bomb = gzipSync(Buffer.alloc(64 * MiB)); // about 64 KiB of gzip
let base = '';
let server: http.Server;
let trickles: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (res.write(chunk));
      };
      res.on('drain', more);
      more();
    } else if (req.url === '/bomb') {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(bomb);
    } else if (req.url === '/small-gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
    } else if (req.url === '/trickle') {
      res.writeHead(200);
      trickles.push(setInterval(() => res.write('a'), 20));
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/small' }).end();
    } else if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': String(100 * MiB) });
      res.write('a');
    } else {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(200).end(`${req.method} ${body}`));
    }
  });
  server.on('connection', (socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const t of trickles) clearInterval(t);
  trickles = [];
  server.closeAllConnections();
  server.close();
});

describe('request()', () => {
  it('stops an endless answer at the byte cap', async () => {
    await expect(request(`${base}/endless`, {}, { maxBytes: 2 * MiB })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: `the answer is over ${2 * MiB} bytes: reading stopped there`,
    });
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    await expect(request(`${base}/declared`, {}, { maxBytes: MiB })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('stops a gzip bomb at the inflated cap, and inflates a small answer', async () => {
    await expect(
      request(`${base}/bomb`, {}, { decompress: true, maxBytes: MiB, maxInflated: 4 * MiB }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE', message: expect.stringContaining('inflates to over') });
    const small = await request(`${base}/small-gzip`, {}, { decompress: true });
    expect(small.text).toBe('{"ok":true}');
    // Without `decompress`, the bytes are the gzip as sent.
    expect((await request(`${base}/small-gzip`)).bytes[0]).toBe(0x1f);
  });

  it('ends a trickle at the deadline, body included', async () => {
    await expect(request(`${base}/trickle`, {}, { deadline: 150 })).rejects.toMatchObject({
      code: 'DEADLINE',
      message: expect.stringMatching(/^no complete answer within 150 ms \(\d+ bytes of the body came\)$/),
    });
  });

  it('answers a redirect as it is unless asked to follow it', async () => {
    const answer = await request(`${base}/redirect`);
    expect([answer.status, answer.headers.location]).toEqual([302, '/small']);
    expect((await request(`${base}/redirect`, {}, { redirects: 1 })).text).toBe('GET ');
  });

  it('sends a body, a GET included', async () => {
    expect((await request(`${base}/echo`, { method: 'GET', body: 'hello' })).text).toBe('GET hello');
  });
});

describe('inflate()', () => {
  it('stops at maxBytes', () => {
    expect(() => inflate(bomb, { maxBytes: 4 * MiB })).toThrow(/inflates to over 4194304 bytes/);
    expect(inflate(gzipSync('x'), { maxBytes: 1 }).toString()).toBe('x');
  });
});

describe('limitedFetch() and readText()', () => {
  it('a fetch whose answers are read within the cap', async () => {
    const res = await limitedFetch({ maxBytes: 1024 })(`${base}/echo`, { method: 'POST', body: 'x' });
    expect([res.ok, res.status, await res.text()]).toEqual([true, 200, 'POST x']);
    await expect(limitedFetch({ maxBytes: 1024 })(`${base}/endless`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('readText() cancels a web stream past the cap', async () => {
    const res = await fetch(`${base}/endless`);
    await expect(readText(res, { maxBytes: MiB })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(await readText(await fetch(`${base}/echo`), { maxBytes: 100 })).toBe('GET ');
  });
});

describe('limitServer()', () => {
  it('closes the connection of a client that stopped reading its answer', async () => {
    const slow = limitServer(
      http.createServer(serverOptions({ idle: 200, keepAlive: 60_000 }), (_req, res) =>
        res.end(Buffer.alloc(16 * MiB)),
      ),
      { idle: 200 },
    );
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { port } = slow.address() as AddressInfo;
    // The server side of the connection closes, though the client never reads past its first bytes.
    const closed = new Promise<string>((resolve) =>
      slow.on('connection', (s) => s.on('close', () => resolve('closed'))),
    );
    const client = net.connect(port, '127.0.0.1', () => client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    client.once('data', () => client.pause());
    client.on('error', () => {});
    expect(await closed).toBe('closed');
    client.destroy();
    slow.close();
  });

  it('answers a client that half-closes after its request', async () => {
    const late = limitServer(
      http.createServer(serverOptions(), (req, res) => {
        req.resume();
        setTimeout(() => res.end('late answer'), 50); // answered after the client's FIN arrived
      }),
    );
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    const { port } = late.address() as AddressInfo;
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      const client = net.connect(port, '127.0.0.1', () => client.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      client.on('data', (c) => (text += c));
      client.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/late answer$/);
    late.close();
  });
});

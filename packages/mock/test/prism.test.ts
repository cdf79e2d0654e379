// Starting Prism on its private port: a port taken before Prism binds it is replaced by another,
// and readiness is an HTTP probe that only this Prism can answer (not its log text).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadModel } from '@hosting-api/openapi/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSpecPath, type RunningPrism, startPrism } from '../src/index.js';

// Another server on the port Prism is handed: it answers every request with 200, probes included.
let taken: http.Server;
let takenPort: number;
let takenRequests = 0;
beforeAll(async () => {
  taken = http.createServer((_req, res) => {
    takenRequests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ready":"someone else"}');
  });
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

const document = async () => (await loadModel(defaultSpecPath())).document;

describe('startPrism', () => {
  let prism: RunningPrism | undefined;
  afterAll(() => prism?.stop());

  it('moves to another port when the one it was handed is taken, ignoring the answers of whoever holds it', async () => {
    const ports = [takenPort];
    prism = await startPrism(await document(), {}, { pickPort: async () => ports.shift() ?? (await freePortFromOs()) });
    expect(prism.port).not.toBe(takenPort);
    expect(takenRequests).toBeGreaterThan(0); // the probe reached the other server and was not fooled
    expect(prism.child.exitCode).toBeNull();
    const res = await fetch(`http://127.0.0.1:${prism.port}/sites/123456`, { headers: { Authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
  });

  it('gives up with a clear error when every port it tries is taken', async () => {
    await expect(startPrism(await document(), {}, { pickPort: async () => takenPort, attempts: 1 })).rejects.toThrow(
      `port ${takenPort} is in use`,
    );
  });
});

function freePortFromOs(): Promise<number> {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// Node: a GET with a body goes through node:http (the global fetch refuses a body on GET).
// Selected by the package's `#get-with-body` import for the `node` condition.
import http from 'node:http';
import https from 'node:https';
import type { TransportRequest } from './transport-request';

export async function sendWithBodyOnGet(req: TransportRequest): Promise<Response> {
  const url = new URL(req.url);
  const transport = url.protocol === 'https:' ? https : http;
  const payload = Buffer.from(String(req.body));
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: 'GET', headers: { ...req.headers, 'content-length': String(payload.length) }, signal: req.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 0;
          const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: res.statusMessage, headers }));
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

// Node: a GET with a body goes through the repository's one reader (@hosting-api/openapi/http,
// node:http underneath; the global fetch refuses a body on GET), bundled into this node-only entry.
// Selected by the package's `#get-with-body` import for the `node` condition. The request's signal
// (the client's timeout) ends it at any point, and it reads at most the client's maxResponseBytes.
import { limitedFetch } from '@hosting-api/openapi/http';
import type { TransportRequest } from './transport-request';

export function sendWithBodyOnGet(req: TransportRequest): Promise<Response> {
  return limitedFetch({ maxBytes: req.maxBytes })(req.url, {
    method: 'GET',
    headers: req.headers,
    body: String(req.body),
    signal: req.signal,
  });
}

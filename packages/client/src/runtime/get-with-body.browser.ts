// Browsers (and any platform without node:http): fetch forbids a body on GET, so the two
// operations the API documents as GET with a body fail here, naming the operation and the way out.
// Selected by the package's `#get-with-body` import for the `browser` and default conditions.
import type { TransportRequest } from './transport-request';

export function sendWithBodyOnGet(req: TransportRequest): Promise<Response> {
  const name = req.operationId ? `${req.operationId} (GET ${new URL(req.url).pathname})` : `GET ${req.url}`;
  const error = new TypeError(
    `${name} sends a request body with GET, which fetch in browsers forbids. Pass createClient a custom \`fetch\` that can send it (through your own server, for example).`,
  ) as TypeError & { code: string };
  error.code = 'ERR_GET_WITH_BODY';
  return Promise.reject(error);
}

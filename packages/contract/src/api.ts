// The gate's own JSON requests to the API (the live plan's, the snapshot's, the ledger's clean-up):
// the run's token, JSON both ways, through the capped HTTP client (http-cap.ts).
import { cappedFetch } from './http-cap';
import type { Json } from './types';

/** An answer of the gate's own requests: status, text and (when it parsed) JSON. */
export interface ApiAnswer {
  statusCode: number;
  body: string;
  json?: Json;
}
/** A request with the run's token: method, path under the base URL, JSON body, Accept. */
export type Api = (method: string, path: string, body?: unknown, accept?: string) => Promise<ApiAnswer>;

/** Requests under `baseUrl` with the token `token()` answers (obtained or renewed by the caller). */
export function createApi({
  baseUrl,
  token,
  timeout,
  observe,
}: {
  baseUrl: string | URL;
  token: () => string | undefined | Promise<string | undefined>;
  timeout: number;
  /** Sees every answer (ledger.ts createObserver: what the run created and deleted). */
  observe?:
    | ((method: string, path: string, status: number, sent: string | undefined, answer: string) => void)
    | undefined;
}): Api {
  const base = new URL(String(baseUrl).endsWith('/') ? String(baseUrl) : `${baseUrl}/`);
  return async (method, path, body, accept = 'application/json') => {
    const headers: Record<string, string> = { Accept: accept, Authorization: `Bearer ${await token()}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const res = await cappedFetch(
      new URL(path.replace(/^\//, ''), base),
      { method, headers, body: sent },
      { deadline: timeout },
    );
    observe?.(method, path, res.statusCode, sent, res.body);
    let json: Json;
    try {
      json = JSON.parse(res.body);
    } catch {}
    return { ...res, json };
  };
}

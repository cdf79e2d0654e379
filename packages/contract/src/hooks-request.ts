// Pieces of the examples phase's requests (hooks.ts): a transaction's URI from the target data or
// the live plan, an id that names nothing for a live 404, and the request as a reproducer shows it.
import type { Override, Transaction } from './hooks-types';
import type { Json, OperationInfo } from './types';

function buildUri(
  info: OperationInfo,
  status: string,
  transactionUri: string,
  override: Override | undefined,
  { data, live }: { data: Json; live: boolean },
) {
  const [, query = ''] = transactionUri.split('?');
  const values: Record<string, Json> = { ...(data.params ?? {}), ...(override?.params ?? {}) };
  // In live mode a 404 is provoked with an id that does not exist (the last path parameter).
  if (live && status === '404' && (!override?.params || override.planned)) {
    const last = info.params.filter((p) => p.in === 'path').pop();
    if (last) values[last.name] = data.missing?.[last.name] ?? missingValue(last);
  }
  let path = info.path;
  for (const p of info.params.filter((x) => x.in === 'path')) {
    const value = values[p.name] ?? p.example;
    path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
  }
  const search = new URLSearchParams(query);
  for (const p of info.params.filter((x) => x.in === 'query')) {
    if (values[p.name] !== undefined) search.set(p.name, String(values[p.name]));
  }
  for (const [name, value] of Object.entries(override?.query ?? {})) search.set(name, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A value of a path parameter that names nothing on the target (live 404s without target data). */
function missingValue(param: Json) {
  const schema = param.schema ?? {};
  if (schema.format === 'email' || /email/.test(param.name)) return 'nobody-contract-gate@example.invalid';
  const types = ([] as string[]).concat(schema.type ?? 'string');
  const big = Math.min(schema.maximum ?? 2_000_000_000, 2_000_000_000);
  return types.includes('integer') || types.includes('number') ? big - 7 : String(1_999_999_993);
}

/**
 * The request as sent, for reproducers: the run's tokens stand as $TOKEN. For a failed auth probe,
 * the Authorization it sent (a garbage token, a bare "Bearer", a revoked token) as it was.
 */
function requestOf(
  transaction: Transaction,
  probe: { authorization: string; statusCode: number } | undefined,
  token: string | undefined,
) {
  const headers: Record<string, string> = { ...transaction.request.headers };
  if (headers.Authorization) headers.Authorization = headers.Authorization.replace(/^(\w+) \S+$/, '$1 $TOKEN');
  if (probe) headers.Authorization = token ? probe.authorization.replace(token, '$TOKEN') : probe.authorization;
  return {
    method: transaction.request.method,
    url: `${transaction.protocol}//${transaction.host}:${transaction.port}${transaction.fullPath}`,
    headers,
    // The token operations' form bodies hold the client secret and tokens.
    body:
      transaction.request.body
        ?.replace(/(client_secret=)[^&]*/, '$1$CONTRACT_CLIENT_SECRET')
        .replace(/(^|&)(token=)[^&]*/, '$1$2$TOKEN') || undefined,
  };
}

export { buildUri, missingValue, requestOf };

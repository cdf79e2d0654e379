// The examples phase's download check (download_conformance): a download is fetched again and its
// bytes must be what its media type says (gzip data, SQL text).
import { gunzipSync } from 'node:zlib';
import type { Transaction } from './hooks-types';
import { cappedFetch } from './http-cap';
import type { FetchInit } from './types';

// Every request of the hooks' own gives up as Dredd's do (run.ts always sets it: --request-timeout or its default).
const REQUEST_TIMEOUT = Number(process.env.CONTRACT_REQUEST_TIMEOUT);
const request = (url: string | URL, init: FetchInit) => cappedFetch(url, init, { deadline: REQUEST_TIMEOUT });

/** Sends the transaction's request again with other headers; answers {statusCode, headers, body, bytes}. */
async function resend(transaction: Transaction, headers: Record<string, string>) {
  const url = `${transaction.protocol}//${transaction.host}:${transaction.port}${transaction.fullPath}`;
  return request(url, {
    method: transaction.request.method,
    headers,
    body:
      transaction.request.body === '' || transaction.request.method === 'GET' ? undefined : transaction.request.body,
  });
}

/** What a download's media type promises: gzip data, or SQL text. */
async function downloadProblems(transaction: Transaction, mediaType: string) {
  const real = await resend(transaction, { ...transaction.request.headers });
  const { bytes } = real;
  if (real.statusCode !== 200) return [`download: fetched again, it answered ${real.statusCode}`];
  if (mediaType === 'application/gzip') {
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
      return [
        `download: application/gzip, but the body does not start with the gzip magic bytes 1f 8b (${bytes.subarray(0, 4).toString('hex') || 'empty'})`,
      ];
    try {
      gunzipSync(bytes);
    } catch (error) {
      return [`download: application/gzip, but the body is not a complete gzip stream (${(error as Error).message})`];
    }
  }
  if (mediaType === 'application/sql') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return ['download: application/sql, but the body is not UTF-8 text'];
    }
    if (text.includes('\u0000')) return ['download: application/sql, but the body holds NUL bytes (binary data)'];
    if (!/\b(CREATE|INSERT|DROP|ALTER|SET|BEGIN|LOCK)\b/i.test(text))
      return [
        'download: application/sql, but the body has no SQL statement (CREATE, INSERT, DROP, ALTER, SET, BEGIN, LOCK)',
      ];
  }
  return [];
}

export { downloadProblems, resend };

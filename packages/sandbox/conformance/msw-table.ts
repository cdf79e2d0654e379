// The shared table of requests that the sandbox server and the sandbox as MSW handlers must
// answer alike: test/msw.test.ts runs it on msw's setupServer, and the example app's browser test
// (examples/browser) on msw's worker in Chromium, with the browser build of the handlers. Kept
// outside test/ because another package's tests import it.
import { DURATIONS } from '../src/domain/runtime.js';

export interface Step {
  name: string;
  method: string;
  /** /v1/…, /auth/… or /__sandbox/…; {site} is the id of the site the table created. */
  path: string;
  body?: string;
  contentType?: string;
  /** false: no Authorization header; a string: that header; default: Bearer and the side's token. */
  auth?: false | string;
  /** Virtual time to let pass before this step. */
  advance?: number;
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const TOKEN_REQUEST = {
  grant_type: 'client_credentials',
  client_id: 'sandbox-client',
  client_secret: 'sandbox-secret',
};
export const STEPS: Step[] = [
  {
    name: 'token',
    method: 'POST',
    path: '/auth/token',
    body: form(TOKEN_REQUEST),
    auth: false,
    contentType: 'application/x-www-form-urlencoded',
  },
  {
    name: 'token, wrong secret',
    method: 'POST',
    path: '/auth/token',
    body: form({ ...TOKEN_REQUEST, client_secret: 'no' }),
    auth: false,
    contentType: 'application/x-www-form-urlencoded',
  },
  {
    name: 'token as JSON (not declared)',
    method: 'POST',
    path: '/auth/token',
    body: JSON.stringify(TOKEN_REQUEST),
    auth: false,
    contentType: 'application/json',
  },
  { name: 'list sites', method: 'GET', path: '/v1/sites?limit=2' },
  { name: 'list sites, page 2', method: 'GET', path: '/v1/sites?limit=2&page=2' },
  { name: 'a site', method: 'GET', path: '/v1/sites/123456' },
  { name: 'no such site', method: 'GET', path: '/v1/sites/999' },
  { name: 'not a canonical id', method: 'GET', path: '/v1/sites/0x1e240' },
  { name: 'a path that does not percent-decode', method: 'GET', path: '/v1/sites/%E0%A4%A' },
  // The fragment stays in the client: leaked into the query, it would make per_page "1#…", a 400.
  { name: 'a fragment, which no server sees', method: 'GET', path: '/v1/sites?per_page=1#x' },
  { name: 'no token', method: 'GET', path: '/v1/account', auth: false },
  { name: 'garbage token', method: 'GET', path: '/v1/account', auth: 'Bearer garbage' },
  { name: 'another scheme', method: 'GET', path: '/v1/account', auth: 'Basic abc' },
  { name: 'account', method: 'GET', path: '/v1/account' },
  {
    name: 'create a note',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: JSON.stringify({ subject: 'From MSW', body: 'Same answer.' }),
    contentType: 'application/json',
  },
  {
    name: 'a note without subject',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: JSON.stringify({ body: 'x' }),
    contentType: 'application/json',
  },
  {
    name: 'a note as text',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: 'subject',
    contentType: 'text/plain',
  },
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: '{"subject": ',
    contentType: 'application/json',
  },
  { name: 'the notes', method: 'GET', path: '/v1/sites/123456/notes' },
  {
    name: 'create a site',
    method: 'POST',
    path: '/v1/sites',
    body: JSON.stringify({ name: 'msw-shop' }),
    contentType: 'application/json',
  },
  { name: 'the new site, deploying', method: 'GET', path: '/v1/sites/{site}' },
  { name: 'the new site, live', method: 'GET', path: '/v1/sites/{site}', advance: DURATIONS.siteDeploy },
  { name: 'disable a site', method: 'PUT', path: '/v1/sites/123456/disable' },
  { name: 'a method the path lacks', method: 'PATCH', path: '/v1/sites/123456' },
  { name: 'an unknown path', method: 'GET', path: '/v1/no-such-thing' },
  { name: 'the PHP log, first page (a base64url scroll_id)', method: 'GET', path: '/v1/sites/123456/logs/php' },
  { name: 'a git deploy', method: 'POST', path: '/v1/sites/123456/git/deploy' },
  { name: 'the deploy history (SHA-1 commit ids)', method: 'GET', path: '/v1/sites/123456/git/history' },
  {
    name: 'a firewall rule to an IP address',
    method: 'POST',
    path: '/v1/sites/123457/firewall_rules/create',
    body: JSON.stringify({ destination: '198.51.100.7', port: '5432', protocol: 'tcp' }),
    contentType: 'application/json',
  },
  {
    name: 'a firewall rule to a malformed address',
    method: 'POST',
    path: '/v1/sites/123457/firewall_rules/create',
    body: JSON.stringify({ destination: '198.051.100.7', port: '5432', protocol: 'tcp' }),
    contentType: 'application/json',
  },
  { name: 'a backup download (gzip)', method: 'GET', path: '/v1/sites/123456/ondemand-backups/5523871/download' },
  { name: 'the clock (control route)', method: 'GET', path: '/__sandbox/clock', auth: false },
  { name: 'reset (control route)', method: 'POST', path: '/__sandbox/reset', auth: false },
  { name: 'after the reset, the old token', method: 'GET', path: '/v1/account' },
];

export interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/**
 * Runs the steps against one side; `root` maps a step's path to that side's URL. Self-contained
 * (only its arguments and web globals), so a browser test can run its source in a page: gzip
 * downloads compare by their content (zlib and the browser build's fflate compress differently).
 */
export async function runAll(
  root: (path: string) => string,
  advance: (ms: number) => void,
  steps: Step[],
): Promise<Answer[]> {
  const answers: Answer[] = [];
  let token = '';
  let site = '';
  for (const step of steps) {
    if (step.advance) advance(step.advance);
    const headers: Record<string, string> = {};
    if (step.auth === undefined) headers.authorization = `Bearer ${token}`;
    else if (step.auth) headers.authorization = step.auth;
    if (step.contentType) headers['content-type'] = step.contentType;
    const res = await fetch(root(step.path.replace('{site}', site)), { method: step.method, headers, body: step.body });
    const type = res.headers.get('content-type') ?? '';
    const text =
      type === 'application/gzip' && res.body
        ? await new Response(res.body.pipeThrough(new DecompressionStream('gzip'))).text()
        : await res.text();
    if (step.name === 'token') token = JSON.parse(text).data.access_token;
    if (step.name === 'create a site') site = String(JSON.parse(text).data.id);
    const masked = token ? text.split(token).join('<token>') : text;
    answers.push({
      status: res.status,
      headers: Object.fromEntries(
        ['content-type', 'www-authenticate', 'allow'].map((name) => [name, res.headers.get(name)]),
      ),
      body: type.startsWith('application/json') ? JSON.parse(masked) : masked,
    });
  }
  return answers;
}

/**
 * token_credentials: the token operation issues a token only for valid credentials (`x-effects`
 * kind `credentials`): a wrong client secret, or an unknown client id, gets no token. A revoked
 * token (kind `revoked`) cannot make requests: a read with it answers 401. The requests shown keep
 * the real secret as $CONTRACT_CLIENT_SECRET and show the wrong ones as sent.
 */

import type { CheckContext, Operation, Req, Res, Statement, StatementCheck } from '../types';
import { fail, pass, skip } from './support';

function formRequest(ctx: CheckContext, op: Operation, fields: Record<string, string | undefined>): Req {
  const url = new URL(op.path.replace(/^\//, ''), `${ctx.authUrl.replace(/\/$/, '')}/`);
  const body = new URLSearchParams(
    Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  return {
    method: op.method.toUpperCase(),
    url: url.href,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body,
    // What a report shows: the real secret masked.
    shown: body.replace(encodeURIComponent(ctx.client.secret ?? ''), '$CONTRACT_CLIENT_SECRET'),
  };
}
const shown = (req: Req): Req => ({ ...req, body: req.shown, shown: undefined });
const issued = (res: Res) => /^2/.test(String(res.status)) && typeof res.json?.data?.access_token === 'string';

async function credentials(ctx: CheckContext, op: Operation, statement: Statement) {
  if (!ctx.client.id || !ctx.client.secret) return skip(statement, 'no client credentials to compare with');
  const good = await ctx.send(
    formRequest(ctx, op, {
      grant_type: 'client_credentials',
      client_id: ctx.client.id,
      client_secret: ctx.client.secret,
    }),
  );
  if (!issued(good)) return skip(statement, `the valid credentials got no token (${good.status})`);
  const wrong = `wrong-secret-${Date.now().toString(36)}`;
  for (const [what, fields] of <[string, Record<string, string | undefined>][]>[
    ['a wrong client secret', { client_id: ctx.client.id, client_secret: wrong }],
    ['an unknown client id', { client_id: `unknown-client-${Date.now().toString(36)}`, client_secret: wrong }],
  ]) {
    const req = formRequest(ctx, op, { grant_type: 'client_credentials', ...fields });
    const res = await ctx.send(req);
    if (issued(res))
      return fail(statement, `${what} got a token (${res.status})`, {
        request: shown(req),
        expected: 'no token (a 4xx)',
        actual: `${res.status} with an access_token`,
      });
    if (res.status >= 500)
      return fail(statement, `${what} answered ${res.status}`, {
        request: shown(req),
        expected: 'a 4xx',
        actual: res.status,
      });
  }
  return pass(statement);
}

async function revoked(ctx: CheckContext, op: Operation, statement: Statement) {
  const issue = ctx.model.issueTokenOperation;
  const probe = ctx.model.operations.find(
    (o) => o.method === 'get' && o.requiresToken && !o.path.includes('{') && '401' in o.responses,
  );
  if (!issue || !probe || !ctx.client.secret)
    return skip(statement, 'no token operation, read or credentials to try a revoked token with');
  const got = await ctx.send(
    formRequest(ctx, issue, {
      grant_type: 'client_credentials',
      client_id: ctx.client.id,
      client_secret: ctx.client.secret,
    }),
  );
  if (!issued(got)) return skip(statement, `no fresh token to revoke (${got.status})`);
  const token = got.json?.data.access_token;
  const rev = formRequest(ctx, op, { token, client_id: ctx.client.id, client_secret: ctx.client.secret });
  const res = await ctx.send(rev);
  if (!/^2/.test(String(res.status)))
    return fail(statement, `revoking a fresh token answered ${res.status}`, {
      request: shown({ ...rev, shown: rev.shown?.replace(token, '$FRESH_TOKEN') }),
      expected: '2xx',
      actual: res.status,
    });
  const req = ctx.request(probe, {});
  req.headers = { ...req.headers, Authorization: `Bearer ${token}` };
  const after = await ctx.send(req);
  if (after.status !== 401)
    return fail(statement, `a revoked token then got ${after.status} from ${probe.operationId}`, {
      request: { ...req, headers: { ...req.headers, Authorization: 'Bearer $REVOKED_TOKEN' } },
      expected: 401,
      actual: after.status,
    });
  return pass(statement);
}

export default {
  name: 'token_credentials',
  kinds: ['credentials', 'revoked'],
  doc: 'The token operation refuses a wrong client secret and an unknown client id (no token), and a revoked token cannot make requests.',
  async run(ctx: CheckContext, op: Operation) {
    const cases = [];
    for (const effect of op.effects ?? []) {
      if (effect.kind === 'credentials') cases.push(await credentials(ctx, op, effect));
      if (effect.kind === 'revoked') cases.push(await revoked(ctx, op, effect));
    }
    return cases;
  },
} satisfies StatementCheck;

// Junk to every operation, reaching the handlers: the path holds the seeded resources' ids (the
// spec's parameter examples), the body starts from the spec's request example, and each input
// breaks one thing the spec declares (a field's type, enum, bounds, pattern, format, a required
// field, the body's shape or media type, a query parameter, an id, the token) or pushes a valid
// field to an edge the handler must cope with. Every answer: below 500, documented for the
// operation (the response self-check is on, and specProblems checks again), the error envelope
// when refused, and the state unchanged after a refusal.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { errorEnvelope, useSandbox } from './helpers.js';
import { spec as bundled, OPS, type Op, pathOf } from './ops.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

interface Input {
  label: string;
  path?: string;
  query?: string;
  body?: string;
  contentType?: string;
  authorization?: string | null;
}

/** node:http rather than fetch: two GETs of the spec take a body, which fetch cannot send. */
function exchange(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string; headers: Headers }>((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        done({ status: res.statusCode!, text, headers: h });
      });
    });
    req.on('error', fail);
    req.end(body);
  });
}

const resolve = (schema: any, spec: any): any => {
  if (schema && typeof schema.$ref === 'string') {
    const [, , kind, name] = schema.$ref.split('/');
    return resolve(spec.components[kind][name], spec);
  }
  return schema ?? {};
};

/** A value of the wrong JSON type for a schema. */
function wrongType(schema: any): unknown[] {
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out: unknown[] = [];
  if (!types.includes('string')) out.push(`not-a-${types[0] ?? 'value'}`);
  if (!types.includes('integer') && !types.includes('number')) out.push(12345);
  if (!types.includes('boolean')) out.push(true);
  if (!types.includes('array')) out.push([1, 'x']);
  if (!types.includes('object')) out.push({ nested: 1 });
  if (!types.includes('null')) out.push(null);
  return out;
}

/** Values that break one constraint of the schema (besides its type). */
function brokenConstraints(schema: any): unknown[] {
  const out: unknown[] = [];
  if (schema.enum) out.push('not-one-of-the-enum');
  if (schema.const !== undefined) out.push(`not-${String(schema.const)}`);
  if (schema.minLength) out.push('');
  if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
  if (schema.pattern) out.push('\u0000 does not match');
  if (schema.format === 'email') out.push('not an email');
  if (schema.format === 'uri') out.push('not a uri');
  if (schema.format === 'date-time') out.push('yesterday');
  if (schema.minimum !== undefined) out.push(schema.minimum - 1);
  if (schema.maximum !== undefined) out.push(schema.maximum + 1);
  if (schema.type === 'integer') out.push(1.5);
  if (schema.type === 'array' && schema.minItems) out.push([]);
  if (schema.type === 'array' && schema.items) out.push([wrongType(schema.items)[0]]);
  return out;
}

/** Valid by the schema, but at an edge the handler has to cope with. */
function edges(schema: any): unknown[] {
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string') && !schema.enum && !schema.format && !schema.pattern && !schema.minLength) {
    return [
      '',
      '   ',
      'x'.repeat(5000),
      '%E0%A4%A',
      'https://downloads.example.com/%E0%A4%A.zip',
      '../../etc/passwd',
      'ünïcødé ✓',
    ];
  }
  if (types.includes('integer') && schema.minimum === undefined && schema.maximum === undefined) {
    return [-1, 0, 2 ** 53 - 1];
  }
  return [];
}

function inputsOf(op: Op, spec: any, tokens: { valid: string; revoked: string }): Input[] {
  const inputs: Input[] = [];
  // Path ids that cannot exist or are not canonical.
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const schema = resolve(p.schema, spec);
    const values =
      schema.type === 'integer'
        ? ['0x1e240', '-1', '99999999999999999999', '1.5', 'abc', `${p.example}%20`]
        : ['%E0%A4%A', 'x'.repeat(300), 'no-such-thing'];
    for (const v of values)
      inputs.push({ label: `path ${p.name}=${v.slice(0, 20)}`, path: pathOf(op, { [p.name]: v }) });
  }
  // The token, on operations that need one.
  if (op.auth) {
    const { valid, revoked } = tokens;
    for (const authorization of [
      null,
      '',
      'Bearer',
      'Bearer ',
      'Bearer not-a-token',
      'Basic dXNlcjpwYXNz',
      'Token abc',
      'Bearer a b',
      'Bearer-x',
      `Bearer ${valid}x`,
      `Bearer ${valid.slice(0, -1)}`,
      `Bearer ${'x'.repeat(5000)}`,
      `Bearer ${revoked}`,
      `Bearer ${valid}, Bearer ${valid}`,
    ]) {
      inputs.push({ label: `authorization ${authorization}`, authorization });
    }
  }
  // Declared query parameters: wrong types, broken constraints, sent twice.
  for (const p of op.params.filter((x) => x.in === 'query')) {
    const schema = resolve(p.schema, spec);
    const bad = [...brokenConstraints(schema)];
    if (schema.type === 'integer' || schema.type === 'number') bad.push('abc', '0x10', ' 5');
    if (schema.type === 'boolean') bad.push('maybe', '1');
    for (const v of bad)
      inputs.push({ label: `query ${p.name}=${String(v)}`, query: `${p.name}=${encodeURIComponent(String(v))}` });
    inputs.push({ label: `query ${p.name} twice`, query: `${p.name}=${p.example ?? 1}&${p.name}=${p.example ?? 1}` });
  }
  // Anything in the query that the operation does not declare is ignored, but must be harmless.
  for (const query of ['zzz=1&zzz=2', 'a[]=1&a[]=2', 'b[c]=2', '%E0%A4%A=1', 'x=%E0%A4%A', '&&&=&', ';;']) {
    inputs.push({ label: `undeclared query ${query}`, query });
  }

  if (op.body) {
    const [type, media] = Object.entries<any>(op.body.content)[0]!;
    const schema = resolve(media.schema, spec);
    const example = media.example ?? Object.values<any>(media.examples ?? {})[0]?.value ?? {};
    const encode = (value: unknown) =>
      type === 'application/json'
        ? JSON.stringify(value)
        : new URLSearchParams(
            Object.entries(value as object).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString();
    const withField = (name: string, value: unknown) => encode({ ...example, [name]: value });
    for (const raw of ['[]', '"text"', '123', 'null', 'true', '{"unterminated": ']) {
      inputs.push({ label: `body ${raw}`, body: raw, contentType: 'application/json' });
    }
    inputs.push({ label: 'body as text/plain', body: encode(example), contentType: 'text/plain' });
    inputs.push({
      label: 'body in the other media type',
      body: type === 'application/json' ? 'a=1' : JSON.stringify(example),
      contentType: type === 'application/json' ? 'application/x-www-form-urlencoded' : 'application/json',
    });
    for (const [name, prop0] of Object.entries<any>(schema.properties ?? {})) {
      const prop = resolve(prop0, spec);
      for (const v of wrongType(prop))
        inputs.push({ label: `body.${name} = ${JSON.stringify(v)}`, body: withField(name, v), contentType: type });
      for (const v of brokenConstraints(prop))
        inputs.push({
          label: `body.${name} broken (${JSON.stringify(v)?.slice(0, 20)})`,
          body: withField(name, v),
          contentType: type,
        });
      for (const v of edges(prop))
        inputs.push({
          label: `body.${name} edge (${JSON.stringify(v).slice(0, 20)})`,
          body: withField(name, v),
          contentType: type,
        });
      if (prop.type === 'array' && prop.items) {
        const item = resolve(prop.items, spec);
        const first = Array.isArray(example[name]) && example[name].length ? example[name][0] : {};
        for (const [sub, subProp] of Object.entries<any>(item.properties ?? {})) {
          for (const v of [...wrongType(resolve(subProp, spec)).slice(0, 2), ...edges(resolve(subProp, spec))]) {
            inputs.push({
              label: `body.${name}.0.${sub} = ${JSON.stringify(v).slice(0, 20)}`,
              body: withField(name, [{ ...first, [sub]: v }]),
              contentType: type,
            });
          }
        }
      }
    }
    for (const name of schema.required ?? []) {
      const { [name]: _omitted, ...rest } = example;
      inputs.push({ label: `body without ${name}`, body: encode(rest), contentType: type });
    }
  } else {
    // A body the operation does not take is ignored, whatever it is.
    for (const [contentType, body] of [
      ['application/json', '{"broken": '],
      ['text/plain', 'junk'],
      ['application/json', '{"name": 5}'],
    ] as const) {
      if (op.method !== 'GET') inputs.push({ label: `unexpected body ${body}`, body, contentType });
    }
  }
  return inputs;
}

describe('junk to every operation', () => {
  it('reaches the handlers with at least 20 invalid inputs per operation: no 5xx, documented answers, the envelope, state unchanged after a refusal', async () => {
    const spec = bundled;
    const reachedPastLookup = new Set<string>();
    const revoked = await h.sb.token();
    const r = await h.call('POST', '/auth/revoke', undefined, {
      token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({
        token: revoked,
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }).toString(),
    });
    expect(r.status).toBe(200);
    let total = 0;
    const statuses: Record<number, number> = {};
    for (const op of OPS) {
      const inputs = inputsOf(op, spec, { valid: h.token, revoked });
      expect(inputs.length, `${op.operationId}: ${inputs.length} inputs`).toBeGreaterThanOrEqual(20);
      let before = JSON.stringify(h.sb.runtime.state);
      for (const input of inputs) {
        const headers: Record<string, string> = {};
        if (input.authorization !== undefined) {
          if (input.authorization !== null) headers.authorization = input.authorization;
        } else if (op.auth) headers.authorization = `Bearer ${h.token}`;
        if (input.contentType) headers['content-type'] = input.contentType;
        const url = `${h.sb.authUrl}${input.path ?? pathOf(op)}${input.query ? `?${input.query}` : ''}`;
        const res = await exchange(url, op.method, headers, input.body);
        const text = res.text;
        const what = `${op.method} ${op.path} ${input.label}`;
        const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
        const body = json && text ? JSON.parse(text) : text || undefined;
        expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
        // Downloads (gzip, SQL) are checked by the self-check only.
        if (json || !text) expect(specProblems(op.operationId, res.status, body, res.headers), what).toEqual([]);
        if (res.status !== 401 && res.status !== 404) reachedPastLookup.add(op.operationId);
        total++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 400) {
          errorEnvelope({ status: res.status, body, headers: res.headers });
          expect(JSON.stringify(h.sb.runtime.state) === before, `${what}: the state changed after a refusal`).toBe(
            true,
          );
        } else {
          // Accepted (an edge value): back to the seed for the next input.
          h.sb.reset();
          before = JSON.stringify(h.sb.runtime.state);
        }
      }
    }
    if (process.env.JUNK_STATS) console.log(JSON.stringify({ total, statuses }));
    expect(total).toBeGreaterThan(116 * 20);
    // Every operation got past auth and the id lookup at least once (the ids are real).
    expect(OPS.filter((op) => !reachedPastLookup.has(op.operationId)).map((op) => op.operationId)).toEqual([]);
  }, 120_000);
});

/**
 * value_units: values are in the units and clocks the spec states where the schema cannot
 * (`x-unit`, root `x-units`): epoch seconds are not milliseconds, a duration in seconds is not an
 * epoch, `date-time` values are UTC with milliseconds. Each read (a GET without a body) is called
 * once with the spec's example parameters and every value its answer holds is checked against
 * the statement that applies to it. GiB values have nothing to compare with in one answer and
 * are reported as not observable.
 */

import type { Case, CheckContext, Json, Operation, SpecModel, Statement, StatementCheck } from '../types';
import { fail, pass, skip } from './support';

/** A value of an answer under a unit statement, and where it is. */
interface Found {
  statement: Statement;
  value: Json;
  where: string;
}

const RULES: Record<string, (v: Json) => string | undefined> = {
  'epoch-seconds': (v) =>
    !Number.isInteger(v)
      ? 'not an integer'
      : v >= 1e11
        ? 'epoch milliseconds, not seconds'
        : v < 1e8
          ? 'too small for an epoch time in seconds'
          : undefined,
  seconds: (v) =>
    typeof v !== 'number' || v < 0
      ? 'not a number of seconds'
      : v >= 1e8
        ? 'an epoch time or milliseconds, not a duration in seconds'
        : undefined,
  'utc-milliseconds': (v) =>
    typeof v !== 'string'
      ? undefined
      : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]00:?00)$/.test(v)
        ? undefined
        : /(Z|[+-]\d\d:?\d\d)$/.test(v)
          ? /(Z|[+-]00:?00)$/.test(v)
            ? 'UTC but without milliseconds'
            : 'not UTC (an offset other than Z)'
          : 'a local time without an offset',
};

/** Every (statement, value, where) of an answer's body, walking the bundled schema. */
function unitsIn(model: SpecModel, node: Json, pointer: string, value: Json, where: string, out: Found[], depth = 0) {
  if (depth > 30 || value === undefined || value === null || !node || typeof node !== 'object') return;
  for (let i = 0; typeof node.$ref === 'string' && i < 20; i++) {
    pointer = node.$ref.slice(1);
    node = model.follow(node);
  }
  const unit = node['x-unit'] !== undefined ? model.statementAt(`${pointer}/x-unit`) : undefined;
  if (unit) out.push({ statement: unit, value, where });
  else if (node.format === 'date-time' && typeof value === 'string') {
    const byFormat = model.unitOfFormat('date-time');
    if (byFormat) out.push({ statement: byFormat, value, where });
  }
  if (node.properties && typeof value === 'object' && !Array.isArray(value))
    for (const [k, sub] of Object.entries(node.properties))
      unitsIn(
        model,
        sub,
        `${pointer}/properties/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        value[k],
        `${where}.${k}`,
        out,
        depth + 1,
      );
  if (node.items && Array.isArray(value))
    value.slice(0, 50).forEach((v, i) => {
      unitsIn(model, node.items, `${pointer}/items`, v, `${where}[${i}]`, out, depth + 1);
    });
  for (const key of ['anyOf', 'oneOf'])
    (node[key] ?? []).forEach((sub: Json, i: number) => {
      unitsIn(model, sub, `${pointer}/${key}/${i}`, value, where, out, depth + 1);
    });
}

/** A token request with the run's credentials. */
function tokenRequest(ctx: CheckContext, op: Operation) {
  return {
    method: op.method.toUpperCase(),
    url: new URL(op.path.replace(/^\//, ''), `${ctx.authUrl.replace(/\/$/, '')}/`).href,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: ctx.client.id ?? '',
      client_secret: ctx.client.secret ?? '',
    }).toString(),
  };
}

/** The bundled schema of a read's 200 JSON answer and its pointer. */
function answerSchema(op: Operation) {
  const media = op.bundled?.responses?.['200']?.content?.['application/json'];
  return media?.schema;
}

export default {
  name: 'value_units',
  kinds: ['unit'],
  doc: 'Values are in the stated units and clocks (x-unit, x-units): epoch seconds not milliseconds, durations in seconds, date-times UTC with milliseconds.',
  async run(ctx: CheckContext, op: Operation) {
    // Reads (a body, if any, is optional and not sent), and the token operation's answer.
    const token = op === ctx.model.issueTokenOperation;
    if (!token && (op.method !== 'get' || op.requestBodyRequired || op.outsideV1)) return [];
    const schema = answerSchema(op);
    if (!schema) return [];
    if (token && !ctx.client.secret) return [];
    const req = token ? tokenRequest(ctx, op) : ctx.request(op, {});
    const res = await ctx.send(req);
    if (token) req.body = req.body?.replace(encodeURIComponent(ctx.client.secret ?? ''), '$CONTRACT_CLIENT_SECRET');
    if (res.status !== 200 || !res.json) return [];
    const found: Found[] = [];
    unitsIn(
      ctx.model,
      schema,
      `/paths/${op.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${op.method}/responses/200/content/application~1json/schema`,
      res.json,
      'body',
      found,
    );
    const byStatement = new Map<Statement, Found[]>();
    for (const f of found) byStatement.set(f.statement, [...(byStatement.get(f.statement) ?? []), f]);
    const cases: Case[] = [];
    for (const [statement, values] of byStatement) {
      const rule = RULES[statement.unit];
      if (!rule) {
        cases.push(
          skip(
            statement,
            `${statement.unit} cannot be told from one value (${values.length} values seen, e.g. ${values[0]?.where})`,
          ),
        );
        continue;
      }
      const wrong = values.map((v) => ({ ...v, why: rule(v.value) })).find((v) => v.why);
      cases.push(
        wrong
          ? fail(
              statement,
              `${wrong.where} is ${JSON.stringify(wrong.value)}: ${wrong.why} (stated: ${statement.unit})`,
              {
                request: req,
                expected: statement.unit,
                actual: JSON.stringify(wrong.value),
              },
            )
          : pass(statement),
      );
    }
    return cases;
  },
} satisfies StatementCheck;

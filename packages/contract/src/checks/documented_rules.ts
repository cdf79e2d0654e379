/**
 * documented_rules: every rule the documentation states for a request field (op.rules: enum,
 * pattern, minLength, maxLength, minimum, maximum, x-values-from, x-special-values, x-free-text;
 * CONVENTIONS.md, "Field rules") is sent on both sides, one case per side:
 * - accepting: each enum or listed value (a create: one of them, not the example's), a
 *   pattern-matching value, the bound itself, the special value, text with astral characters
 *   ("café 🚀 𝄞") in free text. Expected: a 2xx, and the value
 *   read back unchanged where the write's stated read shows the field (echo.ts, write_read_back.ts).
 *   A refusal counts only when the same request with the example's value is accepted (otherwise a
 *   precondition refused both, and the case is skipped).
 * - refusing: a non-member, a non-matching value, the bound ± 1. Expected: a documented 4xx, and the
 *   read (the resource, or the list a create adds to) reads the same before and after.
 */

import type { Case, CheckContext, FieldRule, Json, Operation, Req, Res, StatementCheck } from '../types';
import { echoedFields } from './echo';
import { evaluate, fail, itemsOf, jsonBodyOf, pass, pathParamsOf, skip, uniqueBody, valueAt } from './support';
import { readField, targetOf } from './write_read_back';

const ASTRAL = 'café 🚀 𝄞';
const ok = (res: Res) => /^2/.test(String(res.status));
const opById = (ctx: CheckContext, id: string | undefined) => ctx.model.operations.find((o) => o.operationId === id);
const codePoints = (s: string) => [...s];
const show = (v: Json) => JSON.stringify(v);

/**
 * The example body of `op` that sends `field` (PUT /account has one per field), else the first;
 * a create's made unique (a second site named as the example is refused for its name).
 */
function exampleWith(op: Operation, field: string): Json {
  const media = jsonBodyOf(op);
  const all = [media?.example, ...Object.values<Json>(media?.examples ?? {}).map((e) => e?.value)].filter(
    (e) => e && typeof e === 'object',
  );
  const example = { ...(all.find((e) => field in e) ?? all[0] ?? {}) };
  return (op.effects ?? []).some((e) => e.kind === 'created') ? uniqueBody(op, example) : example;
}

/** `text` cut (its end kept: a create's example ends in a tag that makes it unique) or padded with `a` to `n` code points. */
const sized = (text: unknown, n: number) => {
  const chars = codePoints(typeof text === 'string' && text ? text : 'gate');
  return (chars.length >= n ? chars.slice(chars.length - n) : [...chars, ...'a'.repeat(n - chars.length)]).join('');
};

/** The values a `values-from` rule allows: those its listing serves now. */
async function listed(ctx: CheckContext, rule: FieldRule): Promise<Json[]> {
  const listing = opById(ctx, rule.listing);
  if (!listing) return [];
  const res = await ctx.send(ctx.request(listing));
  return (itemsOf(res.json) ?? []).map((i) => (rule.listField ? valueAt(i, rule.listField) : i));
}

/** The two sides of a rule: values to accept, and one value to refuse (or none). */
async function sidesOf(ctx: CheckContext, rule: FieldRule, example: Json) {
  const { schema, value } = rule;
  const re = (v: string) => new RegExp(schema.pattern ?? '', 'u').test(v);
  switch (rule.rule) {
    case 'enum':
    case 'values-from': {
      const values = rule.rule === 'enum' ? value : await listed(ctx, rule);
      return { accept: values, refuse: values.length ? `not-${values[0]}` : undefined };
    }
    case 'pattern': {
      const candidates = [example, ...(schema.examples ?? [])].filter((v) => typeof v === 'string');
      const refuse = [`${example}.`, `-${example}`, ' ', `${example} x`, ''].find(
        (v) => !re(v) && codePoints(v).length >= (schema.minLength ?? 0),
      );
      return { accept: candidates.filter(re).slice(0, 1), refuse };
    }
    case 'minLength':
      return { accept: [sized(example, value)], refuse: value > 0 ? sized(example, value - 1) : undefined };
    case 'maxLength':
      return { accept: [sized(example, value)], refuse: sized(example, value + 1) };
    case 'minimum':
      return { accept: [value], refuse: value - 1 };
    case 'maximum':
      return { accept: [value], refuse: value + 1 };
    case 'special':
      return { accept: [value] };
    case 'free-text':
      return { accept: [ASTRAL] };
    default:
      return { accept: [] };
  }
}

/** Where a write to `op` goes and how its effect on `field` is read. */
interface Target {
  path?: Record<string, unknown> | undefined;
  created?: Json; // the `created` effect: the write makes a new resource, read through its links
  effect?: Json; // an `updated` / `set` effect that reads the field back
  cleanup?: () => Promise<void>;
  reason?: string;
}

/** The params of `op`'s link to `target`, evaluated on a request and its answer. */
function linked(op: Operation, target: Operation | undefined, req: Req, res: Res) {
  const link = target && op.links.find((l) => l.operationId === target.operationId);
  if (!link) return undefined;
  const params = pathParamsOf(op, req);
  return Object.fromEntries(
    Object.entries(link.parameters).map(([n, e]) => [n, evaluate(e, { params, json: res.json })]),
  );
}

/** Sends `body` to the target; after a 2xx, what the stated read shows for `field` (or nothing to read). */
async function write(ctx: CheckContext, op: Operation, target: Target, field: string, body: Json) {
  if (target.created) {
    const req = ctx.request(op, { body });
    const res = await ctx.send(req);
    const sent = body;
    if (!ok(res)) return { req, res };
    const read = opById(ctx, target.created.read);
    const path = linked(op, read, req, res);
    const deleter = op.links.map((l) => opById(ctx, l.operationId)).find((o) => o?.method === 'delete');
    const remove = linked(op, deleter, req, res);
    try {
      if (!read || !path) return { req, res };
      const got = await ctx.send(ctx.request(read, { path }));
      const to = echoedFields(target.created, sent, got.json?.data)[field];
      return { req, res, sent, read, to, value: to && valueAt(got.json?.data, to) };
    } finally {
      if (deleter && remove) await ctx.send(ctx.request(deleter, { path: remove }));
    }
  }
  const req = ctx.request(op, { path: target.path, body });
  const res = await ctx.send(req);
  const effect = target.effect;
  const read = effect && opById(ctx, effect.read);
  if (!ok(res) || !read) return { req, res };
  const shown = await ctx.send(ctx.request(read, { path: target.path }));
  const to = effect.fields?.[field] ?? echoedFields(effect, body, shown.json?.data)[field];
  return { req, res, sent: body, read, to, value: to && (await readField(ctx, read, target.path, to)).value };
}

/** The text of the read that shows whether a refused write changed something (twice the same, else none). */
async function snapshotOf(ctx: CheckContext, target: Target) {
  const read = opById(ctx, target.created ? target.created.list : target.effect?.read);
  if (!read) return undefined;
  const path = target.created ? undefined : target.path;
  const take = async () => (await ctx.send(ctx.request(read, { path }))).text;
  const first = await take();
  return first === (await take()) ? { read, take, first } : undefined;
}

/** The rule as one side's statement: its case names the field, the rule and the side. */
const sided = (rule: FieldRule, side: string): FieldRule => ({
  ...rule,
  source: `${rule.field} ${rule.rule}, ${side}: ${rule.source}`,
});

async function acceptSide(ctx: CheckContext, op: Operation, field: FieldRule, target: Target, values: Json[]) {
  const rule = sided(field, 'accepting');
  const example = exampleWith(op, rule.field);
  try {
    return await acceptEach(ctx, op, rule, target, values, example);
  } finally {
    // An update leaves the example's values (a branch the repository has), not the last one tried.
    if (!target.created && target.effect && !values.every((v) => show(v) === show(example[rule.field])))
      await ctx.send(ctx.request(op, { path: target.path, body: { ...example, ...(target.effect.when ?? {}) } }));
  }
}

async function acceptEach(
  ctx: CheckContext,
  op: Operation,
  rule: FieldRule,
  target: Target,
  values: Json[],
  example: Json,
) {
  for (const value of values) {
    const body = { ...example, ...(target.effect?.when ?? {}), [rule.field]: value };
    const got = await write(ctx, op, target, rule.field, body);
    if (!ok(got.res)) {
      const baseline = await write(ctx, op, target, rule.field, { ...body, [rule.field]: example[rule.field] });
      if (!ok(baseline.res) || show(value) === show(example[rule.field]))
        return skip(
          rule,
          `${op.operationId} answered ${got.res.status} to ${rule.field} ${show(value)} and to the example's value too: a precondition, not the rule`,
        );
      return fail(
        rule,
        `${op.operationId} refused ${rule.field} ${show(value)} (${got.res.status}), which the documentation accepts (${rule.rule}); the example's ${show(example[rule.field])} was accepted`,
        { request: got.req, expected: '2xx', actual: got.res.status },
      );
    }
    const sent = got.sent?.[rule.field] ?? value;
    if (got.to && show(got.value) !== show(sent))
      return fail(
        rule,
        `${op.operationId} accepted ${rule.field} ${show(sent)}, but ${got.read!.operationId} reads ${got.to} ${show(got.value)}`,
        { request: got.req, expected: show(sent), actual: show(got.value) },
      );
  }
  return pass(rule);
}

async function refuseSide(ctx: CheckContext, op: Operation, field: FieldRule, target: Target, value: Json) {
  const rule = sided(field, 'refusing');
  const documented = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s) && s !== '401' && s !== '403');
  const body = { ...exampleWith(op, rule.field), ...(target.effect?.when ?? {}), [rule.field]: value };
  const snap = await snapshotOf(ctx, target);
  const req = ctx.request(op, { path: target.path, body });
  const res = await ctx.send(req);
  if (!documented.includes(String(res.status)))
    return fail(
      rule,
      `${op.operationId} answered ${res.status} to ${rule.field} ${show(value)}, which breaks its ${rule.rule} ${show(rule.value ?? rule.listing)}; expected a documented ${documented.join(' or ')}`,
      { request: req, expected: documented.join(' or '), actual: res.status },
    );
  const after = snap && (await snap.take());
  if (snap && after !== snap.first)
    return fail(
      rule,
      `${op.operationId} refused ${rule.field} ${show(value)} (${res.status}), but ${snap.read.operationId} reads differently afterwards`,
      { request: req, expected: 'no change', actual: 'changed' },
    );
  return pass(rule);
}

/** The target of `op`'s writes: a create's parent, else a resource the run made or may change. */
async function targetFor(ctx: CheckContext, op: Operation): Promise<Target> {
  const created = (op.effects ?? []).find((e) => e.kind === 'created');
  if (created) return ctx.allowWrites ? { created } : { reason: 'makes a resource; give --allow-writes to run it' };
  const effect = (op.effects ?? []).find((e) => (e.kind === 'updated' || e.kind === 'set') && e.fields);
  if (op.method === 'post' && /^(search|query)[A-Z]/.test(op.operationId)) return {};
  const found = await targetOf(ctx, op, { restorable: op.method === 'put' });
  return { ...found, effect };
}

export default {
  name: 'documented_rules',
  kinds: ['rule'],
  doc: 'Every documented rule of a request field (one-of lists, patterns, lengths, bounds, special values, free text) is sent on both sides, one case each: the accepting side gets a 2xx and reads back unchanged, the refusing side a documented 4xx and no change.',
  async run(ctx: CheckContext, op: Operation) {
    const rules = (op.rules ?? []) as FieldRule[];
    if (!rules.length) return [];
    const target = await targetFor(ctx, op);
    const cases: Case[] = [];
    try {
      for (const rule of rules) {
        if (target.reason) {
          cases.push(skip(rule, target.reason));
          continue;
        }
        if (ctx.live && rule.scope === 'all') {
          cases.push(skip(rule, `${show(rule.value)} addresses every resource of the account, not only the run's`));
          continue;
        }
        const example = exampleWith(op, rule.field)[rule.field];
        const sides = await sidesOf(ctx, rule, example);
        // A create makes a resource per value: one sample (not the example's) stands for the list.
        if (target.created && sides.accept.length > 1)
          sides.accept = [sides.accept.find((v: Json) => show(v) !== show(example)) ?? sides.accept[0]];
        if (sides.accept.length) cases.push(await acceptSide(ctx, op, rule, target, sides.accept));
        if (sides.refuse !== undefined) cases.push(await refuseSide(ctx, op, rule, target, sides.refuse));
      }
    } finally {
      await target.cleanup?.();
    }
    return cases;
  },
} satisfies StatementCheck;

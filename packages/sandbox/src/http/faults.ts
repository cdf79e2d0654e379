// Transport faults the user asks for (never by default): a delay, a timeout (no answer), a dropped
// connection, or a status, for requests matched by operationId or by method and path, once, N
// times, or with a seeded probability. Set through POST /__sandbox/faults, the CLI's --fault, the
// `faults` option of startSandbox and the MSW handlers' fault(). An injected status is marked
// `X-Sandbox-Fault: injected` and passes the response self-check untouched: the user asked for it.
// With no fault set, the server checks one array's length per request and nothing else.
import { badRequest } from '../domain/errors.js';

export type FaultKind = 'delay' | 'timeout' | 'drop' | 'status';

/** One fault as the user writes it (JSON body of POST /__sandbox/faults, or parsed from --fault). */
export interface FaultSpec {
  /** Match by operationId (e.g. `getSite`)… */
  operationId?: string;
  /** …or by method and path: the spec's template (`/sites/{site_id}`) or a concrete path (`/sites/123456`), without /v1. */
  method?: string;
  path?: string;
  fault: FaultKind;
  /** delay: milliseconds before the answer (default 1000). */
  delay_ms?: number;
  /** status: the status to answer (100-599 except 1xx; any, documented or not). */
  status?: number;
  /** How many matching requests get it (default 1; with `probability`, unlimited unless given). */
  times?: number;
  /** Chance per matching request, 0-1, drawn from a generator seeded with `seed` (default 1). */
  probability?: number;
  seed?: number;
}

export interface FaultRule extends FaultSpec {
  id: number;
  /** Requests left that get it (Infinity: until cleared). */
  remaining: number;
  /** Requests it was applied to. */
  applied: number;
  random?: () => number;
}

/** A small seeded generator (mulberry32): the same seed gives the same faulted requests. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS: readonly FaultKind[] = ['delay', 'timeout', 'drop', 'status'];
const KEYS = new Set(['operationId', 'method', 'path', 'fault', 'delay_ms', 'status', 'times', 'probability', 'seed']);

/** Checks a fault as the user sent it; throws a 400 naming what to fix. */
export function checkFault(value: unknown, known: (operationId: string) => boolean): FaultSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('send a fault: {"operationId": "getSite", "fault": "status", "status": 503}');
  }
  const f = value as Record<string, unknown>;
  for (const key of Object.keys(f)) if (!KEYS.has(key)) throw badRequest(`fault.${key}: unknown field`);
  if (!KINDS.includes(f.fault as FaultKind)) throw badRequest(`fault.fault: must be one of ${KINDS.join(', ')}`);
  const byOperation = f.operationId !== undefined;
  if (byOperation === (f.path !== undefined)) throw badRequest('fault: give operationId, or method and path');
  if (byOperation && (typeof f.operationId !== 'string' || !known(f.operationId)))
    throw badRequest(`fault.operationId: no operation ${JSON.stringify(f.operationId)} in the spec`);
  if (!byOperation && (typeof f.path !== 'string' || !f.path.startsWith('/')))
    throw badRequest('fault.path: a path such as /sites/{site_id} or /sites/123456 (without /v1)');
  if (f.method !== undefined && (typeof f.method !== 'string' || !/^[A-Za-z]+$/.test(f.method)))
    throw badRequest('fault.method: an HTTP method such as GET');
  if (!byOperation && f.method === undefined) throw badRequest('fault.method: needed with path');
  const int = (name: string, min: number, max: number) => {
    const v = f[name];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min && (v as number) <= max))
      throw badRequest(`fault.${name}: an integer from ${min} to ${max}`);
  };
  int('delay_ms', 0, 600_000);
  int('status', 200, 599);
  int('times', 1, 1_000_000_000);
  int('seed', 0, 2 ** 32 - 1);
  if (f.fault === 'status' && f.status === undefined) throw badRequest('fault.status: needed for a status fault');
  if (f.probability !== undefined && !(typeof f.probability === 'number' && f.probability >= 0 && f.probability <= 1))
    throw badRequest('fault.probability: a number from 0 to 1');
  return { ...f, method: typeof f.method === 'string' ? f.method.toUpperCase() : undefined } as FaultSpec;
}

/** The faults set on one sandbox. */
export class Faults {
  /** Rules in the order they were set; the first that matches and fires applies. */
  rules: FaultRule[] = [];
  private seq = 1;

  add(spec: FaultSpec): FaultRule {
    const rule: FaultRule = {
      ...spec,
      id: this.seq++,
      remaining: spec.times ?? (spec.probability !== undefined ? Number.POSITIVE_INFINITY : 1),
      applied: 0,
    };
    if (spec.probability !== undefined) rule.random = mulberry32(spec.seed ?? 1);
    this.rules.push(rule);
    return rule;
  }

  clear(): void {
    this.rules = [];
  }

  list() {
    return this.rules.map(({ random: _r, remaining, ...rule }) => ({
      ...rule,
      remaining: Number.isFinite(remaining) ? remaining : null,
    }));
  }

  /** The fault for this request, if one matches and fires (its count goes down). */
  pick(operationId: string, method: string, template: string, url: string): FaultRule | undefined {
    let path: string | undefined;
    for (const rule of this.rules) {
      if (rule.operationId !== undefined) {
        if (rule.operationId !== operationId) continue;
      } else {
        if (rule.method !== method) continue;
        if (rule.path !== template) {
          path ??= pathOf(url);
          if (rule.path !== path) continue;
        }
      }
      if (rule.random && rule.random() >= rule.probability!) continue;
      rule.applied++;
      if (--rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
      return rule;
    }
    return undefined;
  }
}

/** `/v1/sites/123456?x=1` → `/sites/123456`. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  const p = q === -1 ? url : url.slice(0, q);
  return p.startsWith('/v1/') ? p.slice(3) : p;
}

/**
 * Parses the CLI's --fault: `TARGET:KIND[=VALUE][,times=N][,probability=P][,seed=S]`, TARGET an
 * operationId or `METHOD /path`. Examples: `getSite:status=503`, `getSite:delay=2000,times=3`,
 * `POST /sites/{site_id}/notes:drop`, `listSites:timeout,probability=0.5,seed=7`.
 */
export function parseFaultFlag(text: string): Record<string, unknown> {
  const at = text.lastIndexOf(':');
  if (at <= 0) throw new Error(`--fault takes TARGET:KIND[=VALUE][,times=N][,probability=P][,seed=S], got "${text}"`);
  const target = text.slice(0, at).trim();
  const [kindPart, ...options] = text.slice(at + 1).split(',');
  const [kind, value] = kindPart!.split('=');
  const spec: Record<string, unknown> = { fault: kind?.trim() };
  const space = target.indexOf(' ');
  if (space === -1) spec.operationId = target;
  else {
    spec.method = target.slice(0, space);
    spec.path = target.slice(space + 1).trim();
  }
  if (value !== undefined) spec[kind === 'delay' ? 'delay_ms' : 'status'] = Number(value);
  for (const option of options) {
    const [k, v] = option.split('=');
    if (!k || v === undefined || !['times', 'probability', 'seed'].includes(k.trim()))
      throw new Error(`--fault option "${option}" is not one of times=N, probability=P, seed=S`);
    spec[k.trim()] = Number(v);
  }
  return spec;
}

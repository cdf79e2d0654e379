// Routes outside the API that let tests drive the sandbox (no token): reset, clock, webhooks, the
// state (dump, replace, merge patch; fixtures validated fully) and the list of operations.
import type { AreaHandlers } from '../domain/area.js';
import { badRequest } from '../domain/errors.js';
import { fixtureProblems } from '../domain/fixture.js';
import type { SandboxRuntime } from '../domain/runtime.js';
import type { SandboxState } from '../domain/state.js';
import type { OperationId } from '../domain/types.js';
import type { SpecOperation } from './spec.js';

export interface ControlOptions {
  rt: SandboxRuntime;
  operations: SpecOperation[];
  handlers: AreaHandlers;
}

export type ControlRoute = [
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  run: (incoming: { body: unknown }) => unknown,
];

/** Routes outside the API that let tests drive the sandbox; each answers `{message, data, errors}`. */
export function controlRoutes({ rt, operations, handlers }: ControlOptions): ControlRoute[] {
  const clockView = () => ({
    now: rt.clock.nowIso(),
    speed: rt.clock.speed,
    pending: rt.clock.pending().map((t) => ({ label: t.label, due: new Date(t.due).toISOString() })),
  });
  return [
    [
      'POST',
      '/__sandbox/reset',
      () => {
        rt.reset();
        return null;
      },
    ],
    ['GET', '/__sandbox/clock', clockView],
    // Body: {"advance_ms": 30000} or {"advance": "30s"} (ms, s, m, h, d) or {"to": "<ISO time>"}.
    [
      'POST',
      '/__sandbox/clock',
      ({ body: raw }) => {
        const body = (raw ?? {}) as Record<string, unknown>;
        let ms: number | undefined;
        if (typeof body.advance_ms === 'number') ms = body.advance_ms;
        else if (typeof body.advance === 'string') ms = parseDuration(body.advance);
        else if (typeof body.to === 'string') ms = Date.parse(body.to) - rt.clock.now();
        if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
          throw badRequest('send {"advance_ms": <ms>}, {"advance": "30s"} or {"to": "<ISO time in the future>"}');
        }
        rt.clock.advance(ms);
        return clockView();
      },
    ],
    [
      'GET',
      '/__sandbox/webhooks',
      async () => {
        await rt.settle();
        return rt.webhooks;
      },
    ],
    [
      'DELETE',
      '/__sandbox/webhooks',
      () => {
        rt.webhooks = [];
        return null;
      },
    ],
    ['GET', '/__sandbox/state', () => rt.state],
    [
      'PUT',
      '/__sandbox/state',
      ({ body }) => {
        refuseProtoKeys(body);
        const problems = fixtureProblems(body);
        if (problems.length) throw badRequest(...problems);
        rt.reset(structuredClone(body) as SandboxState);
        return null;
      },
    ],
    // JSON merge patch (RFC 7386) of the state, e.g. {"account": {"highTrafficPlan": false}}:
    // objects merge, anything else (arrays included) replaces, null deletes a key.
    [
      'PATCH',
      '/__sandbox/state',
      ({ body: patch }) => {
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
          throw badRequest(
            'send a JSON object (a merge patch of the state, e.g. {"account": {"highTrafficPlan": false}})',
          );
        }
        refuseProtoKeys(patch);
        const problems = fixtureProblems(mergePatch(structuredClone(rt.state), patch));
        if (problems.length) throw badRequest(...problems);
        // In place: the state stays the same object, so queued work still applies to it.
        mergePatch(rt.state, patch);
        return null;
      },
    ],
    [
      'GET',
      '/__sandbox/operations',
      () =>
        operations.map((op) => ({
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          implemented: Boolean(handlers[op.operationId as OperationId]),
        })),
    ],
  ];
}

/**
 * A `__proto__` key (JSON.parse keeps it as an own key) would reach Object.prototype through a
 * merge: refused anywhere in a state or patch, with its path.
 */
function refuseProtoKeys(value: unknown, path = 'body'): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') throw badRequest(`${path}.__proto__: not allowed (a state has no such key)`);
    refuseProtoKeys((value as Record<string, unknown>)[key], `${path}.${key}`);
  }
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? (target as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

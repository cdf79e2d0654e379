// Routes outside the API that let tests drive the sandbox (no token): reset, clock, webhooks, the
// state (dump, replace, merge patch; fixtures validated fully) and the list of operations.
import type { AreaHandlers } from '../domain/area.js';
import { finishedDeploy, gitDeployPayload } from '../domain/areas/git.js';
import { DUMP_SIZE_LIMIT, sizeOf } from '../domain/budget.js';
import { ApiError, badRequest, MESSAGES } from '../domain/errors.js';
import { fixtureProblems, protoKeyPath } from '../domain/fixture.js';
import { checkOutcome } from '../domain/outcomes.js';
import type { SandboxRuntime } from '../domain/runtime.js';
import type { SandboxState } from '../domain/state.js';
import type { OperationId } from '../domain/types.js';
import { checkFault, type Faults } from './faults.js';
import type { SpecOperation } from './spec.js';

export interface ControlOptions {
  rt: SandboxRuntime;
  operations: SpecOperation[];
  handlers: AreaHandlers;
  faults: Faults;
  /** The events of the spec's `webhooks:`. */
  webhookEvents: string[];
}

/**
 * The state as GET /__sandbox/state shows it: stored secrets (the account's git token) are
 * redacted. The dump is still a valid fixture; loading it stores the text `***` as the token.
 */
export function redactedState(state: SandboxState): SandboxState {
  return state.gitAccountToken === null ? state : { ...state, gitAccountToken: REDACTED };
}
export const REDACTED = '***';

/** For each event of the spec's webhooks: the payload of one delivery about an existing resource. */
const TRIGGERS: Record<string, (rt: SandboxRuntime, body: Record<string, unknown>) => unknown> = {
  git_deploy_completed: (rt, body) => {
    if (!Number.isInteger(body.site_id)) throw badRequest('body.site_id: the id of a site with a finished git deploy');
    if (body.deploy_id !== undefined && !Number.isInteger(body.deploy_id))
      throw badRequest('body.deploy_id: the id of a deploy of that site');
    const entry = finishedDeploy(rt.state, body.site_id as number, body.deploy_id as number | undefined);
    if (!entry)
      throw new ApiError(404, MESSAGES.notFound, [
        `site ${body.site_id} has no finished git deploy${body.deploy_id === undefined ? '' : ` ${body.deploy_id}`}`,
      ]);
    return gitDeployPayload(entry);
  },
};

/**
 * Most faults, and most armed outcomes, set at once (each is looked at on every request it could
 * match), and most characters of one as sent: a fault's path is a route, not a text to keep.
 */
export const CONTROL_RULE_LIMIT = 100;
export const CONTROL_RULE_SIZE = 4_096;

/** Refuses one more rule past the limits above (a 400 saying how to clear them). */
function checkRoom(body: unknown, count: number, what: 'faults' | 'outcomes'): void {
  const size = sizeOf(body);
  if (size > CONTROL_RULE_SIZE)
    throw badRequest(`body: one of the ${what} takes at most ${CONTROL_RULE_SIZE} characters`);
  if (count >= CONTROL_RULE_LIMIT)
    throw badRequest(`at most ${CONTROL_RULE_LIMIT} ${what} at once: DELETE /__sandbox/${what} clears them`);
}

export type ControlRoute = [
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  run: (incoming: { body: unknown }) => unknown,
];

/** Routes outside the API that let tests drive the sandbox; each answers `{message, data, errors}`. */
export function controlRoutes({ rt, operations, handlers, faults, webhookEvents }: ControlOptions): ControlRoute[] {
  const known = new Set(operations.map((op) => op.operationId));
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
    // One valid delivery of an event of the spec's webhooks, about a resource that exists:
    // {"event": "git_deploy_completed", "site_id": 123456, "deploy_id"?: 3101}.
    [
      'POST',
      '/__sandbox/webhooks/trigger',
      ({ body: raw }) => {
        const body = (raw ?? {}) as Record<string, unknown>;
        const event = body.event;
        if (typeof event !== 'string' || !webhookEvents.includes(event))
          throw badRequest(`body.event: one of the spec's webhook events: ${webhookEvents.join(', ')}`);
        const trigger = TRIGGERS[event];
        if (!trigger) throw badRequest(`body.event: the sandbox cannot produce ${event} yet`);
        return rt.emitWebhook(event, trigger(rt, body));
      },
    ],
    ['GET', '/__sandbox/outcomes', () => rt.outcomes.armed],
    // {"outcome": "git_deploy_failed", "site_id": 123456, "count": 2} (outcomes.ts).
    [
      'POST',
      '/__sandbox/outcomes',
      ({ body }) => {
        checkRoom(body, rt.outcomes.armed.length, 'outcomes');
        return rt.outcomes.add(checkOutcome(body, rt.state));
      },
    ],
    [
      'DELETE',
      '/__sandbox/outcomes',
      () => {
        rt.outcomes.clear();
        return null;
      },
    ],
    ['GET', '/__sandbox/faults', () => faults.list()],
    // {"operationId": "getSite", "fault": "status", "status": 503, "times": 2} (faults.ts).
    [
      'POST',
      '/__sandbox/faults',
      ({ body }) => {
        checkRoom(body, faults.rules.length, 'faults');
        const { random: _r, remaining, ...rule } = faults.add(checkFault(body, (id) => known.has(id)));
        return { ...rule, remaining: Number.isFinite(remaining) ? remaining : null };
      },
    ],
    [
      'DELETE',
      '/__sandbox/faults',
      () => {
        faults.clear();
        return null;
      },
    ],
    // Refused, never a 500, past DUMP_SIZE_LIMIT: only a state changed in-process can get there
    // (the API and the fixtures are held to STATE_SIZE_LIMIT, the activity log trims itself).
    [
      'GET',
      '/__sandbox/state',
      () => {
        const size = sizeOf(rt.state);
        if (size > DUMP_SIZE_LIMIT)
          throw badRequest(
            `the state takes about ${size} characters as JSON, more than the dump answers (${DUMP_SIZE_LIMIT}); delete records or reset first`,
          );
        return redactedState(rt.state);
      },
    ],
    [
      'PUT',
      '/__sandbox/state',
      ({ body }) => {
        refuseProtoKeys(body);
        const problems = fixtureProblems(body, rt.budget.limit);
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
        const problems = fixtureProblems(mergePatch(structuredClone(rt.state), patch), rt.budget.limit);
        if (problems.length) throw badRequest(...problems);
        // In place: the state stays the same object, so queued work still applies to it.
        mergePatch(rt.state, patch);
        rt.budget.forget();
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

/** A `__proto__` key would reach Object.prototype through a merge: refused anywhere, with its path. */
function refuseProtoKeys(value: unknown): void {
  const path = protoKeyPath(value, 'body');
  if (path) throw badRequest(`${path}: not allowed (a state has no such key)`);
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

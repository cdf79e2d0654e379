// Documented outcomes on demand: the asynchronous failures the API documentation names, produced
// when the user asks (POST /__sandbox/outcomes, the CLI's --outcome, the MSW handlers' outcome()).
// Each comes from one sentence of the seed (part 6, 2: "Git deploy event `git_deploy_completed`:
// fires for success and failure alike …; may be delivered more than once per deploy; not sent for
// a deploy interrupted by a connection or timeout error"):
// - `git_deploy_failed`: the next N git deploys of the site fail: history `failed`, a failure alert,
//   the webhook with `git.state` `failed`;
// - `git_deploy_interrupted`: the next N git deploys are interrupted: history `failed`, a failure
//   alert, and no webhook;
// - `git_deploy_duplicate_delivery`: the next N git deploys' webhook is delivered twice (`copies`),
//   the same payload under the same delivery id.
// Nothing else: the seed names no other asynchronous failure.
import { ApiError, badRequest, MESSAGES, unprocessable } from './errors.js';
import type { SandboxState } from './state.js';

export const OUTCOMES = ['git_deploy_failed', 'git_deploy_interrupted', 'git_deploy_duplicate_delivery'] as const;
export type OutcomeName = (typeof OUTCOMES)[number];

export interface OutcomeSpec {
  outcome: OutcomeName;
  site_id: number;
  /** How many of the site's next git deploys (default 1). */
  count?: number;
  /** git_deploy_duplicate_delivery: how many times each delivery is sent (default 2). */
  copies?: number;
}

export interface ArmedOutcome extends Required<OutcomeSpec> {}

/** What one git deploy does when it ends. */
export interface DeployOutcome {
  state: 'deployed' | 'failed';
  /** Whether `git_deploy_completed` is sent. */
  webhook: boolean;
  /** Deliveries of the webhook (1, or more for a duplicate). */
  copies: number;
}

const KEYS = new Set(['outcome', 'site_id', 'count', 'copies']);

/** Checks an outcome as the user sent it, and that its site can produce it (checkOutcomeSite). */
export function checkOutcome(value: unknown, state: SandboxState): OutcomeSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('send {"outcome": "git_deploy_failed", "site_id": 123456, "count": 1}');
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KEYS.has(key)) throw badRequest(`outcome.${key}: unknown field`);
  if (!OUTCOMES.includes(o.outcome as OutcomeName))
    throw badRequest(`outcome.outcome: must be one of ${OUTCOMES.join(', ')}`);
  if (!Number.isInteger(o.site_id)) throw badRequest('outcome.site_id: the id of a site');
  if (o.count !== undefined && !(Number.isInteger(o.count) && (o.count as number) >= 1 && (o.count as number) <= 1000))
    throw badRequest('outcome.count: an integer from 1 to 1000');
  if (
    o.copies !== undefined &&
    !(Number.isInteger(o.copies) && (o.copies as number) >= 2 && (o.copies as number) <= 10)
  )
    throw badRequest('outcome.copies: an integer from 2 to 10');
  if (o.copies !== undefined && o.outcome !== 'git_deploy_duplicate_delivery')
    throw badRequest('outcome.copies: only for git_deploy_duplicate_delivery');
  checkOutcomeSite(state, o as unknown as OutcomeSpec);
  return o as unknown as OutcomeSpec;
}

/**
 * Whether the site can produce the outcome: it must exist (else a 404), and every outcome is about
 * git deploys, which a site not enrolled in git never runs (its deploys answer 422): refused with
 * the reason. Part of checkOutcome: the control route,
 * the `outcomes` option (--outcome) and the MSW handlers alike.
 */
function checkOutcomeSite(state: SandboxState, spec: OutcomeSpec): void {
  const site = state.sites.find((s) => s.id === spec.site_id);
  if (!site) throw new ApiError(404, MESSAGES.notFound, [`outcome.site_id: no site ${spec.site_id}`]);
  if (!site.gitEnrolled)
    throw unprocessable(
      `outcome.site_id: site ${spec.site_id} is not enrolled in git (its git deploys answer 422), so it cannot produce ${spec.outcome}`,
    );
}

/** Parses the CLI's --outcome: `NAME:SITE_ID[:COUNT]`, e.g. `git_deploy_failed:123456:2`. */
export function parseOutcomeFlag(text: string): Record<string, unknown> {
  const [outcome, site, count, ...rest] = text.split(':');
  if (!outcome || site === undefined || rest.length)
    throw new Error(`--outcome takes NAME:SITE_ID[:COUNT] (NAME one of ${OUTCOMES.join(', ')}), got "${text}"`);
  return { outcome, site_id: Number(site), ...(count === undefined ? {} : { count: Number(count) }) };
}

export class Outcomes {
  armed: ArmedOutcome[] = [];

  add(spec: OutcomeSpec): ArmedOutcome {
    const armed: ArmedOutcome = {
      outcome: spec.outcome,
      site_id: spec.site_id,
      count: spec.count ?? 1,
      copies: spec.copies ?? (spec.outcome === 'git_deploy_duplicate_delivery' ? 2 : 1),
    };
    this.armed.push(armed);
    return armed;
  }

  clear(): void {
    this.armed = [];
  }

  /** Takes one use of the first armed outcome of that kind for the site. */
  private take(outcome: OutcomeName, siteId: number): ArmedOutcome | undefined {
    const found = this.armed.find((a) => a.outcome === outcome && a.site_id === siteId);
    if (found && --found.count <= 0) this.armed = this.armed.filter((a) => a !== found);
    return found;
  }

  /** The outcome of a git deploy that starts now (decided at its start). */
  gitDeploy(siteId: number): DeployOutcome {
    if (this.armed.length === 0) return { state: 'deployed', webhook: true, copies: 1 };
    if (this.take('git_deploy_interrupted', siteId)) return { state: 'failed', webhook: false, copies: 0 };
    const failed = this.take('git_deploy_failed', siteId) !== undefined;
    const duplicate = this.take('git_deploy_duplicate_delivery', siteId);
    return { state: failed ? 'failed' : 'deployed', webhook: true, copies: duplicate?.copies ?? 1 };
  }
}

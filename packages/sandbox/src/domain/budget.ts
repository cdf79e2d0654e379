// The state's size budget: what clients store (sites, notes, collaborators, DNS records, git
// settings, … every text of the state but the activity log, which trims itself) is at most
// STATE_SIZE_LIMIT in size. A write (an operation whose spec states an effect) whose body would
// take the state past it is refused with a 400 (every operation with a body documents 400: see
// spec/DECISIONS.md, "The sandbox's size limits"); deleting frees the room. The state is measured by
// walking it, which costs time per value, so it is measured only when the writes since the last
// walk could have brought it within reach of the limit.
import { ApiError, MESSAGES } from './errors.js';
import type { SandboxState } from './state.js';

/** Most size (about the state's length as JSON, activity log aside) clients can store. */
export const STATE_SIZE_LIMIT = 32 * 1024 * 1024;
/**
 * Most size GET /__sandbox/state dumps (activity log included). Each character of text takes at
 * most 6 in JSON (`\u0000`), so the dump stays far below V8's largest string (2^29 - 24).
 */
export const DUMP_SIZE_LIMIT = 64 * 1024 * 1024;

/**
 * About the length of `value` as JSON: each text by its characters (escapes aside), each key,
 * number, boolean or null by a few more. Counts values, not characters: a 1 MB text costs one step.
 */
export function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 8;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) size += sizeOf(item) + 1;
    return size;
  }
  for (const key in value) size += key.length + 4 + sizeOf((value as Record<string, unknown>)[key]);
  return size;
}

/** The state's size without its activity log (trimmed by its own limits, runtime.ts). */
export function stateSize(state: SandboxState): number {
  let size = 0;
  for (const key in state) if (key !== 'activity') size += sizeOf(state[key as keyof SandboxState]);
  return size;
}

/**
 * What one write can add, at most, for `bodySize` of body: a text may land on every site and a few
 * times on each (a site's name is its name, display name and two URLs; a collaborator added to all
 * sites), plus the records it makes (alerts, history, queued work's results).
 */
const growthBound = (bodySize: number, sites: number) => (bodySize + 1024) * 8 * (sites + 1);

export class StateBudget {
  /** The state's size when it was last walked, and the state walked. */
  private measured = 0;
  private measuredState: SandboxState | undefined;
  /** At most this much was added since (the sum of the growth bounds of the writes since). */
  private unmeasured = 0;
  /** The operations that store what their body holds (set from the spec: index.ts). */
  private storing = new Set<string>();

  constructor(
    /** Queued work not run yet: each may still add what one body-less write can (growthBound). */
    private readonly queuedWork: () => number,
    readonly limit = STATE_SIZE_LIMIT,
  ) {}

  /** Sets the operations whose body may be stored (and so refused past the limit). */
  refuses(operations: Iterable<{ operationId: string }>): void {
    this.storing = new Set([...operations].map((o) => o.operationId));
  }

  /**
   * Admits a request that is not a GET before its handler runs. A write with a body is refused
   * (400) when the state's size plus the body's would pass the limit. A write without one is never
   * refused (what it adds is bounded by counts: alerts, backups per site), but counts towards the
   * next walk; a read sent with a body (a search) is not counted.
   */
  admit(state: SandboxState, operationId: string, body: unknown): void {
    if (body !== undefined && !this.storing.has(operationId)) return;
    const bodySize = body === undefined ? 0 : sizeOf(body);
    if (body !== undefined && this.upperBound(state) + bodySize > this.limit) {
      const size = this.measure(state);
      if (size + bodySize > this.limit)
        throw new ApiError(400, MESSAGES.badRequest, [
          `body: the sandbox keeps at most ${this.limit} characters of state (it holds ${size}, this body adds up to ${bodySize}); delete something or reset first`,
        ]);
    }
    this.unmeasured += growthBound(bodySize, state.sites.length);
  }

  /** The state's size now, walked (and the count of unmeasured growth started again). */
  measure(state: SandboxState): number {
    this.measured = stateSize(state);
    this.measuredState = state;
    this.unmeasured = this.queuedWork() * growthBound(0, state.sites.length);
    return this.measured;
  }

  /** At least the state's size: a state not walked yet (reset, loaded, patched) is walked. */
  private upperBound(state: SandboxState): number {
    if (state !== this.measuredState) return this.measure(state);
    return this.measured + this.unmeasured;
  }

  /** The state changed outside the API (PATCH /__sandbox/state): walk it before the next write. */
  forget(): void {
    this.measuredState = undefined;
  }
}

// The state's size budget: what clients store (sites, notes, collaborators, DNS records, git
// settings, … every text of the state but the activity log, which trims itself) is at most
// STATE_SIZE_LIMIT in size. A write (an operation whose spec states an effect) whose body would
// take the state past it is refused with a 400 (every operation with a body documents 400: see
// spec/DECISIONS.md, "The sandbox's size limits"); deleting frees the room. The state is measured by
// walking it, which costs time per value, so it is walked only when the writes since the last walk
// could have brought it to the limit. A write that stores more than its body and 1 KiB (a site's
// name in its URLs, a collaborator added on every site) can take the state past the limit by the
// difference until the next walk; the dump's limit leaves room for that.
import { ApiError, MESSAGES } from './errors.js';
import type { SandboxState } from './state.js';

/** Most size (about the state's length as JSON, activity log aside) clients can store. */
export const STATE_SIZE_LIMIT = 64 * 1024 * 1024;
/**
 * Most size GET /__sandbox/state dumps (activity log included). Each character of text takes at
 * most 6 in JSON (`\u0000`), so the dump stays below V8's largest string (2^29 - 24 characters).
 */
export const DUMP_SIZE_LIMIT = 80 * 1024 * 1024;

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

/** What a write is counted to add between walks besides its body (its record's other fields, an alert). */
const WRITE_GROWTH = 1024;

export class StateBudget {
  /** The state's size when it was last walked, and the state walked. */
  private measured = 0;
  private measuredState: SandboxState | undefined;
  /** What the writes since the last walk were counted to add (their bodies and WRITE_GROWTH each). */
  private unmeasured = 0;
  /** The operations that store what their body holds (set from the spec: index.ts). */
  private storing = new Set<string>();

  constructor(
    /** Queued work not run yet: each is counted as a write without a body. */
    private readonly queuedWork: () => number,
    readonly limit = STATE_SIZE_LIMIT,
  ) {}

  /** Sets the operations whose body may be stored (and so refused past the limit). */
  refuses(operations: Iterable<{ operationId: string }>): void {
    this.storing = new Set([...operations].map((o) => o.operationId));
  }

  /**
   * Admits a request that is not a GET before its handler runs. A write with a body is refused
   * (400) when the state's size, walked, plus the body's would pass the limit. The state is walked
   * when the writes counted since the last walk could take it there, or could have doubled it (so
   * walking costs in proportion to what was written). A write without a body is never refused
   * (what it adds is bounded by counts: alerts, backups per site) but is counted; a read sent with
   * a body (a search) is neither.
   */
  admit(state: SandboxState, operationId: string, body: unknown): void {
    if (body === undefined) {
      this.unmeasured += WRITE_GROWTH;
      return;
    }
    if (!this.storing.has(operationId)) return;
    const bodySize = sizeOf(body);
    const stale = state !== this.measuredState || this.unmeasured > this.measured;
    if (stale || this.measured + this.unmeasured + bodySize > this.limit) {
      const size = this.measure(state);
      if (size + bodySize > this.limit)
        throw new ApiError(400, MESSAGES.badRequest, [
          `body: the sandbox keeps at most ${this.limit} characters of state (it holds ${size}, this body adds up to ${bodySize}); delete something or reset first`,
        ]);
    }
    this.unmeasured += bodySize + WRITE_GROWTH;
  }

  /** The state's size now, walked (and the count of what was added since started again). */
  measure(state: SandboxState): number {
    this.measured = stateSize(state);
    this.measuredState = state;
    this.unmeasured = this.queuedWork() * WRITE_GROWTH;
    return this.measured;
  }

  /** The state changed outside the API (PATCH /__sandbox/state): walk it before the next write. */
  forget(): void {
    this.measuredState = undefined;
  }
}

// Types the gate's modules share: the spec model's (@hosting-api/openapi/model), the requests a
// phase sends and the answers it reads, and the statement checks' context and cases.
import type { OutgoingHttpHeaders } from 'node:http';
import type { FieldRule, Json, Operation, SpecModel, Statement } from '@hosting-api/openapi/model';

export type { FieldRule, Json, Operation, SpecModel, Statement };

/** A request as the phases build it: method, URL, headers and the body's text. */
export interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** What a report shows for a credential sent (token_credentials: a wrong secret, not the real one). */
  shown?: string | undefined;
  /** The operation a statement check sent it to: its answer is checked against the spec as well. */
  operationId?: string | undefined;
}

/** The paging block of a list's answer. */
export interface PageBlock {
  page?: number;
  perPage?: number;
  totalItems: number;
  lastPage?: number;
  nextPage?: number | string | null;
  [field: string]: unknown;
}

/** A JSON answer: the API's envelope; `data` is spec-shaped JSON, read as the spec model reads it. */
export interface Envelope {
  data?: Json;
  page?: PageBlock;
  errors?: string[];
  message?: string;
  [field: string]: unknown;
}

/** An answer: status, headers, its text and (when it parsed) its JSON. */
export interface Res {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  json?: Envelope | undefined;
  ms?: number;
}

/** What a statement check may ask of the phase that runs it. */
export interface RequestParts {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  auth?: string | undefined;
}
export interface CheckContext {
  model: SpecModel;
  live: boolean;
  allowWrites: boolean;
  request(op: Operation, parts?: RequestParts): Req;
  send(req: Req): Promise<Res>;
  reset(): Promise<void> | void;
  authUrl: string;
  client: { id: string | undefined; secret: string | undefined };
  /** Live runs: the path parameters a write is sent to (live-plan). */
  writePath?: Record<string, unknown> | undefined;
  /** Requests go to what the run made (support.ts ownContext). */
  own?: boolean;
  /** A state wait (waits.ts): polls `probe` until true, within the run's budget; false when out of it. */
  wait?: (what: string, probe: () => Promise<boolean>) => Promise<boolean>;
}

/** A case of a statement check: its outcome and, for a failure, what was sent and seen. */
export interface Case {
  statement: Statement;
  /** `flaky`: failed, then passed when the check ran again (flaky.ts judgeCase), with `observations`. */
  outcome: 'pass' | 'fail' | 'skip' | 'flaky';
  message?: string;
  reason?: string;
  request?: Req | undefined;
  expected?: string | number | undefined;
  actual?: string | number | undefined;
  [field: string]: unknown;
}

/** One check of the registry in checks/ (one file each). */
export interface StatementCheck {
  name: string;
  kinds: string[];
  doc: string;
  run(ctx: CheckContext, op: Operation): Promise<Case[]>;
}

/** What cappedFetch (http-cap) sends: a form body is encoded, a GET may carry a body. */
export interface FetchInit {
  method?: string | undefined;
  headers?: OutgoingHttpHeaders | undefined;
  body?: string | Buffer | URLSearchParams | null | undefined;
}

/** What cappedFetch answers: headers flattened to one string each, the body's bytes and its UTF-8 text. */
export interface CappedAnswer {
  statusCode: number;
  headers: Record<string, string | undefined>;
  bytes: Buffer;
  body: string;
}

/** An operation as spec-check indexes it by `METHOD /path`: `op` is the dereferenced operation object. */
export interface OperationInfo {
  path: string;
  method: string;
  op: Json;
  params: Json[];
  security: Operation['security'];
  model: Operation;
}

/** An answer as the response check reads it (a Dredd transaction's `real`, cappedFetch's answer). */
export interface RealAnswer {
  statusCode: number | string;
  headers?: Record<string, string | number | string[] | undefined> | undefined;
  body?: string | undefined;
}

/** A failed check of a report case, by the check's name. */
export interface Failure {
  check: string;
  message: string;
  [field: string]: unknown;
}

/** A case of the gate's report (report.ts): one per transaction, workflow or generated case of a phase. */
export interface ReportCase {
  phase: string;
  name: string;
  check?: string | undefined;
  operationId?: string | undefined;
  /** `flaky`: failed, then passed when sent again (flaky.ts); fails the run only with --fail-on-flaky. */
  outcome: 'pass' | 'fail' | 'skip' | 'flaky';
  /** A flaky case's sendings: request, answer, what differed. */
  observations?: unknown[] | undefined;
  expected?: unknown;
  actual?: unknown;
  ms?: number | undefined;
  reason?: string | undefined;
  input?: unknown;
  statement?: unknown;
  failures?: Failure[] | undefined;
  errors?: string[] | undefined;
  curl?: string | undefined;
}

/** A transaction's outcome as the examples phase records it (hooks.ts writes them; run.ts and main.ts read them). */
export interface ExampleResult {
  key: string;
  name: string;
  operationId?: string | undefined;
  status?: string | undefined;
  outcome: 'pass' | 'fail' | 'skip' | 'flaky';
  reason?: string | undefined;
  errors?: string[] | undefined;
  failures?: Failure[] | undefined;
  actual?: number | string | undefined;
  ms?: number | undefined;
  request?: Req | undefined;
  said?: string | undefined;
  empty?: boolean | undefined;
  probed?: boolean | undefined;
  [field: string]: unknown;
}

/** A result of any phase's results file: a transaction (examples), a step or a generated case (workflows, fuzz). */
export interface PhaseResult extends ExampleResult {
  check?: string | undefined;
  expected?: unknown;
  input?: unknown;
  statement?: unknown;
}
/** A phase's results file (run.ts, workflows.ts, fuzz.ts write it with --results; main.ts reads it). */
export interface PhaseResults {
  results?: PhaseResult[];
  problems?: (Failure & { name: string })[];
  summary?: { coverage?: number; [field: string]: unknown };
  coverage?: { responses?: { documented?: string[]; exercised?: string[] }; [field: string]: Json };
}

/** Passed, failed and skipped cases of a run and of each of its phases (seconds: how long the phase took). */
export interface PhaseTotals {
  passed: number;
  failed: number;
  skipped: number;
  flaky?: number;
  seconds?: number | undefined;
}
export interface Totals extends PhaseTotals {
  phases: Record<string, PhaseTotals>;
}

/** A value that breaks one rule of a schema (generate.ts): `what` says which. */
export interface Breaking {
  what: string;
  value: unknown;
}
/** A mutation of a JSON body (generate.ts): `apply` answers the new body. */
export interface Mutation {
  what: string;
  apply(body: Json): unknown;
}

/** A phase's usage error: one line on stderr, exit 2 (cli.ts parseCommandLine). */
export type Usage = (message: string) => never;

/** The values of a phase's command line (cli.ts parseCommandLine): a string per option, a boolean per flag. */
export type OptionValues<T> = { [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : string } & {
  help?: boolean;
};

/** A request or an answer as Dredd holds it in a transaction (its body base64 when bodyEncoding says so). */
export interface DreddMessage {
  method?: string;
  uri?: string;
  statusCode?: number | string;
  headers?: Record<string, string | undefined>;
  body?: string;
  bodyEncoding?: 'utf-8' | 'base64';
}

// The gate's checks, by name (as Schemathesis names its own): what each one checks, in which phases
// it runs, and whether it runs by default. `--checks` / `--exclude-checks` select them by name; the
// phases read the selection from CONTRACT_CHECKS / CONTRACT_EXCLUDE_CHECKS. A problem found by a
// check carries its name into every report.
import { STATEMENT_CHECKS } from './checks/index';

const CHECKS = [
  {
    name: 'status_code_conformance',
    phases: ['examples', 'workflows', 'fuzz'],
    doc: 'The answer has the status the request should get, and the spec documents that status for the operation.',
  },
  {
    name: 'content_type_conformance',
    phases: ['examples', 'workflows', 'fuzz'],
    doc: 'The Content-Type is one the spec documents for that status, and there is no body where the spec documents none.',
  },
  {
    name: 'response_headers_conformance',
    phases: ['examples', 'workflows', 'fuzz'],
    doc: 'Every header the spec marks required for that status is present.',
  },
  {
    name: 'response_schema_conformance',
    phases: ['examples', 'workflows', 'fuzz'],
    doc: "The body validates against the response's OpenAPI 3.1 schema (JSON Schema 2020-12): envelope, types, enums, required fields, formats.",
  },
  {
    name: 'ignored_auth',
    phases: ['examples', 'fuzz'],
    doc: 'An operation that needs a token answers its documented 401 to no token, a garbage token, a malformed header, a valid token under another scheme, a revoked token and (sandbox) an expired one.',
  },
  {
    name: 'download_conformance',
    phases: ['examples'],
    doc: 'A download is what its media type promises: a complete gzip stream for application/gzip, UTF-8 SQL text for application/sql.',
  },
  {
    name: 'non_empty_lists',
    phases: ['examples'],
    doc: 'With target data that promises data (nonEmptyLists), a list answers at least one item, so that its items are checked too.',
  },
  {
    name: 'response_coverage',
    phases: ['examples'],
    doc: 'Every documented response gets a transaction (mock, sandbox); a live run exercises at least --min-coverage percent of them.',
  },
  {
    name: 'workflow_success',
    phases: ['workflows'],
    doc: 'Every step of an Arazzo workflow (states, transitions, limits, paging, webhooks) meets its success criteria.',
  },
  {
    name: 'webhook_conformance',
    phases: ['workflows'],
    doc: "Every webhook delivery the target sends is an event of the spec's webhooks, with the documented Content-Type and a payload valid against its schema.",
  },
  {
    name: 'negative_data_rejection',
    phases: ['fuzz'],
    doc: 'Schema-invalid input (a wrong type, a value outside an enum or bounds, a missing required field, an unknown field) gets a documented 4xx with the error envelope, and a read before and after shows nothing changed.',
  },
  {
    name: 'positive_data_acceptance',
    phases: ['fuzz'],
    doc: 'Schema-valid input gets no 5xx and no status the operation does not document.',
  },
  {
    name: 'use_after_delete',
    phases: ['fuzz'],
    doc: "After a delete that succeeded at once (200 or 204), the resource's read answers 404.",
  },
  {
    name: 'ensure_resource_availability',
    phases: ['fuzz'],
    doc: 'After a create that succeeded, the new resource can be read and is in its list.',
  },
  {
    name: 'filter_semantics',
    phases: ['fuzz'],
    doc: 'Search and list results satisfy the filters and paging asked for: every item matches, perPage holds, totalItems and lastPage agree across pages.',
  },
  // The checks derived from the spec's behaviour statements (src/checks/, one file each).
  ...STATEMENT_CHECKS.map((c) => ({ name: c.name, phases: ['fuzz'], doc: c.doc })),
  {
    name: 'state_unchanged',
    phases: ['examples'],
    doc: 'Live runs without target data: every resource that existed before the run reads the same after it (every GET the spec states no effect for, every page and item of every list, before and after; what others did meanwhile is reported as concurrent, not failed); what the run created is deleted, exactly that (its ledger), and every setting it changed is put back.',
  },
  {
    name: 'max_response_time',
    phases: ['examples', 'fuzz'],
    doc: 'Every answer arrives within --max-response-time milliseconds (off unless that option is given).',
    off: true,
  },
];

const NAMES = CHECKS.map((c) => c.name);

/** Names from a comma-separated list; throws naming the unknown ones and the known ones. */
function parseNames(list: string | undefined, option: string) {
  const names = String(list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !NAMES.includes(n));
  if (unknown.length)
    throw new Error(`${option}: no check named ${unknown.join(', ')}; the checks are ${NAMES.join(', ')}`);
  return names;
}

/**
 * The set of checks that run: `checks` (default: every check not off by default, plus
 * max_response_time when a limit is set) minus `exclude`.
 */
function selectChecks({
  checks,
  exclude,
  maxResponseTime,
}: {
  checks?: string | undefined;
  exclude?: string | undefined;
  maxResponseTime?: unknown;
} = {}) {
  const chosen = parseNames(checks, '--checks');
  const excluded = parseNames(exclude, '--exclude-checks');
  const base = chosen.length
    ? chosen
    : CHECKS.filter((c) => !c.off || (c.name === 'max_response_time' && maxResponseTime)).map((c) => c.name);
  return new Set(base.filter((n) => !excluded.includes(n)));
}

/** The selection a phase runs with, from the environment the command line sets. */
function checksFromEnv(env = process.env) {
  return selectChecks({
    checks: env.CONTRACT_CHECKS,
    exclude: env.CONTRACT_EXCLUDE_CHECKS,
    maxResponseTime: env.CONTRACT_MAX_RESPONSE_TIME,
  });
}

/**
 * The check a problem of the spec's response check belongs to (@hosting-api/openapi/check words
 * its problems: "status …", "required header …", "Content-Type …", "body/…").
 */
function checkOfProblem(problem: string) {
  if (/^status \d+, expected|status not documented|^dredd: .*status/i.test(problem)) return 'status_code_conformance';
  if (/required header/.test(problem)) return 'response_headers_conformance';
  if (/content-type|a body \(\d+ bytes\) where the spec documents none|is not JSON/i.test(problem))
    return 'content_type_conformance';
  if (/^auth probe/.test(problem)) return 'ignored_auth';
  if (/^download:/.test(problem)) return 'download_conformance';
  if (/empty list, so no item was checked/.test(problem)) return 'non_empty_lists';
  if (/^response time/.test(problem)) return 'max_response_time';
  return 'response_schema_conformance';
}

export { CHECKS, checkOfProblem, checksFromEnv, NAMES, selectChecks };

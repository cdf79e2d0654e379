// Git deployment: configuration, connect (201 `Created`, initial deploy), update, disconnect, the
// account's git token (stored once, reused by every site, cleared per site), branches, deploys
// (202 processing → deployed later, `git_deploy_completed` webhook) and the paged history.
// Every operation answers 422 `Unprocessable Entity` for a site not enrolled in the new git
// integration; the core answers 403 for git writes without the git_edit scope (part 5).
import { sha1Hex } from '../../platform.js';
import { type Ctx, defineArea } from '../area.js';
import { badRequest, unprocessable } from '../errors.js';
import type { DeployOutcome } from '../outcomes.js';
import { DEFAULT_PER_PAGE, paginate } from '../pagination.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import { type GitRecord, nextId, type SandboxState, type SiteRecord } from '../state.js';
import type { OperationId, Schema } from '../types.js';

/** Part 7's 400 conditions, as the `errors` text of each. */
export const GIT_ERRORS = {
  tokenMissing: 'body.token: the git token is missing',
  repositoryMissing: 'body.repository: the repository is missing',
  branchBlank: 'body.branch: the branch is missing or blank',
  alreadyConnected: 'The site is already connected to git.',
  noToken: 'No git token is stored; store one with POST /sites/{site_id}/git/token before connecting.',
  notConnected: 'The site is not connected to git.',
  noBranch: 'No branch is set for the site.',
  noRepository: 'No repository is configured for the site.',
  noTokenForBranches: 'No git token is stored for the site.',
} as const;

const NOT_ENROLLED = 'The site is not enrolled in the new git integration.';
const ZERO_SHA = '0'.repeat(40);

const emptyConfig = (): Schema<'GitConfiguration'> => ({
  repository: '',
  branch: '',
  destinationPath: '',
  repositorySubdirectory: '',
  connected: false,
  hasToken: false,
});

/** The site, which must be enrolled in the new git integration (else 422). */
function enrolledSite(ctx: Pick<Ctx<OperationId>, 'site'> & { params: { site_id: number } }): SiteRecord {
  const site = ctx.site(ctx.params.site_id);
  if (!site.gitEnrolled) throw unprocessable(NOT_ENROLLED);
  return site;
}

/** The site's git record; created (not connected) on first write. */
function gitOf(state: SandboxState, siteId: number): GitRecord | undefined {
  return state.git.find((g) => g.siteId === siteId);
}
function ensureGit(state: SandboxState, siteId: number): GitRecord {
  let record = gitOf(state, siteId);
  if (!record) {
    record = { siteId, config: emptyConfig(), branches: [], history: [] };
    state.git.push(record);
  }
  return record;
}

/** The account's token is reused by every site, except one whose token was cleared. */
const hasToken = (state: SandboxState, record: GitRecord | undefined) =>
  state.gitAccountToken !== null && !record?.tokenCleared;

function configView(state: SandboxState, record: GitRecord | undefined): Schema<'GitConfiguration'> {
  const config = record ? { ...record.config } : emptyConfig();
  config.hasToken = hasToken(state, record);
  return config;
}

function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** Queues a deploy of the configured branch: `processing` now, `deployed` later (part 3). */
function startDeploy(
  ctx: Pick<Ctx<OperationId>, 'state' | 'rt' | 'activity'>,
  site: SiteRecord,
  record: GitRecord,
  message: string,
) {
  const { state, rt } = ctx;
  const id = nextId(state, 'gitDeploy', 3201);
  const previous = [...record.history].sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id)[0];
  const entry: Schema<'GitDeployHistoryEntry'> = {
    id,
    created: rt.clock.nowIso(),
    after: sha1Hex(`${site.id}:${id}:${record.config.repository}:${record.config.branch}`),
    before: previous?.after ?? ZERO_SHA,
    branch: record.config.branch,
    email: state.account.email,
    message,
    name: state.account.name,
    repository: record.config.repository,
    state: 'processing',
  };
  record.history.push(entry);
  ctx.activity(
    'git.deploy',
    'Git deploy started',
    `A deploy of branch ${entry.branch} to ${site.name} was started.`,
    site.id,
  );
  // A documented outcome armed for the site (outcomes.ts) is decided when the deploy starts.
  finishDeployLater(rt, site.id, id, rt.outcomes.gitDeploy(site.id));
  return entry;
}

function finishDeployLater(rt: SandboxRuntime, siteId: number, deployId: number, outcome: DeployOutcome) {
  rt.later(DURATIONS.gitDeploy, `git deploy ${deployId} processing → ${outcome.state}`, () => {
    const record = rt.state.git.find((g) => g.siteId === siteId);
    const entry = record?.history.find((h) => h.id === deployId);
    if (entry?.state !== 'processing') return;
    entry.state = outcome.state;
    const site = rt.state.sites.find((s) => s.id === siteId);
    const where = site?.name ?? `site ${siteId}`;
    if (outcome.state === 'failed') {
      rt.publishAlert({
        type: 'site.git_deploy_failed',
        category: 'failure',
        title: 'Git deploy failed',
        message: `The deploy of branch ${entry.branch} to ${where} failed.`,
        icon: 'git',
        siteId,
      });
    } else {
      rt.publishAlert({
        type: 'site.git_deploy_completed',
        category: 'completed',
        title: 'Git deploy completed',
        message: `Branch ${entry.branch} was deployed to ${where}.`,
        icon: 'git',
        siteId,
      });
    }
    // Part 6: only `git.state` of the payload is documented; an interrupted deploy sends nothing,
    // and a delivery may come more than once.
    if (outcome.webhook) rt.emitWebhook('git_deploy_completed', gitDeployPayload(entry), outcome.copies);
  });
}

/** The payload of `git_deploy_completed` for a deploy (part 6: `git.state`). */
export const gitDeployPayload = (entry: Schema<'GitDeployHistoryEntry'>) => ({ git: { state: entry.state } });

/**
 * The newest finished deploy of a site (`deploy_id` picks one), for POST /__sandbox/webhooks/trigger:
 * undefined when there is none.
 */
export function finishedDeploy(state: SandboxState, siteId: number, deployId?: number) {
  const history = state.git.find((g) => g.siteId === siteId)?.history ?? [];
  return [...history]
    .filter((h) => h.state !== 'processing' && (deployId === undefined || h.id === deployId))
    .sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id)[0];
}

export default defineArea({
  getSiteGitConfiguration: (ctx) => {
    const site = enrolledSite(ctx);
    return { data: configView(ctx.state, gitOf(ctx.state, site.id)) };
  },

  connectSiteGitRepository: (ctx) => {
    const { state, body } = ctx;
    const site = enrolledSite(ctx);
    if (blank(body.repository)) throw badRequest(GIT_ERRORS.repositoryMissing);
    if (blank(body.branch)) throw badRequest(GIT_ERRORS.branchBlank);
    const existing = gitOf(state, site.id);
    if (existing?.config.connected) throw badRequest(GIT_ERRORS.alreadyConnected);
    if (!hasToken(state, existing)) throw badRequest(GIT_ERRORS.noToken);
    const record = ensureGit(state, site.id);
    const branch = body.branch.trim();
    record.config = {
      repository: body.repository.trim(),
      branch,
      destinationPath: body.destination_path ?? '',
      repositorySubdirectory: body.repository_subdirectory ?? '',
      connected: true,
      hasToken: true,
    };
    // The sandbox cannot reach the repository: its branches are the configured one and main.
    record.branches = [...new Set([branch, 'main'])];
    ctx.activity(
      'git.connected',
      'Git repository connected',
      `Repository ${record.config.repository} was connected to ${site.name}.`,
      site.id,
    );
    startDeploy(ctx, site, record, 'Initial deploy');
    return { data: configView(state, record), message: 'Created' };
  },

  updateSiteGitConfiguration: (ctx) => {
    const { state, body } = ctx;
    const site = enrolledSite(ctx);
    const record = gitOf(state, site.id);
    if (!record?.config.connected) throw badRequest(GIT_ERRORS.notConnected);
    if (body.branch !== undefined && blank(body.branch)) throw badRequest(GIT_ERRORS.branchBlank);
    if (body.branch !== undefined) {
      record.config.branch = body.branch.trim();
      if (!record.branches.includes(record.config.branch)) record.branches.push(record.config.branch);
    }
    if (body.destination_path !== undefined) record.config.destinationPath = body.destination_path;
    if (body.repository_subdirectory !== undefined) record.config.repositorySubdirectory = body.repository_subdirectory;
    ctx.activity(
      'git.updated',
      'Git configuration updated',
      `The git configuration of ${site.name} was updated.`,
      site.id,
    );
    return { data: configView(state, record) };
  },

  deleteSiteGitConnection: (ctx) => {
    const { state } = ctx;
    const site = enrolledSite(ctx);
    const record = ensureGit(state, site.id);
    const wasConnected = record.config.connected;
    // Part 3: disconnected, and the stored token for the site is cleared. Repeating it is a no-op.
    record.config = emptyConfig();
    record.branches = [];
    record.tokenCleared = true;
    if (wasConnected) {
      ctx.activity(
        'git.disconnected',
        'Git repository disconnected',
        `The git repository of ${site.name} was disconnected.`,
        site.id,
      );
    }
    return { data: { disconnected: true } };
  },

  storeSiteGitToken: (ctx) => {
    const { state, body } = ctx;
    const site = enrolledSite(ctx);
    if (blank(body.token)) throw badRequest(GIT_ERRORS.tokenMissing);
    // Kept per account and reused by every site (part 4); this site's earlier clearing is undone.
    state.gitAccountToken = body.token.trim();
    const record = gitOf(state, site.id);
    if (record) {
      delete record.tokenCleared;
      record.config.hasToken = true;
    }
    ctx.activity('git.token_stored', 'Git token stored', `A git token was stored through ${site.name}.`, site.id);
    return { data: { stored: true } };
  },

  deleteSiteGitToken: (ctx) => {
    const { state } = ctx;
    const site = enrolledSite(ctx);
    // Clears the token for this site only: the account's token stays for the other sites.
    const record = ensureGit(state, site.id);
    record.tokenCleared = true;
    record.config.hasToken = false;
    ctx.activity('git.token_revoked', 'Git token revoked', `The git token of ${site.name} was cleared.`, site.id);
    return { data: { revoked: true } };
  },

  listSiteGitBranches: (ctx) => {
    const { state } = ctx;
    const site = enrolledSite(ctx);
    const record = gitOf(state, site.id);
    if (!record || blank(record.config.repository)) throw badRequest(GIT_ERRORS.noRepository);
    if (!hasToken(state, record)) throw badRequest(GIT_ERRORS.noTokenForBranches);
    return { data: [...record.branches] };
  },

  deploySiteGit: (ctx) => {
    const site = enrolledSite(ctx);
    const record = gitOf(ctx.state, site.id);
    if (!record?.config.connected) throw badRequest(GIT_ERRORS.notConnected);
    if (blank(record.config.branch)) throw badRequest(GIT_ERRORS.noBranch);
    const entry = startDeploy(ctx, site, record, `Deploy of ${record.config.branch} requested through the API`);
    return { data: { deploy_id: entry.id, state: entry.state } };
  },

  listSiteGitDeployHistory: (ctx) => {
    const site = enrolledSite(ctx);
    const history = [...(gitOf(ctx.state, site.id)?.history ?? [])].sort(
      (a, b) => b.created.localeCompare(a.created) || b.id - a.id,
    );
    const { items, page } = paginate(history, ctx.query.page ?? 1, ctx.query.per_page ?? DEFAULT_PER_PAGE);
    return { data: items.map((h) => ({ ...h })), page };
  },
});

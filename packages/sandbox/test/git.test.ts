// Git: enrollment (422), the git_edit scope (403), the seed's 400 conditions, the account token
// (stored once, reused, cleared per site), connect → initial deploy, deploy → deployed later with
// the git_deploy_completed webhook, the paged history, disconnect.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GIT_ERRORS } from '../src/domain/areas/git.js';
import { DURATIONS } from '../src/domain/runtime.js';
import { errorEnvelope, harness, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

/** Every git operation: [operationId, method, path suffix, body]. */
const OPS: [string, string, string, unknown][] = [
  ['getSiteGitConfiguration', 'GET', '/git', undefined],
  ['connectSiteGitRepository', 'POST', '/git', { repository: 'https://git.example.com/example/x', branch: 'main' }],
  ['updateSiteGitConfiguration', 'PUT', '/git', { branch: 'main' }],
  ['deleteSiteGitConnection', 'DELETE', '/git', undefined],
  ['storeSiteGitToken', 'POST', '/git/token', { token: 'pat_x' }],
  ['deleteSiteGitToken', 'DELETE', '/git/token', undefined],
  ['listSiteGitBranches', 'GET', '/git/branches', undefined],
  ['deploySiteGit', 'POST', '/git/deploy', undefined],
  ['listSiteGitDeployHistory', 'GET', '/git/history', undefined],
];

/** A 400 with the seed's message, the given error text, and a body the spec accepts. */
async function expect400(operationId: string, method: string, path: string, body: unknown, error: string | RegExp) {
  const r = await h.call(method, path, body);
  expect(r.status, `${method} ${path}`).toBe(400);
  const env = errorEnvelope(r);
  expect(env.message).toBe('There was a problem processing your request.');
  if (typeof error === 'string') expect(env.errors).toEqual([error]);
  else expect(env.errors?.join()).toMatch(error);
  expect(specProblems(operationId, r.status, r.body)).toEqual([]);
}

describe('enrollment and scopes', () => {
  it('answers 422 Unprocessable Entity to every git operation on a site not enrolled', async () => {
    for (const [operationId, method, suffix, body] of OPS) {
      const r = await h.call(method, `/sites/123461${suffix}`, body);
      expect(r.status, operationId).toBe(422);
      expect(errorEnvelope(r).message).toBe('Unprocessable Entity');
      expect(specProblems(operationId, r.status, r.body)).toEqual([]);
    }
    // Nothing changed on the account.
    expect(h.sb.runtime.state.gitAccountToken).toBe('ghp_sandboxseedtoken');
    expect(h.sb.runtime.state.git.map((g) => g.siteId)).toEqual([123456]);
  });

  it('answers 404 for an unknown site', async () => {
    for (const [operationId, method, suffix, body] of OPS) {
      const r = await h.call(method, `/sites/999999${suffix}`, body);
      expect(r.status, operationId).toBe(404);
      expect(specProblems(operationId, r.status, r.body)).toEqual([]);
    }
  });

  it('needs the git_edit scope for every git write (403), not for reads', async () => {
    const limited = await h.sb.token('sandbox-limited');
    for (const [operationId, method, suffix, body] of OPS) {
      const r = await h.call(method, `/sites/123456${suffix}`, body, { token: limited });
      if (method === 'GET') {
        expect(r.status, operationId).toBe(200);
      } else {
        expect(r.status, operationId).toBe(403);
        expect(errorEnvelope(r).errors?.[0]).toContain('git_edit');
        expect(specProblems(operationId, r.status, r.body)).toEqual([]);
      }
    }
    expect((await h.api.sites.git.get(123456)).connected).toBe(true);
  });
});

describe('configuration and token', () => {
  it('reads a connected site and an enrolled site with no repository', async () => {
    expect(await h.api.sites.git.get(123456)).toEqual({
      repository: 'https://github.com/example/ada-blog',
      branch: 'main',
      destinationPath: '/',
      repositorySubdirectory: '',
      connected: true,
      hasToken: true,
    });
    // The account's token is reused by every site.
    expect(await h.api.sites.git.get(123457)).toEqual({
      repository: '',
      branch: '',
      destinationPath: '',
      repositorySubdirectory: '',
      connected: false,
      hasToken: true,
    });
    expect(await h.api.sites.git.listBranches(123456)).toEqual(['main', 'develop']);
  });

  it('keeps the token per account and clears it for one site only', async () => {
    expect(await h.api.sites.git.revokeToken(123456)).toEqual({ revoked: true });
    expect((await h.api.sites.git.get(123456)).hasToken).toBe(false);
    expect((await h.api.sites.git.get(123457)).hasToken).toBe(true);
    await expect400(
      'listSiteGitBranches',
      'GET',
      '/sites/123456/git/branches',
      undefined,
      GIT_ERRORS.noTokenForBranches,
    );

    // Storing through another site does not undo 123456's clearing; storing through 123456 does.
    expect(await h.api.sites.git.storeToken(123457, { token: 'pat_new' })).toEqual({ stored: true });
    expect(h.sb.runtime.state.gitAccountToken).toBe('pat_new');
    expect((await h.api.sites.git.get(123456)).hasToken).toBe(false);
    await h.api.sites.git.storeToken(123456, { token: 'pat_newer' });
    expect((await h.api.sites.git.get(123456)).hasToken).toBe(true);
    expect(await h.api.sites.git.listBranches(123456)).toEqual(['main', 'develop']);
  });

  it('stores a token without connecting; a missing or blank token is a 400', async () => {
    h.sb.runtime.state.gitAccountToken = null;
    expect((await h.api.sites.git.get(123458)).hasToken).toBe(false);
    await expect400('storeSiteGitToken', 'POST', '/sites/123458/git/token', {}, /^body\.token/);
    await expect400('storeSiteGitToken', 'POST', '/sites/123458/git/token', { token: '' }, /^body\.token/);
    await expect400('storeSiteGitToken', 'POST', '/sites/123458/git/token', { token: '   ' }, GIT_ERRORS.tokenMissing);
    await h.api.sites.git.storeToken(123458, { token: 'pat_x' });
    expect(await h.api.sites.git.get(123458)).toMatchObject({ connected: false, hasToken: true });
    expect((await h.api.sites.git.get(123459)).hasToken).toBe(true);
  });
});

describe('connect, deploy, history', () => {
  it('connects (201 Created), which triggers an initial deploy that completes later', async () => {
    const r = await h.call('POST', '/sites/123457/git', {
      repository: 'https://git.example.com/example/shop-theme',
      branch: 'main',
      destination_path: 'themes/shop-theme',
    });
    expect(r.status).toBe(201);
    expect(specProblems('connectSiteGitRepository', r.status, r.body)).toEqual([]);
    expect(r.body).toEqual({
      message: 'Created',
      data: {
        repository: 'https://git.example.com/example/shop-theme',
        branch: 'main',
        destinationPath: 'themes/shop-theme',
        repositorySubdirectory: '',
        connected: true,
        hasToken: true,
      },
      errors: null,
    });
    const { data: history } = await h.api.sites.git.history(123457);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      id: 3201,
      state: 'processing',
      branch: 'main',
      repository: 'https://git.example.com/example/shop-theme',
      before: '0'.repeat(40),
    });
    expect(history[0]!.after).toMatch(/^[0-9a-f]{40}$/);
    expect(h.sb.runtime.webhooks).toEqual([]);

    h.sb.advance(DURATIONS.gitDeploy);
    expect((await h.api.sites.git.history(123457)).data[0]!.state).toBe('deployed');
    expect(h.sb.runtime.webhooks.map((w) => [w.event, w.payload])).toEqual([
      ['git_deploy_completed', { git: { state: 'deployed' } }],
    ]);
    expect(h.sb.runtime.state.alerts.some((a) => a.type === 'site.git_deploy_completed' && a.site?.id === 123457)).toBe(
      true,
    );
    expect(await h.api.sites.git.listBranches(123457)).toEqual(['main']);
  });

  it('deploys: 202 processing, deployed later, history newest first and paged', async () => {
    const r = await h.call('POST', '/sites/123456/git/deploy');
    expect(r.status).toBe(202);
    expect(specProblems('deploySiteGit', r.status, r.body)).toEqual([]);
    expect(r.body.data).toEqual({ deploy_id: 3201, state: 'processing' });
    for (let i = 0; i < 3; i++) {
      h.sb.advance(1000);
      await h.api.sites.git.deploy(123456);
    }
    const all = await h.api.sites.git.history(123456);
    expect(all.data.map((d) => [d.id, d.state])).toEqual([
      [3204, 'processing'],
      [3203, 'processing'],
      [3202, 'processing'],
      [3201, 'processing'],
      [3101, 'deployed'],
    ]);
    // Each deploy starts from the commit the previous one ended on.
    expect(all.data[3]!.before).toBe(all.data[4]!.after);
    expect(all.data[0]!.before).toBe(all.data[1]!.after);

    const page2 = await h.call('GET', '/sites/123456/git/history?per_page=2&page=2');
    expect(specProblems('listSiteGitDeployHistory', page2.status, page2.body)).toEqual([]);
    expect(page2.body.data.map((d: any) => d.id)).toEqual([3202, 3201]);
    expect(page2.body.page).toEqual({ currentPage: 2, nextPage: 3, lastPage: 3, perPage: 2, totalItems: 5 });
    const ids: number[] = [];
    for await (const d of h.api.paginate(h.api.sites.git.history, 123456, { per_page: 2 })) ids.push(d.id);
    expect(ids).toEqual([3204, 3203, 3202, 3201, 3101]);

    h.sb.advance(DURATIONS.gitDeploy);
    expect((await h.api.sites.git.history(123456)).data.every((d) => d.state === 'deployed')).toBe(true);
    expect(h.sb.runtime.webhooks.filter((w) => w.event === 'git_deploy_completed')).toHaveLength(4);
    const bad = await h.call('GET', '/sites/123456/git/history?per_page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join()).toMatch(/^query\.per_page/);
  });

  it('delivers git_deploy_completed through the webhook URL', async () => {
    const received: unknown[] = [];
    const server: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        received.push({ event: req.headers['x-hosting-event'], body: JSON.parse(text) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hooked = await harness({ webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` });
    try {
      const deploy = await hooked.call('POST', '/sites/123456/git/deploy');
      expect(deploy.status).toBe(202);
      hooked.sb.advance(DURATIONS.gitDeploy);
      const list = (await hooked.call('GET', '/__sandbox/webhooks')).body.data;
      expect(list).toEqual([
        expect.objectContaining({
          event: 'git_deploy_completed',
          status: 200,
          payload: { git: { state: 'deployed' } },
        }),
      ]);
      expect(received).toEqual([{ event: 'git_deploy_completed', body: { git: { state: 'deployed' } } }]);
    } finally {
      await hooked.sb.stop();
      server.close();
    }
  });

  it('updates the branch and paths; omitted fields stay, empty strings clear the paths', async () => {
    const updated = await h.api.sites.git.update(123456, { branch: 'release', repository_subdirectory: 'theme' });
    expect(updated).toMatchObject({ branch: 'release', destinationPath: '/', repositorySubdirectory: 'theme' });
    const cleared = await h.api.sites.git.update(123456, { destination_path: '', repository_subdirectory: '' });
    expect(cleared).toMatchObject({ branch: 'release', destinationPath: '', repositorySubdirectory: '' });
    expect(await h.api.sites.git.listBranches(123456)).toEqual(['main', 'develop', 'release']);
    expect((await h.api.sites.git.update(123456, {})).branch).toBe('release');
    const deploy = await h.api.sites.git.deploy(123456);
    expect((await h.api.sites.git.history(123456)).data[0]).toMatchObject({ id: deploy.deploy_id, branch: 'release' });
  });

  it('disconnects and clears the token for the site', async () => {
    const r = await h.call('DELETE', '/sites/123456/git');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success', data: { disconnected: true }, errors: null });
    expect(await h.api.sites.git.get(123456)).toMatchObject({ connected: false, hasToken: false, repository: '' });
    expect((await h.api.sites.git.get(123457)).hasToken).toBe(true);
    // The history stays; repeating the disconnect is a no-op.
    expect((await h.api.sites.git.history(123456)).data.map((d) => d.id)).toEqual([3101]);
    expect(await h.api.sites.git.disconnect(123456)).toEqual({ disconnected: true });
    // Connecting again needs a token stored for this site first.
    const body = { repository: 'https://github.com/example/ada-blog', branch: 'main' };
    await expect400('connectSiteGitRepository', 'POST', '/sites/123456/git', body, GIT_ERRORS.noToken);
    await h.api.sites.git.storeToken(123456, { token: 'pat_again' });
    expect(await status(h.api.sites.git.connect(123456, body))).toBe(200);
  });
});

describe("the seed's 400 conditions", () => {
  it('connect: repository missing, branch missing or blank, already connected, no token', async () => {
    const repo = 'https://git.example.com/example/shop-theme';
    await expect400('connectSiteGitRepository', 'POST', '/sites/123457/git', { branch: 'main' }, /^body\.repository/);
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123457/git',
      { repository: ' ', branch: 'main' },
      GIT_ERRORS.repositoryMissing,
    );
    await expect400('connectSiteGitRepository', 'POST', '/sites/123457/git', { repository: repo }, /^body\.branch/);
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123457/git',
      { repository: repo, branch: '' },
      /^body\.branch/,
    );
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123457/git',
      { repository: repo, branch: '  ' },
      GIT_ERRORS.branchBlank, // the spec's pattern \S refuses it, in the seed's words
    );
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123456/git',
      { repository: repo, branch: 'main' },
      GIT_ERRORS.alreadyConnected,
    );
    await h.api.sites.git.revokeToken(123457);
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123457/git',
      { repository: repo, branch: 'main' },
      GIT_ERRORS.noToken,
    );
    h.sb.runtime.state.gitAccountToken = null;
    await expect400(
      'connectSiteGitRepository',
      'POST',
      '/sites/123458/git',
      { repository: repo, branch: 'main' },
      GIT_ERRORS.noToken,
    );
    expect((await h.api.sites.git.history(123457)).data).toEqual([]);
  });

  it('update and deploy: not connected; update: blank branch; deploy: no branch set', async () => {
    await expect400(
      'updateSiteGitConfiguration',
      'PUT',
      '/sites/123457/git',
      { branch: 'main' },
      GIT_ERRORS.notConnected,
    );
    await expect400('deploySiteGit', 'POST', '/sites/123457/git/deploy', undefined, GIT_ERRORS.notConnected);
    await expect400('updateSiteGitConfiguration', 'PUT', '/sites/123456/git', { branch: ' ' }, GIT_ERRORS.branchBlank);
    await expect400('updateSiteGitConfiguration', 'PUT', '/sites/123456/git', { branch: '' }, GIT_ERRORS.branchBlank);
    h.sb.runtime.state.git[0]!.config.branch = '';
    await expect400('deploySiteGit', 'POST', '/sites/123456/git/deploy', undefined, GIT_ERRORS.noBranch);
  });

  it('branches: repository or token missing', async () => {
    await expect400('listSiteGitBranches', 'GET', '/sites/123457/git/branches', undefined, GIT_ERRORS.noRepository);
    h.sb.runtime.state.gitAccountToken = null;
    await expect400(
      'listSiteGitBranches',
      'GET',
      '/sites/123456/git/branches',
      undefined,
      GIT_ERRORS.noTokenForBranches,
    );
  });
});

// The one list of destructive operations (model/index.js `isDestructive`, `x-destructive`) and the one
// reading of a target's address (model/target.js): what the CLI's guard, the MCP server and the gate read.
import { describe, expect, it } from 'vitest';
import { isDestructive, isSafe, loadModel, resolveTarget } from '../model/index.js';

describe('destructive operations', () => {
  it('every DELETE, and what the spec marks x-destructive: true; an explicit false wins', async () => {
    expect(isDestructive({}, 'delete')).toBe(true);
    expect(isDestructive({ 'x-destructive': true }, 'post')).toBe(true);
    expect(isDestructive({ 'x-destructive': false }, 'delete')).toBe(false);
    expect(isDestructive({}, 'put')).toBe(false);
    const model = await loadModel();
    const ids = model.destructiveOperations.map((o) => o.operationId);
    const deletes = model.operations.filter((o) => o.method === 'delete').map((o) => o.operationId);
    expect(ids.filter((id) => !deletes.includes(id)).sort()).toEqual([
      'batchDestroyCollaborators',
      'createSiteRestore',
      'resetSiteCmsPassword',
      'revokeAccessToken',
    ]);
    expect(ids).toEqual(expect.arrayContaining(deletes));
  });
});

describe('safe operations', () => {
  it('a safe method with no x-effects: the two GETs the documentation gives an effect are not safe', async () => {
    expect(isSafe({}, 'GET')).toBe(true);
    expect(isSafe({ 'x-effects': [{ kind: 'terminated' }] }, 'get')).toBe(false);
    expect(isSafe({}, 'post')).toBe(false);
    const model = await loadModel();
    const unsafeGets = model.operations.filter((o) => o.method === 'get' && !o.safe).map((o) => o.operationId);
    expect(unsafeGets.sort()).toEqual(['getSiteCmsDbAdminUrl', 'getSiteDisconnectSsh']);
    expect(model.safeOperations.every((o) => o.method === 'get')).toBe(true);
  });
});

describe('resolveTarget', () => {
  it('requires /v1, derives the auth URL, trims a trailing /, and says what to fix', () => {
    expect(resolveTarget({ baseUrl: 'https://api.example/v1/' })).toEqual({
      baseUrl: 'https://api.example/v1',
      authUrl: 'https://api.example',
    });
    expect(resolveTarget({ baseUrl: 'http://h:1/api/v1', authUrl: 'http://auth:2/' })).toEqual({
      baseUrl: 'http://h:1/api/v1',
      authUrl: 'http://auth:2',
    });
    expect(() => resolveTarget({ baseUrl: 'http://127.0.0.1:9/api' })).toThrow(
      "--base-url must end in /v1, the API's version path (got http://127.0.0.1:9/api); for example http://127.0.0.1:9/v1.",
    );
    expect(() => resolveTarget({ baseUrl: 'ftp://x/v1' })).toThrow('--base-url is not an http(s) URL: "ftp://x/v1".');
    expect(() => resolveTarget({ baseUrl: 'https://x/v1', authUrl: 'auth' }, { authUrl: 'authUrl' })).toThrow(
      'authUrl is not an http(s) URL: "auth".',
    );
    expect(() => resolveTarget({})).toThrow(/^no API address/);
  });
});

// The client reads its addresses with the shared resolveTarget: a base URL without /v1 is refused
// before anything is sent, and the token service root defaults to the base URL without /v1.
import { describe, expect, it } from 'vitest';
import { createClient, resolveTarget, TargetError } from '../src/index';

describe('addresses', () => {
  it('refuses a baseUrl without /v1 with the gate’s message; derives authUrl', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:9/api', accessToken: 't' })).toThrow(
      "createClient: baseUrl must end in /v1, the API's version path (got http://127.0.0.1:9/api); for example http://127.0.0.1:9/v1.",
    );
    let error: unknown;
    try {
      createClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 't' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TargetError);
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/v1/', accessToken: 't' });
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      baseUrl: 'http://127.0.0.1:9/v1',
      authUrl: 'http://127.0.0.1:9',
    });
    expect(resolveTarget({ baseUrl: 'https://api.example/v1' }).authUrl).toBe('https://api.example');
  });
});

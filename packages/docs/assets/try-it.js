// "Try it" on an operation page: sends the page's request, as the reader edits it, to the base URL
// (or, for the token operations, the auth URL) the reader types, with the reader's own client ID
// and secret. Those four stay in this tab's session storage and go only to the addresses typed:
// the client ID and secret to {auth_url}/auth/token, the token it answers to the base URL. A
// destructive request (a DELETE, or an operation the spec marks x-destructive) is sent only after
// the reader confirms it. When `pnpm docs:serve` serves the page, it says where its sandbox is and
// fills the empty fields with it.
(() => {
  const section = document.querySelector('section.try-it');
  if (!section) return;
  const form = section.querySelector('form');
  const result = section.querySelector('.try-it-result');
  const request = JSON.parse(document.getElementById('example-request').textContent);
  const KEY = 'hosting-api:try-it';
  const SAVED = ['base', 'auth', 'clientId', 'clientSecret'];
  const show = (text) => {
    result.hidden = false;
    result.textContent = text;
  };
  let saved = {};
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
  } catch {}
  for (const name of SAVED) if (saved[name]) form.elements[name].value = saved[name];
  form.addEventListener('input', () => {
    const values = Object.fromEntries(SAVED.map((name) => [name, form.elements[name].value.trim()]));
    try {
      sessionStorage.setItem(KEY, JSON.stringify(values));
    } catch {}
  });
  /** An http(s) URL without a trailing slash, or an Error saying what to type. */
  const address = (name, label) => {
    const value = form.elements[name].value.trim().replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/.test(value)) throw new Error(`Type the ${label}, an http:// or https:// address.`);
    return value;
  };
  /** The base URL, which ends in /v1: every path of the API is under it. */
  const baseUrl = () => {
    const value = address('base', 'base URL');
    if (!/\/v1$/.test(new URL(value).pathname))
      throw new Error(
        `The base URL ends in /v1 (${value}/v1, if that is the server): every path of the API is under it.`,
      );
    return value;
  };
  /** base + path, refusing a path that would leave base (`//elsewhere`, `@host`, `../`). */
  const within = (base, path) => {
    const url = new URL(base + path);
    if (url.origin !== new URL(base).origin || !url.pathname.startsWith(new URL(base).pathname))
      throw new Error(`The path must stay under ${base}.`);
    return url.href;
  };
  const clientCredentials = () => {
    const [id, secret] = [form.elements.clientId.value.trim(), form.elements.clientSecret.value];
    if (!id || !secret) throw new Error('Type your client ID and client secret.');
    return { client_id: id, client_secret: secret };
  };
  const token = async (auth) => {
    const res = await fetch(`${auth}/auth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', ...clientCredentials() }),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok || !answer?.data?.access_token) {
      // The envelope's errors say why (e.g. "Invalid client credentials."); its message is generic.
      const errors = Array.isArray(answer?.errors) ? answer.errors.filter((e) => typeof e === 'string') : [];
      const why = [answer?.message ?? 'no access token', ...errors].join(' ');
      throw new Error(`${auth}/auth/token answered ${res.status}: ${why}`);
    }
    return answer.data.access_token;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      if (request.method === 'GET' && request.body)
        throw new Error(`${request.operationId} sends a body with GET, which browsers cannot send: try it with curl.`);
      const auth = request.requiresToken || request.root === 'auth' ? address('auth', 'auth URL') : null;
      const base = request.root === 'auth' ? auth : baseUrl();
      const url = within(base, form.elements.path.value.trim());
      let body;
      const headers = {};
      if (request.body) {
        let value;
        try {
          value = JSON.parse(form.elements.body?.value ?? 'null');
        } catch {
          throw new Error('The body is not valid JSON.');
        }
        if (request.body.mediaType === 'application/x-www-form-urlencoded') {
          // The token operations: the reader's own client, and (to revoke) a token of it.
          if ('client_id' in value) Object.assign(value, clientCredentials());
          if ('token' in value) value.token = await token(auth);
          body = new URLSearchParams(value);
        } else body = JSON.stringify(value);
        headers['content-type'] = request.body.mediaType;
      }
      const where = new URL(url).origin;
      if (
        request.destructive &&
        !window.confirm(`${request.method} ${url}\n\nThis changes or deletes data at ${where} for good. Send it?`)
      ) {
        show('Not sent.');
        return;
      }
      if (request.requiresToken) headers.authorization = `Bearer ${await token(auth)}`;
      show(`${request.method} ${url}\nSending…`);
      const res = await fetch(url, { method: request.method, headers, body });
      const text = await res.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {}
      show(`${request.method} ${url}\n${res.status} ${res.statusText}\n\n${shown}`);
    } catch (error) {
      const reason =
        error instanceof TypeError && /fetch/i.test(error.message)
          ? "No answer: the server is down, or it does not allow this page's origin (CORS)."
          : error.message;
      show(reason);
    }
  });
  // Served by docs:serve: say where its sandbox is and what its test client is, and fill the fields
  // the reader has left empty with them.
  if (!location.protocol.startsWith('http')) return;
  fetch('/__docs/sandbox.json')
    .then((res) => (res.ok ? res.json() : null))
    .then((sandbox) => {
      if (!sandbox) return;
      const note = section.querySelector('.try-it-sandbox');
      const values = {
        base: sandbox.url,
        auth: sandbox.authUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
      };
      for (const [name, value] of Object.entries(values))
        if (!form.elements[name].value) form.elements[name].value = value;
      note.textContent = `docs:serve started a sandbox beside this portal: base URL ${sandbox.url}, auth URL ${sandbox.authUrl}, client ID ${sandbox.clientId}, client secret ${sandbox.clientSecret}. Empty fields below are filled with them.`;
      note.hidden = false;
    })
    .catch(() => {});
})();

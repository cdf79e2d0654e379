// "Try it" on an operation page: sends the page's example request to the local sandbox that
// `pnpm docs:serve` starts beside the portal (it tells the page where, at /__docs/sandbox.json),
// with a token from the sandbox's token operation, and shows the answer as it came.
(() => {
  const section = document.querySelector('section.try-it');
  if (!section) return;
  const button = section.querySelector('button');
  const result = section.querySelector('.try-it-result');
  const request = JSON.parse(document.getElementById('example-request').textContent);
  const show = (text) => {
    result.hidden = false;
    result.textContent = text;
  };
  const encode = (body) =>
    body.mediaType === 'application/x-www-form-urlencoded'
      ? new URLSearchParams(body.value)
      : JSON.stringify(body.value);
  button.addEventListener('click', async () => {
    let sandbox;
    try {
      const res = await fetch('/__docs/sandbox.json');
      if (!res.ok) throw new Error(String(res.status));
      sandbox = await res.json();
    } catch {
      show('No local sandbox here. Run `pnpm docs:serve` and open the portal at the address it prints.');
      return;
    }
    if (request.method === 'GET' && request.body) {
      show(`${request.operationId} sends a body with GET, which browsers cannot send: try it with curl.`);
      return;
    }
    try {
      const headers = {};
      if (request.requiresToken) {
        const token = await fetch(`${sandbox.authUrl}/auth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: sandbox.clientId,
            client_secret: sandbox.clientSecret,
          }),
        }).then((r) => r.json());
        headers.authorization = `Bearer ${token.data.access_token}`;
      }
      if (request.body) headers['content-type'] = request.body.mediaType;
      const query = new URLSearchParams(request.query).toString();
      const url = `${request.root === 'auth' ? sandbox.authUrl : sandbox.url}${request.path}${query ? `?${query}` : ''}`;
      const res = await fetch(url, {
        method: request.method,
        headers,
        body: request.body ? encode(request.body) : undefined,
      });
      const text = await res.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {}
      show(`${request.method} ${url}\n${res.status} ${res.statusText}\n\n${shown}`);
    } catch (error) {
      show(`The sandbox did not answer as expected: ${error.message}`);
    }
  });
})();

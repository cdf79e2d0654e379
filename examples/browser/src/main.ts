// The example app: sign in with the sandbox's client credentials, list the sites, add a note.
// The API addresses come from the page's query (?api=…&auth=…), by default the sandbox CLI's
// (`hosting-api-sandbox --cors`, port 4011). A client secret in a page is for the sandbox only:
// against the real API, get tokens on your server and give the page `accessToken` instead.
import { createClient, type HostingApiClient, HostingApiError } from '@hosting-api/client';

const query = new URLSearchParams(location.search);
const authUrl = query.get('auth') ?? 'http://127.0.0.1:4011';
const baseUrl = query.get('api') ?? `${authUrl}/v1`;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const status = $<HTMLParagraphElement>('#status');
const say = (text: string, error = false) => {
  status.textContent = text;
  status.className = error ? 'error' : '';
};
const problem = (error: unknown) =>
  error instanceof HostingApiError && error.status !== undefined
    ? `${error.status}: ${error.message}`
    : `Cannot reach the API (${String(error)})`;

let client: HostingApiClient | undefined;
let firstSite: number | undefined;

async function showSites(api: HostingApiClient) {
  const { data: sites } = await api.sites.list();
  $('#sites').replaceChildren(
    ...sites.map((site) =>
      Object.assign(document.createElement('li'), { textContent: `${site.name} (${site.state})` }),
    ),
  );
  firstSite = sites[0]?.id;
  $<HTMLFormElement>('#note').hidden = firstSite === undefined;
}

$<HTMLFormElement>('#sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const api = createClient({
    baseUrl,
    authUrl,
    clientId: String(form.get('clientId')),
    clientSecret: String(form.get('clientSecret')),
  });
  say('Signing in…');
  try {
    await showSites(api);
    client = api;
    say(`Signed in to ${baseUrl}.`);
  } catch (error) {
    say(problem(error), true);
  }
});

$<HTMLFormElement>('#note').addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!client || firstSite === undefined) return;
  const form = new FormData(event.target as HTMLFormElement);
  try {
    const note = await client.sites.notes.create(firstSite, {
      subject: String(form.get('subject')),
      body: String(form.get('body')),
    });
    say(`Note ${note.id} added: ${note.subject}`);
  } catch (error) {
    say(problem(error), true);
  }
});

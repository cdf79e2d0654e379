// The example app on msw's browser worker, with no server: @hosting-api/sandbox/msw answers the
// app's calls to this page's own origin under /api (/api/auth/token, /api/v1/…) inside the page,
// with the sandbox's state and clock. ?speed=N sets the clock's speed (0: frozen; then
// window.hostingSandbox.advance(ms) moves it, from the console or a test); ?start=ISO-DATE the
// virtual time it starts at.
import { createSandboxHandlers } from '@hosting-api/sandbox/msw';
import { setupWorker } from 'msw/browser';

const query = new URLSearchParams(location.search);
const authUrl = `${location.origin}/api`;
const speed = query.has('speed') ? Number(query.get('speed')) : undefined;
const startTime = query.get('start') ?? undefined;
const sandbox = createSandboxHandlers({ baseUrl: `${authUrl}/v1`, authUrl, speed, startTime });
await setupWorker(...sandbox.handlers).start({
  serviceWorker: { url: './mockServiceWorker.js' },
  onUnhandledRequest: 'bypass',
  quiet: true,
});
Object.assign(window, { hostingSandbox: sandbox });

// The app reads its addresses from the query: point it at the handlers, then start it.
if (!query.has('auth')) {
  query.set('auth', authUrl);
  history.replaceState(null, '', `?${query}`);
}
await import('./main.js');
document.body.dataset.ready = 'msw';

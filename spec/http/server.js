// The timeouts of the repository's node:http servers (`@hosting-api/openapi/http/server`): the
// mock's front and the MCP HTTP server use them, with the sandbox's values (packages/sandbox
// src/http/server.ts TIMEOUTS), so that no peer holds a connection or its memory for long:
//   - the request's headers must arrive within `headers`, the whole request within `request`;
//   - an idle keep-alive connection closes after `keepAlive`;
//   - a connection with no traffic either way for `idle` is destroyed: a client that stopped
//     reading an answer (its socket buffer full) holds nothing longer than that;
//   - a client that half-closes after a full request (shutdown of its write side) still gets the answer.

/** Milliseconds. */
export const SERVER_TIMEOUTS = Object.freeze({ headers: 10_000, request: 30_000, keepAlive: 5_000, idle: 30_000 });

/** The options of `http.createServer(options, handler)` for these timeouts. */
export function serverOptions(timeouts = {}) {
  const t = { ...SERVER_TIMEOUTS, ...timeouts };
  return {
    headersTimeout: t.headers,
    requestTimeout: t.request,
    keepAliveTimeout: t.keepAlive,
    // How often Node checks the headers and request timeouts (its default, 30 s, is longer than they are).
    connectionsCheckingInterval: Math.min(1_000, t.headers),
  };
}

/** Sets on a server made with serverOptions() what its constructor cannot: the idle timeout and half-open answers. */
export function limitServer(server, timeouts = {}) {
  const t = { ...SERVER_TIMEOUTS, ...timeouts };
  server.setTimeout(t.idle, (socket) => socket.destroy());
  // Node's own switch (http.Server#httpAllowHalfOpen, default false): without it, the end of the
  // client's side aborts a request still being answered (an answer that waits on anything async).
  server.httpAllowHalfOpen = true;
  return server;
}

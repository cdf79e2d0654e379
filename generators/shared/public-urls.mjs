// The project's public addresses, in one place, for every generated link that leaves the package
// it is generated into (the client's `@see` links to the API reference, in its published types).

/** The repository (package.json `repository`). */
export const REPOSITORY_URL = 'https://github.com/hosting-api/hosting-api';

/**
 * The documentation portal as published (packages/docs, built by `pnpm run docs`): the repository's
 * GitHub Pages site. `pnpm docs:serve` serves the same pages locally at http://127.0.0.1:8080/.
 */
export const PORTAL_URL = 'https://hosting-api.github.io/hosting-api/';

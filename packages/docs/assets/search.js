// One full-text search over the reference, the guides and the operation pages, in the header of
// every page of the portal (the reference's too). On the box's first use it loads MiniSearch
// (assets/minisearch.js, copied from the npm package) and the pages' text (assets/search-index.js,
// built by generators/portal/portal.mjs) as scripts, not fetches, so it also works from file://.
// Prefix and typo-tolerant matching: `webhok` finds the webhooks guide.
(() => {
  const input = document.getElementById('site-search');
  const list = document.getElementById('site-search-results');
  if (!input || !list) return;
  // Result links are relative to the site root: where this script is, less assets/search.js.
  const root = document.currentScript?.src.replace(/assets\/search\.js.*$/, '') ?? '';
  const load = (file) =>
    new Promise((resolve, reject) => {
      const script = Object.assign(document.createElement('script'), { src: `${root}assets/${file}` });
      script.onload = resolve;
      script.onerror = () => reject(new Error(`assets/${file} did not load`));
      document.head.append(script);
    });
  // Words keep their underscores and hyphens (`per_page`, `Retry-After`); a hyphenated word is also
  // indexed by its parts.
  const tokenize = (text) =>
    text
      .split(/[^\p{L}\p{N}_-]+/u)
      .flatMap((w) => (w.includes('-') ? [w, ...w.split('-')] : [w]))
      .filter(Boolean);
  let engine;
  const ready = () =>
    (engine ??= Promise.all([load('minisearch.js'), load('search-index.js')]).then(() => {
      const search = new window.MiniSearch({
        fields: ['title', 'text'],
        storeFields: ['title', 'kind', 'url', 'text'],
        tokenize,
        searchOptions: {
          boost: { title: 3 },
          prefix: (term) => term.length > 2,
          fuzzy: (term) => (term.length > 4 ? 0.2 : 0),
          combineWith: 'AND',
        },
      });
      search.addAll(window.SEARCH_INDEX.map((entry, id) => ({ id, ...entry })));
      return search;
    }));
  /** Some words of the page's text around the first word that matched. */
  const snippet = (text, terms) => {
    const lower = text.toLowerCase();
    const at = Math.max(
      0,
      ...terms
        .map((t) => lower.indexOf(t.toLowerCase()))
        .filter((i) => i >= 0)
        .slice(0, 1),
    );
    const start = Math.max(0, at - 50);
    const cut = text.slice(start, at + 90);
    return `${start ? '…' : ''}${cut}${at + 90 < text.length ? '…' : ''}`;
  };
  let asked = '';
  const show = async (query) => {
    asked = query;
    const search = query.trim() ? await ready() : null;
    if (asked !== query) return; // a later keystroke has its own answer
    const hits = search ? search.search(query).slice(0, 12) : [];
    list.replaceChildren(
      ...hits.map((hit) => {
        const item = document.createElement('li');
        const link = Object.assign(document.createElement('a'), { href: root + hit.url, textContent: hit.title });
        link.append(
          Object.assign(document.createElement('small'), { textContent: hit.kind }),
          Object.assign(document.createElement('span'), {
            className: 'snippet',
            textContent: snippet(hit.text, hit.terms),
          }),
        );
        item.append(link);
        return item;
      }),
    );
    if (search && !hits.length)
      list.append(Object.assign(document.createElement('li'), { textContent: 'No page matches.' }));
    list.hidden = !search;
  };
  const fail = (error) => {
    list.replaceChildren(
      Object.assign(document.createElement('li'), { textContent: `Search is unavailable: ${error.message}` }),
    );
    list.hidden = false;
  };
  input.addEventListener('focus', () => ready().catch(() => {}), { once: true });
  input.addEventListener('input', () => show(input.value).catch(fail));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      input.value = '';
      show('');
    }
  });
  // Ctrl+K (or ⌘K) and "/" go to this search on every page, the reference's included (Redoc's own
  // search, which Ctrl+K would open, is hidden there).
  document.addEventListener(
    'keydown',
    (event) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '');
      if (((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') || (event.key === '/' && !typing)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        input.focus();
      }
    },
    true,
  );
})();

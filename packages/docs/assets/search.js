// One search over the guides and the operations, in the header of every page of the portal
// (the reference's too). The index (search-index.js, built by generators/portal/portal.mjs) is a
// script, not a fetched file, so the search also works from file:// and offline.
(() => {
  const input = document.getElementById('site-search');
  const list = document.getElementById('site-search-results');
  const index = window.SEARCH_INDEX ?? [];
  if (!input || !list) return;
  // Result links are relative to the site root: where this script is, less assets/search.js.
  const root = document.currentScript?.src.replace(/assets\/search\.js.*$/, '') ?? '';
  const show = (query) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = words.length
      ? index
          .map((entry) => {
            const title = entry.title.toLowerCase();
            const text = `${title} ${entry.text.toLowerCase()}`;
            if (!words.every((w) => text.includes(w))) return null;
            return { entry, score: words.filter((w) => title.includes(w)).length + (entry.kind === 'Guide' ? 0.5 : 0) };
          })
          .filter(Boolean)
          .sort((a, b) => b.score - a.score)
          .slice(0, 12)
      : [];
    list.replaceChildren(
      ...hits.map(({ entry }) => {
        const item = document.createElement('li');
        const link = Object.assign(document.createElement('a'), { href: root + entry.url, textContent: entry.title });
        link.append(Object.assign(document.createElement('small'), { textContent: entry.kind }));
        item.append(link);
        return item;
      }),
    );
    if (words.length && !hits.length)
      list.append(Object.assign(document.createElement('li'), { textContent: 'No guide or operation matches.' }));
    list.hidden = !words.length;
  };
  input.addEventListener('input', () => show(input.value));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      input.value = '';
      show('');
    }
  });
})();

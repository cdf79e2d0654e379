// The portal's changelog, as Markdown: the pending changesets (what the next version of each
// package will say), the breaking-change gate's verdict on the API description against its last
// release (what `spec:diff` printed), then each package's CHANGELOG.md once `changeset version`
// has written one. generators/guides renders it as changelog.html.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function changelog(root, gate) {
  const dir = join(root, '.changeset');
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .map((t) => /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(t))
    .filter(Boolean)
    .map(
      ([, front, body]) => `- ${front.replace(/["']/g, '').replace(/\n/g, ', ')}: ${body.trim().replace(/\n/g, ' ')}`,
    );
  const released = ['spec', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}`)]
    .map((p) => join(root, p, 'CHANGELOG.md'))
    .filter(existsSync)
    .map((f) => readFileSync(f, 'utf8').replace(/^# /m, '## '));
  const api = gate
    ? `\n\n### The API description against its last release (the breaking-change gate)\n\n\`\`\`text\n${gate.trim()}\n\`\`\``
    : '';
  return `# Changelog\n\nWhat changed in the API description and in each package, per version, from the changesets.\n\n## Unreleased\n\n${pending.sort().join('\n') || 'Nothing pending.'}${api}\n\n${released.join('\n\n') || 'No release has been published yet.'}\n`;
}

/**
 * A newcomer's `npm ci` on the oldest Node the workspace supports (package.json `engines`) prints no
 * `EBADENGINE` warning: every package the lockfile installs (dev ones included) accepts that Node.
 * npm checks the same field of the same lockfile entries (optional packages it would skip instead).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(root, file), 'utf8'));

/**
 * Packages no version of which accepts Node 20 by its `engines` (though they run on it), each with
 * why it is still installed. Issue 35 item 19 asks to replace them; until then they are named here.
 */
const NOT_YET_REPLACED: Record<string, string> = {
  'i18next-cli': 'every published version says node >=22; `npm test` runs its lint (i18next.config.mjs)',
};

describe('engines', () => {
  it('every package the lockfile installs accepts the oldest supported Node', () => {
    const oldest = semver.minVersion(read('package.json').engines.node)!.version;
    const lock = read('package-lock.json') as { packages: Record<string, { optional?: boolean; engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} (${(p.engines as { node: string }).node})`)
      .filter((name) => !Object.hasOwn(NOT_YET_REPLACED, name.split(' ')[0]!));
    expect(refusing).toEqual([]);
  });
});

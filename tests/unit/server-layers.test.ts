import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The import rules of docs/decisions/0061, checked on the source: a wrong import fails here.
const root = resolve(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every relative import of a file, as a path from the repository root, with whether it is type-only. */
function importsOf(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'/gm)].map((match) => ({
    target: relative(root, resolve(root, dirname(file), match[2]!)),
    typeOnly: Boolean(match[1]),
  }));
}

const AREAS = ['server/users', 'server/cases', 'server/platform', 'server/finance'];
const isRouteModule = (file: string) => /routes\.ts$/.test(file);

describe('server layering', () => {
  it('keeps server/http away from area services: it may reach only platform leaves (sessions, refusal codes, stored files, the Actor type)', () => {
    const allowed = [
      'server/platform/sessions',
      'server/platform/refusal',
      'server/platform/files/store',
      'server/platform/mutation',
    ];
    const wrong = files('server/http').flatMap((file) =>
      importsOf(file)
        .filter(({ target }) => AREAS.some((area) => target.startsWith(area)) && !allowed.includes(target))
        .map(({ target }) => `${file} → ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('lets only the areas’ route modules import server/http: services and queries raise refusals, not statuses', () => {
    const wrong = AREAS.flatMap((area) => {
      try {
        return files(area);
      } catch {
        return [];
      }
    })
      .filter((file) => !isRouteModule(file))
      .flatMap((file) =>
        importsOf(file)
          .filter(({ target }) => target.startsWith('server/http'))
          .map(({ target }) => `${file} → ${target}`),
      );
    expect(wrong).toEqual([]);
  });

  it('keeps contract/ on zod and domain/ only', () => {
    const wrong = files('contract').flatMap((file) =>
      importsOf(file)
        .filter(({ target }) => !target.startsWith('contract') && !target.startsWith('domain'))
        .map(({ target }) => `${file} → ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('lets the console take only types from contract/, except the zod-free statuses', () => {
    const wrong = files('src').flatMap((file) =>
      importsOf(file)
        .filter(
          ({ target, typeOnly }) =>
            target.startsWith('contract') && !typeOnly && target !== 'contract/statuses',
        )
        .map(({ target }) => `${file} → ${target}`),
    );
    expect(wrong).toEqual([]);
    expect(readFileSync(join(root, 'contract/statuses.ts'), 'utf8')).not.toMatch(/from 'zod'/);
  });
});

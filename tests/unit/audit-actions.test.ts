import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../contract/statuses';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';

const root = join(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|sql)$/.test(name) ? [path] : [];
  });
}

/** `area.verb` as the server writes it; `u.id`-style SQL aliases and `index.html`-style names are not codes. */
const CODE = /['"`]([a-z][a-z-]{2,}(?:\.[a-z][a-z-]*)+)['"`]/g;
const FILE_NAME = /\.(html|ts|js|json|svg|css|xml|txt|com|net|org|pt)$/;
const codesIn = (text: string) =>
  [...text.matchAll(CODE)].map((m) => m[1]!).filter((code) => !FILE_NAME.test(code));

/**
 * Every action code the server writes, found in its source without its help: the value of each
 * `action:` property (a ternary gives both codes), and any code-shaped literal in a file that writes
 * `audit_log` itself (SQL functions, the seed's bulk rows).
 */
function writtenActionCodes(): Set<string> {
  const codes = new Set<string>();
  for (const path of files(join(root, 'server'))) {
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(/\baction:\s*([^,}\n]+)/g))
      for (const code of codesIn(match[1]!)) codes.add(code);
    if (/audit_log/.test(text) && !path.endsWith('audit-log.ts'))
      for (const code of codesIn(text)) if (!/^[a-z]{1,2}\./.test(code)) codes.add(code);
  }
  return codes;
}

type Tree = { [key: string]: string | Tree };
const lookup = (tree: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);

describe('audit action translations', () => {
  const written = writtenActionCodes();

  it('finds the codes the server writes (the grep itself works)', () => {
    for (const known of ['user.disable', 'user.enable', 'case.close', 'settlement.funds-released'])
      expect(written).toContain(known);
  });

  it('lists every code the server writes in AUDIT_ACTIONS, and none it never writes', () => {
    expect([...written].filter((code) => !(AUDIT_ACTIONS as readonly string[]).includes(code))).toEqual([]);
    // Codes passed as arguments or built from a template (`sepa.marked-${action}`) are not behind an
    // `action:`; the type of AuditSubject.action makes the compiler hold those to AUDIT_ACTIONS, and
    // here each listed code must still appear in the server, whole or as a template's prefix.
    const source = files(join(root, 'server'))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const appears = (code: string) =>
      written.has(code) ||
      source.includes(`'${code}'`) ||
      [...source.matchAll(/`([a-z-]+\.[a-z-]*)\$\{/g)].some((m) => code.startsWith(m[1]!));
    expect(AUDIT_ACTIONS.filter((code) => !appears(code))).toEqual([]);
  });

  it.each([
    ['en-GB', enGB],
    ['pt-PT', ptPT],
  ])('translates every action and entity type in %s', (_name, tree) => {
    const untranslated = [
      ...[...written, ...AUDIT_ACTIONS].map((code) => `auditActions.${code}`),
      ...AUDIT_ENTITY_TYPES.map((type) => `auditEntities.${type}`),
    ].filter((key) => {
      const value = lookup(tree as Tree, key);
      return typeof value !== 'string' || value.trim() === '' || value === key;
    });
    expect(untranslated).toEqual([]);
  });
});

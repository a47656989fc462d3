import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

const sources = files(join(root, 'server')).map((path) => readFileSync(path, 'utf8'));
const everything = sources.join('\n');

/** The object literal that starts at `open` (a `{`), braces balanced. */
function literalAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** A helper's object literal: `const snapshot = (row) => ({ … })`, `function x() { return { … } }`, `const context = { … }`. */
function helperLiteral(name: string): string | undefined {
  const definition = new RegExp(
    `(?:const|let)\\s+${name}\\b[^=]*=\\s*(?:\\([^)]*\\)(?:\\s*:[^=]+)?\\s*=>\\s*\\()?\\{`,
  );
  for (const text of sources) {
    const match = definition.exec(text);
    if (match) return literalAt(text, match.index + match[0].length - 1);
  }
  return undefined;
}

/**
 * The field names in a literal, at every depth: `key:` and shorthand `{ key }`, following the spreads
 * and calls of helpers defined in the server (`...context`, `auditSnapshot(row)`).
 */
function fieldsOf(literal: string, seen = new Set<string>()): string[] {
  const body = literal.replace(/'[^']*'|`[^`]*`|"[^"]*"/g, "''");
  // Field names are camelCase; an upper-case key is a status table's entry, not a field.
  const keys = [...body.matchAll(/[{,]\s*([a-z]\w*)\s*(?=[:,}])/g)].map((m) => m[1]!);
  const helpers = [...body.matchAll(/(?:\.\.\.|:\s*|^\s*)([a-zA-Z_]\w*)\s*(?:\(|[,}\n])/g)].map((m) => m[1]!);
  return [
    ...keys,
    ...[...keys, ...helpers].flatMap((name) => {
      if (seen.has(name)) return [];
      seen.add(name);
      const found = helperLiteral(name);
      return found ? fieldsOf(found, seen) : [];
    }),
  ];
}

/** Every field name the server writes into an audit row's before/after (and the context merged in). */
function writtenFields(): Set<string> {
  const fields = new Set<string>();
  for (const text of sources) {
    for (const match of text.matchAll(/\b(?:before|after|context):\s*/g)) {
      const start = match.index + match[0].length;
      const value = text.slice(start, start + 200);
      if (value.startsWith('{')) for (const f of fieldsOf(literalAt(text, start))) fields.add(f);
      else {
        const call = /^([a-zA-Z_]\w*)\(/.exec(value);
        const found = call ? helperLiteral(call[1]!) : undefined;
        if (found) for (const f of fieldsOf(found)) fields.add(f);
      }
    }
    // SQL that builds the JSON itself (a move's audit row, migrations' bulk rows).
    for (const match of text.matchAll(/jsonb?_build_object\(([^)]*)\)/g))
      for (const key of match[1]!.matchAll(/'([a-z]\w*)'\s*,/g)) fields.add(key[1]!);
  }
  return fields;
}

type Tree = { [key: string]: string | Tree };
const lookup = (tree: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);

describe('audit field translations', () => {
  const written = writtenFields();

  it('finds the fields the server writes (the grep itself works)', () => {
    // A literal, a helper's snapshot (auditSnapshot), a spread context, a SQL-built row.
    for (const known of [
      'disabled',
      'adjustedCents',
      'reportMessageId',
      'settlementCount',
      'availableOn',
      'closedAt',
    ])
      expect(written).toContain(known);
    expect(everything).toContain('recordAudit');
  });

  it.each([
    ['en-GB', enGB],
    ['pt-PT', ptPT],
  ])('translates every field the server writes in %s', (_name, tree) => {
    const untranslated = [...written].filter((field) => {
      const value = lookup(tree as Tree, `auditFields.${field}`);
      return typeof value !== 'string' || value.trim() === '';
    });
    expect(untranslated.sort()).toEqual([]);
  });
});

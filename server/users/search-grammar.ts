import type { Queryable } from '../db/client';

/**
 * The search grammar of `q` (docs/decisions/0040, 0043): what a typed text means — an id, an e-mail
 * prefix, digits, or words of the search index — and nothing about plans or SQL shapes beyond it.
 */

const MAX_QUERY_WORDS = 8;
const MIN_SELECTIVE_DIGITS = 4;
const MAX_SEARCH_IDS = 5000;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `q` as words of the search index (migration 0010): each word must be the prefix of some indexed
 * word. A number typed with spaces or a `+` (a phone) becomes one run of digits; an id matches by id.
 */
export type Search =
  | { id: string }
  | { ids: string[] }
  | { emailPrefix: string }
  | { tsquery: string; digits: boolean; word?: string; emailPart?: string };

/** Migration 0013 indexes the 2–8 letter prefixes of each word's leading letters as lexemes of their own. */
const EXACT_PREFIX = /^[a-z]{2,8}$/;
/** A word user_search_words can answer: it holds every word that starts with a letter. */
const LETTER_LED_WORD = /^[a-z][a-z0-9]*$/;

const quoteLexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export function parseSearch(q: string): Search | null {
  const text = q.trim();
  if (text === '') return null;
  if (GUID.test(text)) return { id: text.toLowerCase() };
  const addressLike = /^\S*[@._+]\S*$/.test(text) && !/^\+?[\d().-]+$/.test(text);
  // One token with an `@`: a prefix of the address, through its btree index (0002).
  if (addressLike && text.includes('@'))
    return { emailPrefix: `${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` };
  // Without one it may be any part of the address ("lopes.211"): the local part's pieces are words of
  // the index (migration 0013), which find the few candidates; the address must then hold the text.
  const folded = (addressLike ? text.replace(/[._+]+/g, ' ') : text)
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
  const digits = /^\+?[\d\s().-]+$/.test(folded);
  const words = digits ? [folded.replace(/\D/g, '')] : folded.split(/\s+/).slice(0, MAX_QUERY_WORDS);
  const typed = words.filter((word) => word !== '');
  if (typed.length === 0) return null;
  // An exact lexeme is one posting list; a prefix (`:*`) merges every list that starts with it.
  const tsquery = typed
    .map((word) => (EXACT_PREFIX.test(word) ? quoteLexeme(word) : `${quoteLexeme(word)}:*`))
    .join(' & ');
  if (addressLike)
    return { tsquery, digits: false, emailPart: `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` };
  const word = typed.length === 1 && !digits && LETTER_LED_WORD.test(typed[0]!) ? typed[0] : undefined;
  return {
    tsquery,
    digits: digits && typed[0]!.length >= MIN_SELECTIVE_DIGITS,
    ...(word === undefined ? {} : { word }),
  };
}

/**
 * A run of digits (phone, tax or college number) matches a handful of users, but the planner cannot
 * know it (a prefix outside the most common words gets a default estimate) and may walk the whole
 * created_at index looking for 50 matches: 2 s at 1,000,000 users. Fetching the few ids through the GIN
 * index first, then paging over them, keeps it at a few ms.
 */
export async function resolveSearch(db: Queryable, search: Search | null): Promise<Search | null> {
  if (!search || !('digits' in search) || !search.digits) return search;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE search_words @@ $1::tsquery', [
    search.tsquery,
  ]);
  return rows.length <= MAX_SEARCH_IDS ? { ids: rows.map((row) => row.id) } : search;
}

/** A search that reads its matches through a text index: words or an e-mail prefix. */
export const isTextSearch = (search: Search | null) =>
  !!search && ('tsquery' in search || 'emailPrefix' in search);

/*
 * The palette's one ranking over screens, people, cases and the current page's actions (issue 14,
 * docs/decisions/0081). Pure, so a table of query → first result can hold it (tests/ui/palette-ranking).
 */

/** What a command is, for the ties the text alone cannot break. */
export type CommandKind = 'action' | 'entity' | 'screen' | 'command';

export interface RankableCommand {
  id: string;
  label: string;
  /** Other words that find it: the label in the other language, synonyms, a path, an e-mail. */
  keywords?: readonly string[];
  kind?: CommandKind;
  /** The search the server answered with this command (a person found by phone or tax number). */
  foundBy?: string;
  /**
   * Identifiers that name its record exactly (a UUID, a SEPA MsgId, an EndToEndId): typed whole, they
   * put the command above everything else, page actions included (decision 0131).
   */
  ids?: readonly string[];
}

/** Lower case, no accents, single spaces: "Médicos  " and "medicos" are the same text. */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

// Words of a label or an address: "Patrícia Lopes · patricia.lopes.211@x.pt" → patricia, lopes, 211, …
const WORD_BREAK = /[\s·.@_+\-:/,()]+/;

const isSubsequence = (text: string, query: string) => {
  let at = 0;
  for (const char of text) if (char === query[at]) at++;
  return at === query.length;
};

/** How well one text answers the query: whole, start, a word's start, all words' starts, inside, scattered. */
export const MATCH = {
  exact: 100,
  prefix: 90,
  wordPrefix: 80,
  allWords: 75,
  inside: 60,
  scattered: 20,
} as const;

export function matchScore(text: string, query: string): number {
  const folded = foldText(text);
  if (folded === query) return MATCH.exact;
  if (folded.startsWith(query)) return MATCH.prefix;
  const words = folded.split(WORD_BREAK);
  if (words.some((word) => word.startsWith(query))) return MATCH.wordPrefix;
  const typed = query.split(WORD_BREAK).filter(Boolean);
  if (typed.length > 1 && typed.every((part) => words.some((word) => word.startsWith(part))))
    return MATCH.allWords;
  if (folded.includes(query)) return MATCH.inside;
  return isSubsequence(folded, query) ? MATCH.scattered : 0;
}

// A keyword (synonym, other language) counts a little less than the label the admin reads.
const KEYWORD_PENALTY = 5;
// What the server matched (a phone, a tax number) but the text shown does not: above scattered letters.
const SERVER_MATCH = 55;
// The current page's actions come first whenever the query really names them (not scattered letters).
const PAGE_ACTION_BONUS = 100;
// An identifier typed whole names one record: nothing a word match or a page action scores comes near.
const EXACT_ID = 1000;
const KIND_ORDER: Record<CommandKind, number> = { action: 0, entity: 1, screen: 2, command: 3 };

/** The command's score for a folded, non-empty query; 0 means it is not listed. */
export function commandScore(command: RankableCommand, query: string): number {
  if (command.ids?.some((id) => foldText(id) === query)) return EXACT_ID;
  const label = matchScore(command.label, query);
  const keyword = Math.max(0, ...(command.keywords ?? []).map((k) => matchScore(k, query) - KEYWORD_PENALTY));
  const server = command.foundBy !== undefined && foldText(command.foundBy) === query ? SERVER_MATCH : 0;
  const score = Math.max(label, keyword, server);
  return command.kind === 'action' && score > MATCH.scattered ? score + PAGE_ACTION_BONUS : score;
}

export interface RankOptions {
  /** Ids of the commands run last, newest first: what an empty query offers first. */
  recent?: readonly string[];
}

/**
 * The commands to list for what is typed, best first. An empty query lists everything: the recent
 * commands, then the page's actions, then the rest in registration order. Ties keep registration order.
 */
export function rankCommands<T extends RankableCommand>(
  commands: readonly T[],
  search: string,
  { recent = [] }: RankOptions = {},
): T[] {
  const query = foldText(search);
  if (query === '') {
    const recency = (c: T) => {
      const at = recent.indexOf(c.id);
      return at === -1 ? recent.length : at;
    };
    const pageFirst = (c: T) => (c.kind === 'action' ? 0 : 1);
    return commands
      .map((command, order) => ({ command, order }))
      .sort(
        (a, b) =>
          recency(a.command) - recency(b.command) ||
          pageFirst(a.command) - pageFirst(b.command) ||
          a.order - b.order,
      )
      .map(({ command }) => command);
  }
  return commands
    .map((command, order) => ({ command, order, score: commandScore(command, query) }))
    .filter(({ score }) => score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        KIND_ORDER[a.command.kind ?? 'command'] - KIND_ORDER[b.command.kind ?? 'command'] ||
        a.order - b.order,
    )
    .map(({ command }) => command);
}

/**
 * Keeps what is above the cursor where it was when the list changes for the same query (a search's
 * answer arriving): new results go below the item the admin has moved to, so Enter runs what they see.
 * Without a chosen item (`selected` null) the ranking stands as it is.
 */
export function keepAboveCursor(
  previous: readonly string[],
  next: readonly string[],
  selected: string | null,
) {
  if (selected === null || !next.includes(selected) || !previous.includes(selected)) return [...next];
  const still = new Set(next);
  const kept = previous.slice(0, previous.indexOf(selected) + 1).filter((id) => still.has(id));
  const placed = new Set(kept);
  return [...kept, ...next.filter((id) => !placed.has(id))];
}

// How much of a realistic month the matcher finds, against the truth kept beside each generated line
// (bench/matcher-month.ts). Appends its table to bench/results/matcher-quality.md.
//   npx tsx bench/matcher-quality.ts [--sizes 1000,10000,100000] [--seed 42] [--note "what changed"]
//     [--second-month] [--late-payers 0.05]
//
// Scores, per data set:
// - MATCHED precision: matches whose counterpart is the line's true one / all matches (goal ≥ 99.9 %);
//   MATCHED recall: right matches / findable lines.
// - top-1: findable lines whose MATCHED or suggested counterpart is the true one / findable lines;
//   top-3: …or the true one is among the first three of `candidatesFor` (what the `1`–`3` keys take).
// - unmatched: lines with a counterpart that the matcher neither matched nor suggested anything for.
// - keys: the truth replayed on the console's reconciliation table, the open lines shown (`f` and a
//   choice: 2 keys once), taken top to bottom. A decision (`a`, `1`–`3`, `m`'s match, `i`) moves the
//   active row to the next open line below (decision 0169), so a line in that run costs its decision
//   only: `a` when the suggestion is right, `1`–`3` when the true counterpart is among the first three
//   candidates still open (not MATCHED by a reference, taken by the score filter's `Shift+a`, or linked
//   by a decision above: the picker lists open counterparts; decision 0176),
//   else `m`, a search and Enter (3). Reaching still costs `j` where no decision brought the
//   cursor: the run's first line (1 key once), a line after one passed over undecided (a line left for
//   the last ignore: its `j`, counted with the ignore below), and a MATCHED line — not open,
//   so no decision lands on it —: a wrong MATCHED costs `j`, `u` first; lines without counterpart as
//   below (not in the per-20 figure, which counts the lines that have one). "score filter": the table's filter "suggestions with
//   score ≥ 0.95" (SURE_SUGGESTION: the pair agrees with nothing else; `f` and a choice: 2 keys once),
//   all of it accepted with `Shift+a` and Enter on its count and sum (2 keys once, decision 0147), a wrong one reached
//   and undone with `j`, `u` (it is MATCHED now), then fixed as above; also shown for the findable lines alone (the lines without a name or with a
//   name several customers print alike need a person whatever the matcher does). top-3 and keys are counted on every line of the month (a sample of 2,000 scaled up until decision 0176: its
//   noise, ±0.2 keys per 20 lines, was larger than the changes it measured).
// - lines without counterpart (bank fees, chargebacks, a line printed twice) (decision 0161): one the
//   matcher MATCHED costs `j`, `u` first. A text printed on several of them (the bank's fee, "CHARGEBACK
//   STRIPE") is one group an operator filters by: `f`, the text filter, the text, Enter, then `Shift+i`,
//   the note, Enter (7 keys a group) — when that is cheaper than taking its lines alone; taken before the
//   run of open lines, so the run holds none of them (decision 0169). A line alone (a duplicate prints its
//   twin's text: nothing tells it from the twin but looking) is passed over where the run reaches it, `j`;
//   at the end every line the table still lists open is one of those, so `Shift+i` over the table's filter
//   (the file's open lines), the note, Enter ignores them all (3 keys once; until decision 0176 each was
//   selected too, `x`, `j`). Counted over the whole month, not sampled. Before the bulk ignore each cost `j`,
//   `i`, Enter (decision 0151): that figure is printed beside.
// - where the keys go (largest size): per kind of line and why it costs keys with the score filter, the
//   whole month's keys (lines without counterpart included) and the floor that sets whatever the matcher
//   does — the lines without counterpart as above, none MATCHED, plus the filter's 6 —, and the floor for
//   a matcher that does not guess: that, plus a key on each line costing keys whose true counterpart
//   another party's open one scores as well as or better than, as the picker scores them (decision 0178).
// - said again after each decision (decision 0179), as the product does since: the score filter's `Shift+a`
//   first; then the walk, where a decision moves the cursor to the next open line not said again sure;
//   after each decision the matcher says the open lines of the decided line's amount again over what is
//   still open (`sayAgain`, the whole file's rail judgement carried in); at the end the score filter and
//   `Shift+a`, Enter again take what became sure, a wrong one `j`, `u` and its fix (`keysIfResaid`). The
//   whole month's keys, and how many of the lines sure only once said again were right (a link to the
//   truth's twin counts right, decision 0177; a line without counterpart said sure counts wrong).
// - exchangeable lines (printed identically in every field a person sees) are scored in the order the
//   matcher linked them: their truths are handed out within the group (`exchangeable`, decision 0151).
// - reconcile: CPU time of a `reconcile` call over the month, the median of five after one warm-up run:
//   the process's (the collector's concurrent threads included) and the calling thread's alone.
// - --late-payers SHARE: that share of the customers' SEPA and MB WAY payments made 1–3 business days after
//   their document's date (`generateMonth`'s `latePayers`): how far sureness leans on the rail's day (decision 0178).
// - --second-month: also the same customers' next month (`generateMonth(n, seed, seed + 1)`), scored
//   without learned rules and with the rules the first month's truth teaches (each line's text → its
//   counterpart's party, as the operator's matches would; decision 0146).
import { execSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { candidatesFor } from '../domain/reconcile/candidates';
import { dayNumber, referenceWords, signedExpected } from '../domain/reconcile/features';
import { isIbanRule, type LearnedRules, learnedTexts, ruleFor } from '../domain/reconcile/learned';
import {
  type ExpectedItem,
  type MatchEntry,
  type ReconcileResult,
  reconcile,
} from '../domain/reconcile/match';
import { sayAgain } from '../domain/reconcile/say-again';
import { timeMs } from './banking-report';
import { generateMonth, type LineKind, type Month, type Truth } from './matcher-month';

const FILTER_SCORE = 0.95;
const MANUAL_KEYS = 3;
const TIMED_RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Scores {
  /** Which replay: '' the month itself; else the second month's. */
  label: string;
  n: number;
  items: number;
  findable: number;
  withCounterpart: number;
  matches: number;
  matchedRight: number;
  top1: number;
  top3Right: number;
  top3Of: number;
  unmatchedWithCounterpart: number;
  keysToday: number;
  keysFilter: number;
  keysIgnore: number;
  /** Of `keysFilter`, those spent on findable lines (what the matcher could have spared). */
  keysFindable: number;
  /** Suggestions at or above FILTER_SCORE, and how many of them link the wrong counterpart. */
  sure: number;
  sureWrong: number;
  /** Process CPU (the collector's helper threads too), and the calling thread's alone: medians of TIMED_RUNS. */
  cpuMs: number;
  threadCpuMs: number;
  /** Lines whose truth was handed to an exchangeable line the matcher linked instead. */
  exchanged: number;
  /** Lines whose truth was handed to its twin counterpart the matcher linked instead (decision 0177). */
  twinsExchanged: number;
  /** Keys spent on right suggestions below 0.95 of exchangeable groups linked whole: what taking such a group as one sure decision would save. */
  keysGroupWouldSave: number;
  /**
   * The fewest keys the console allows whatever the matcher does: the lines without counterpart ignored
   * by their groups and one selection (none MATCHED), plus the filter's 6, every other line taken at 0.95.
   */
  keysFloor: number;
  /**
   * Lines that cost keys whose true counterpart does not score alone best, as the picker scores it, among
   * the counterparts still open when the line is reached: another party's scores as well or better. Nothing
   * the matcher reads tells them apart, so a person must choose whatever it does: a key each at least.
   */
  mustChoose: number;
  /** The lines without counterpart line by line, `j`, `i`, Enter (`u` first if MATCHED): before decision 0161. */
  keysIgnoreLineByLine: number;
  byKind: Map<LineKind, { lines: number; findable: number; top1: number }>;
  /** The month's keys with suggestions said again after each decision, as the product does (`keysIfResaid`). */
  resaid: Resaid;
  /** Where the score filter's keys go: per kind of line and why it costs keys, lines and keys. */
  keysWhere: Map<string, { kind: string; why: KeyReason; lines: number; keys: number }>;
}

/** Why a line costs the operator keys with the score filter (decision 0151). */
type KeyReason =
  | 'no counterpart, its text shared: f, text, Enter; Shift+i, note, Enter per text'
  | 'no counterpart, alone: j past it; Shift+i, note, Enter once over the open lines left'
  | 'MATCHED though no counterpart: j, u first'
  | 'MATCHED to the wrong counterpart'
  | 'suggested at 0.95, wrong'
  | 'suggested right, below 0.95: a'
  | 'suggested wrong, the right one among 1–3'
  | 'suggested wrong, searched with m'
  | 'nothing suggested, the right one among 1–3'
  | 'nothing suggested, searched with m';

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(2)} %`);

/** `f`, the text filter, the text, Enter; then `Shift+i`, the note, Enter: a group of lines printing one text. */
const TEXT_GROUP_KEYS = 7;
/** `j`: a line alone passed over where the run of open lines reaches it. */
const PASS_KEYS = 1;
/** `Shift+i`, the note, Enter over the open lines the table lists once the run is done. */
const SELECTION_IGNORE_KEYS = 3;

/**
 * The keys to ignore the month's lines without counterpart once every other line is done (decision 0161),
 * per line (a group's keys shared by its lines), with why: `matched` — the lines the matcher MATCHED, each
 * `j`, `u` first. Lines printing one text are a group when filtering it is cheaper than taking them alone.
 */
function ignoreKeys(
  entries: readonly MatchEntry[],
  truth: ReadonlyMap<string, Truth>,
  matched: ReadonlySet<string>,
): { entry: MatchEntry; why: KeyReason; keys: number }[] {
  const without = entries.filter((e) => truth.get(e.id)!.itemId === null);
  const byText = new Map<string, MatchEntry[]>();
  for (const e of without) byText.set(e.description, [...(byText.get(e.description) ?? []), e]);
  const spent: { entry: MatchEntry; why: KeyReason; keys: number }[] = [];
  for (const e of without)
    if (matched.has(e.id))
      spent.push({ entry: e, why: 'MATCHED though no counterpart: j, u first', keys: 2 });
  const alone: MatchEntry[] = [];
  for (const [text, lines] of byText)
    if (text.trim() !== '' && lines.length * PASS_KEYS > TEXT_GROUP_KEYS)
      for (const e of lines)
        spent.push({
          entry: e,
          why: 'no counterpart, its text shared: f, text, Enter; Shift+i, note, Enter per text',
          keys: TEXT_GROUP_KEYS / lines.length,
        });
    else alone.push(...lines);
  for (const e of alone)
    spent.push({
      entry: e,
      why: 'no counterpart, alone: j past it; Shift+i, note, Enter once over the open lines left',
      keys: PASS_KEYS + SELECTION_IGNORE_KEYS / alone.length,
    });
  return spent;
}

/** The candidates the match picker lists for a line, best first, among the counterparts in `pool`. */
function ranked(entry: MatchEntry, pool: ExpectedItem[], learned: LearnedRules, limit: number) {
  const rule = ruleFor(learnedTexts(entry), learned);
  return candidatesFor(entry, pool, {
    limit,
    learnedPartyId: rule?.partyId ?? null,
    learnedByIban: rule ? isIbanRule(rule.text) : false,
  });
}

/** The first three candidates the console's `1`–`3` keys would take, among the counterparts still open. */
const topThree = (entry: MatchEntry, pool: ExpectedItem[], learned: LearnedRules): string[] =>
  ranked(entry, pool, learned, 3).map((c) => c.itemId);

/**
 * The rules an operator's matches of `month` teach (decision 0146): each line with a counterpart of a
 * party, its texts (its payer's IBAN, its name, decision 0160) → that party; a text matched to two parties teaches nothing, as in the product.
 */
function rulesTaughtBy(month: Month): LearnedRules {
  const partyOf = new Map(month.items.map((i) => [i.id, i.partyId]));
  const rules = new Map<string, string | null>();
  for (const e of month.entries) {
    const t = month.truth.get(e.id)!;
    const party = t.itemId ? partyOf.get(t.itemId) : null;
    if (!party) continue;
    for (const text of learnedTexts(e))
      rules.set(text, rules.has(text) && rules.get(text) !== party ? null : party);
  }
  return new Map([...rules].filter((rule): rule is [string, string] => rule[1] !== null));
}

/** Open counterparts near a line (same signed amount within the window, or named by it): the only ones
 * that can rank above its true counterpart, which always has the line's exact amount. Open: not in
 * `taken` as it stands when the line is reached — the picker lists only counterparts still open. */
function poolFinder(items: ExpectedItem[]) {
  const byAmount = new Map<number, ExpectedItem[]>();
  const byRef = new Map<string, ExpectedItem[]>();
  for (const item of items) {
    const a = signedExpected(item);
    byAmount.set(a, [...(byAmount.get(a) ?? []), item]);
    for (const key of [item.reference, item.endToEndId])
      if (key) byRef.set(key.toUpperCase(), [...(byRef.get(key.toUpperCase()) ?? []), item]);
  }
  return (e: MatchEntry, taken: ReadonlySet<string>): ExpectedItem[] => {
    const day = dayNumber(e.bookingDate);
    const near = (byAmount.get(e.amountCents) ?? []).filter(
      (i) => !i.date || Math.abs(dayNumber(i.date) - day) <= 6,
    );
    const named = referenceWords(e).flatMap((w) => byRef.get(w) ?? []);
    return [...new Set([...near, ...named])].filter((i) => !taken.has(i.id));
  };
}

/** What a person sees of a line: everything but its id and its position in the file. */
const seenAs = ({ id: _id, lineNumber: _line, ...seen }: MatchEntry) => JSON.stringify(seen);

/**
 * The truth as a person can tell it (decision 0151). Lines that print the same in every field (date,
 * amount, text, name, IBAN, references) are exchangeable: a person pairing them with their counterparts
 * in any order leaves the same books, and nothing on the statement says which order the generator drew.
 * Within such a group the truths (counterpart or none, with the kind) are handed out to agree with the
 * matcher's links where a link is one of the group's true counterparts, the rest in line order; a link
 * to a counterpart outside the group stays wrong. Returns the truth to score against and how many lines'
 * truth moved.
 */
function exchangeable(
  month: Month,
  linkOf: Map<string, string>,
): { truth: Map<string, Truth>; moved: number; wholeGroups: Set<string>; twinsMoved: number } {
  const groups = new Map<string, MatchEntry[]>();
  for (const e of month.entries) {
    const key = seenAs(e);
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  const truth = new Map(month.truth);
  let moved = 0;
  // Lines of groups whose every counterpart went to one of the group's lines: one decision a person takes at once.
  const wholeGroups = new Set<string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const free: (Truth | null)[] = group.map((e) => month.truth.get(e.id)!);
    const given = new Map<string, Truth>();
    for (const e of group) {
      const link = linkOf.get(e.id);
      const k = link === undefined ? -1 : free.findIndex((t) => t?.itemId === link);
      if (k < 0) continue;
      given.set(e.id, free[k]!);
      free[k] = null;
    }
    const rest = free.filter((t): t is Truth => t !== null);
    if (given.size > 1 && rest.every((t) => t.itemId === null))
      for (const e of given.keys()) wholeGroups.add(e);
    for (const e of group) {
      const t = given.get(e.id) ?? rest.shift()!;
      if (t !== month.truth.get(e.id)) moved++;
      truth.set(e.id, t);
    }
  }
  return { truth, moved, wholeGroups, twinsMoved: twinCounterparts(month, linkOf, truth) };
}

/**
 * A customer's counterparts of one kind, amount and day are twins (decision 0177): a line that prints no
 * reference pays either as well, and either paid leaves the same books and the customer owing the same.
 * Lines whose truth is a twin take the twin they were linked to, the others their own where it is left,
 * else a twin left. Changes `truth` in place; answers how many lines' truth moved.
 */
function twinCounterparts(month: Month, linkOf: Map<string, string>, truth: Map<string, Truth>): number {
  const twinKey = (i: ExpectedItem) =>
    i.partyId ? `${i.partyId}|${i.type}|${i.direction ?? ''}|${i.amountCents}|${i.date ?? ''}` : null;
  const groups = new Map<string, string[]>();
  const groupOf = new Map<string, string[]>();
  for (const i of month.items) {
    const key = twinKey(i);
    if (key === null) continue;
    const group = groups.get(key) ?? [];
    group.push(i.id);
    groups.set(key, group);
    groupOf.set(i.id, group);
  }
  const linesOf = new Map<string[], string[]>();
  for (const [line, t] of truth) {
    const group = t.itemId === null ? undefined : groupOf.get(t.itemId);
    if (group && group.length > 1) linesOf.set(group, [...(linesOf.get(group) ?? []), line]);
  }
  let moved = 0;
  for (const [group, lines] of linesOf) {
    const left = new Set(group);
    const given = new Map<string, string>();
    for (const line of lines) {
      const link = linkOf.get(line);
      if (link !== undefined && left.has(link)) {
        given.set(line, link);
        left.delete(link);
      }
    }
    for (const line of lines) {
      if (given.has(line)) continue;
      const own = truth.get(line)!.itemId!;
      const pick = left.has(own) ? own : left.values().next().value!;
      given.set(line, pick);
      left.delete(pick);
    }
    for (const [line, itemId] of given) {
      const t = truth.get(line)!;
      if (t.itemId === itemId) continue;
      truth.set(line, { ...t, itemId });
      moved++;
    }
  }
  return moved;
}

/** The figures of `keysIfResaid`. */
interface Resaid {
  /** Keys on the lines with a counterpart, as `keysFilter` counts them. */
  keys: number;
  /** Lines sure only once said again, taken by the last `Shift+a`, and how many of them wrong. */
  sure: number;
  sureWrong: number;
  /** Lines a person decided in the walk, and the matcher's runs over their amounts, in all. */
  decided: number;
  runMs: number;
}

/**
 * The keys of the month when, after each decision, the matcher says the suggestions of the decided line's
 * amount again over what is still open, as the product does (decision 0179): the score filter's `Shift+a`
 * first; then the walk over the open lines in the table's order, where a decision moves the cursor to the
 * next open line not said again sure (such a line waits for the last `Shift+a`); each decision costs as in
 * `score`, and the matcher runs again over the open lines and counterparts of that amount, with the
 * rail judged on the whole file (`railKept`) and the rules as they stood at the import. At the end, the score filter
 * and `Shift+a`, Enter again (4 keys) take what became sure; a wrong one costs `j`, `u` and its fix;
 * what is still open and not sure costs `j` and its decision.
 */
function keysIfResaid(
  entries: readonly MatchEntry[],
  items: readonly ExpectedItem[],
  truth: ReadonlyMap<string, Truth>,
  result: ReconcileResult,
  learned: LearnedRules,
  fix: (e: MatchEntry, t: Truth, open: Set<string>) => number,
): Resaid {
  const linesOf = new Map<number, MatchEntry[]>();
  for (const e of entries) linesOf.set(e.amountCents, [...(linesOf.get(e.amountCents) ?? []), e]);
  const itemsOf = new Map<number, ExpectedItem[]>();
  for (const i of items) itemsOf.set(signedExpected(i), [...(itemsOf.get(signedExpected(i)) ?? []), i]);
  const said = new Map(
    result.suggestions.map((s) => [s.entryIds[0]!, { itemId: s.itemIds[0]!, score: s.confidence }]),
  );
  const matched = new Map<string, string[]>();
  for (const m of result.matches) for (const e of m.entryIds) matched.set(e, m.itemIds);
  for (const r of result.returns) matched.set(r.entryId, [r.itemId]);
  const done = new Set(matched.keys());
  const gone = new Set([...matched.values()].flat());
  const firstSure = new Set<string>();
  for (const [e, s] of said)
    if (s.score >= FILTER_SCORE) {
      firstSure.add(e);
      done.add(e);
      gone.add(s.itemId);
    }
  const out: Resaid = { keys: 6 + 1 + 4, sure: 0, sureWrong: 0, decided: 0, runMs: 0 };
  const resayAmount = (amount: number) => {
    const lines = linesOf.get(amount)!.filter((e) => !done.has(e.id));
    for (const e of lines) said.delete(e.id);
    const open = (itemsOf.get(amount) ?? []).filter((i) => !gone.has(i.id));
    if (lines.length === 0 || open.length === 0) return;
    const started = performance.now();
    const decided = linesOf.get(amount)!.filter((e) => done.has(e.id));
    const again = sayAgain(lines, decided, open, { learned, railKept: result.keptToRail });
    out.runMs += performance.now() - started;
    for (const s of again) said.set(s.entryIds[0]!, { itemId: s.itemIds[0]!, score: s.confidence });
  };
  const isSure = (e: MatchEntry) => (said.get(e.id)?.score ?? 0) >= FILTER_SCORE;
  for (const e of entries) {
    const t = truth.get(e.id)!;
    const links = matched.get(e.id);
    if (!t.itemId || links?.includes(t.itemId)) continue;
    // Taken wrong by the first `Shift+a` or by a reference: `j`, `u` and its fix, which frees what it held.
    const wrong = firstSure.has(e.id) ? [said.get(e.id)!.itemId] : (links ?? []);
    if (firstSure.has(e.id) && wrong[0] === t.itemId) continue;
    if (!firstSure.has(e.id) && !links && isSure(e)) continue; // the last Shift+a takes it
    out.keys +=
      (wrong.length > 0 ? 2 : 0) +
      (wrong.length === 0 && said.get(e.id)?.itemId === t.itemId ? 1 : fix(e, t, gone));
    out.decided++;
    done.add(e.id);
    for (const itemId of wrong) gone.delete(itemId);
    gone.add(t.itemId);
    resayAmount(e.amountCents);
  }
  // A link to the truth's twin (one customer's counterparts of one kind, amount and day) is right (decision 0177).
  const itemById = new Map(items.map((i) => [i.id, i]));
  const twinOf = (i: ExpectedItem) => `${i.partyId}|${i.type}|${i.direction}|${i.amountCents}|${i.date}`;
  const rightFor = (t: Truth, itemId: string) =>
    t.itemId === itemId ||
    (t.itemId !== null &&
      !!itemById.get(itemId)!.partyId &&
      twinOf(itemById.get(itemId)!) === twinOf(itemById.get(t.itemId)!));
  for (const e of entries) {
    const t = truth.get(e.id)!;
    if (done.has(e.id) || !isSure(e)) {
      if (t.itemId && !done.has(e.id))
        out.keys += 1 + (said.get(e.id)?.itemId === t.itemId ? 1 : fix(e, t, gone));
      continue;
    }
    const s = said.get(e.id)!;
    out.sure++;
    if (!rightFor(t, s.itemId)) {
      out.sureWrong++;
      // A line without counterpart taken by the last Shift+a: `j`, `u`; its ignore is counted with the others.
      out.keys += 2 + (t.itemId ? fix(e, t, gone) : 0);
    }
    if (t.itemId) gone.add(t.itemId);
  }
  return out;
}

function score(n: number, month: Month, learned: LearnedRules = new Map()): Scores {
  const { entries, items } = month;
  let result: ReconcileResult = reconcile(entries, items, { learned }); // warm-up
  // The median of several calls, as bench/banking-match.ts times the matcher: one call's CPU varies by a
  // quarter with when the collector's concurrent marking happens to fall.
  const runs = Array.from({ length: TIMED_RUNS }, () =>
    timeMs(() => {
      result = reconcile(entries, items, { learned });
    }),
  );
  const cpuMs = median(runs.map((r) => r.cpuMs));
  const threadCpuMs = median(runs.map((r) => r.threadCpuMs));
  const matchedTo = new Map<string, string[]>();
  for (const m of result.matches) for (const e of m.entryIds) matchedTo.set(e, m.itemIds);
  for (const r of result.returns) matchedTo.set(r.entryId, [r.itemId]);
  const suggestedTo = new Map<string, string>();
  for (const s of result.suggestions) suggestedTo.set(s.entryIds[0]!, s.itemIds[0]!);
  const linkOf = new Map(suggestedTo);
  for (const [e, ids] of matchedTo) if (ids.length === 1) linkOf.set(e, ids[0]!);
  const { truth, moved, wholeGroups, twinsMoved } = exchangeable(month, linkOf);
  const suggestionScore = new Map(result.suggestions.map((s) => [s.entryIds[0]!, s.confidence]));

  const s: Scores = {
    label: learned.size > 0 ? `second month, ${learned.size} learned rules` : '',
    n,
    items: items.length,
    findable: 0,
    withCounterpart: 0,
    matches: matchedTo.size,
    matchedRight: 0,
    top1: 0,
    top3Right: 0,
    top3Of: 0,
    unmatchedWithCounterpart: 0,
    // The open-lines filter (2) and the run's first `j` (decision 0169).
    keysToday: 2 + 1,
    // The open-lines filter (2), the score filter (2), `Shift+a` and Enter on its confirmation (2), the run's first `j`.
    keysFilter: 6 + 1,
    keysIgnore: 0,
    keysFindable: 0,
    sure: 0,
    sureWrong: 0,
    cpuMs,
    threadCpuMs,
    exchanged: moved,
    twinsExchanged: twinsMoved,
    keysGroupWouldSave: 0,
    resaid: { keys: 0, sure: 0, sureWrong: 0, decided: 0, runMs: 0 },
    keysFloor: 6,
    mustChoose: 0,
    keysIgnoreLineByLine: 0,
    byKind: new Map(),
    keysWhere: new Map(),
  };
  const right = (t: Truth, ids: string[] | undefined) => t.itemId !== null && (ids ?? []).includes(t.itemId);
  for (const e of entries) {
    const t = truth.get(e.id)!;
    const k = s.byKind.get(t.kind) ?? { lines: 0, findable: 0, top1: 0 };
    s.byKind.set(t.kind, k);
    k.lines++;
    if (t.itemId) s.withCounterpart++;
    const matched = matchedTo.get(e.id);
    if (matched && right(t, matched)) s.matchedRight++;
    const top1 = right(t, matched) || (!matched && right(t, [suggestedTo.get(e.id) ?? '']));
    if (t.findable) {
      s.findable++;
      k.findable++;
      if (top1) {
        s.top1++;
        k.top1++;
      }
    }
    if (t.itemId && !matched && !suggestedTo.has(e.id)) s.unmatchedWithCounterpart++;
    if (t.itemId === null) s.keysIgnoreLineByLine += 3 + (matched ? 1 : 0);
    if ((suggestionScore.get(e.id) ?? 0) >= FILTER_SCORE) {
      s.sure++;
      if (suggestedTo.get(e.id) !== t.itemId) s.sureWrong++;
    }
  }

  // top-3 and keys on every line, in the table's order (bank date, then line): the picker is asked only
  // where the suggestion is not the truth, and lists what is still open then — not what a reference
  // MATCHED, the score filter's `Shift+a` took (with the filter), or a decision above linked (decision 0176).
  const takenToday = new Set([...matchedTo.values()].flat());
  const taken = new Set(takenToday);
  for (const [e, item] of suggestedTo) if ((suggestionScore.get(e) ?? 0) >= FILTER_SCORE) taken.add(item);
  const poolOf = poolFinder(items);
  const amongThree = (e: MatchEntry, t: Truth, open: Set<string>) => {
    // Its own counterpart is open when the line is reached: a wrong link elsewhere that took it is
    // charged to that line (`j`, `u`).
    open.delete(t.itemId!);
    const found = topThree(e, poolOf(e, open), learned).includes(t.itemId!);
    open.add(t.itemId!);
    return found;
  };
  const partyOf = new Map(items.map((i) => [i.id, i.partyId ?? i.id]));
  const aloneBest = (e: MatchEntry, t: Truth, open: Set<string>) => {
    open.delete(t.itemId!);
    const list = ranked(e, poolOf(e, open), learned, 50);
    open.add(t.itemId!);
    const own = list.find((c) => c.itemId === t.itemId);
    const party = partyOf.get(t.itemId!);
    return !!own && !list.some((c) => c !== own && c.score >= own.score && partyOf.get(c.itemId) !== party);
  };
  let keysToday = 0;
  let keysFilter = 0;
  let keysFindable = 0;
  let keysGroupWouldSave = 0;
  const spend = (t: Truth, why: KeyReason, keys: number, where = s.keysWhere) => {
    const kind = t.ambiguous
      ? `${t.kind} (${t.kind === 'mbway-phone' ? 'phone' : 'name'} printed alike)`
      : t.kind;
    const at = `${kind}|${why}`;
    const row = where.get(at) ?? { kind, why, lines: 0, keys: 0 };
    where.set(at, row);
    row.lines++;
    row.keys += keys;
  };
  for (const e of entries) {
    const t = truth.get(e.id)!;
    const matched = matchedTo.get(e.id);
    if (matched && right(t, matched)) continue;
    // Lines without counterpart: counted over the whole month below.
    if (!t.itemId) continue;
    const suggested = matched ? undefined : suggestedTo.get(e.id);
    const inTop3 = suggested !== t.itemId && amongThree(e, t, taken);
    const inTop3Today = suggested !== t.itemId && amongThree(e, t, takenToday);
    // Decided now: its counterpart is no one else's below.
    taken.add(t.itemId);
    takenToday.add(t.itemId);
    if (t.findable) {
      s.top3Of++;
      if (right(t, [suggested ?? '']) || inTop3) s.top3Right++;
    }
    const fix = inTop3 ? 1 : MANUAL_KEYS;
    // An open line is where the previous decision moved the cursor (decision 0169); a MATCHED one is not
    // open, so it is reached by hand and undone first: `j`, `u`.
    const reachAndUndo = matched ? 2 : 0;
    keysToday += reachAndUndo + (suggested === t.itemId ? 1 : inTop3Today ? 1 : MANUAL_KEYS);
    const inFilter = suggested !== undefined && (suggestionScore.get(e.id) ?? 0) >= FILTER_SCORE;
    const lineKeys = inFilter
      ? suggested === t.itemId
        ? 0
        : 2 + fix
      : reachAndUndo + (suggested === t.itemId ? 1 : fix);
    keysFilter += lineKeys;
    if (lineKeys > 0 && !aloneBest(e, t, taken)) s.mustChoose++;
    if (t.findable) keysFindable += lineKeys;
    if (wholeGroups.has(e.id) && !inFilter && suggested === t.itemId) keysGroupWouldSave += lineKeys;
    if (lineKeys > 0)
      spend(
        t,
        matched
          ? 'MATCHED to the wrong counterpart'
          : inFilter
            ? 'suggested at 0.95, wrong'
            : suggested === t.itemId
              ? 'suggested right, below 0.95: a'
              : suggested !== undefined
                ? inTop3
                  ? 'suggested wrong, the right one among 1–3'
                  : 'suggested wrong, searched with m'
                : inTop3
                  ? 'nothing suggested, the right one among 1–3'
                  : 'nothing suggested, searched with m',
        lineKeys,
      );
  }
  s.keysToday += keysToday;
  s.keysFilter += keysFilter;
  s.keysFindable = keysFindable;
  s.keysGroupWouldSave = keysGroupWouldSave;
  // The lines without counterpart, the whole month: as the matcher left them, and as few as the console allows.
  const ignored = new Map<string, { kind: string; why: KeyReason; lines: number; keys: number }>();
  for (const { entry, why, keys } of ignoreKeys(entries, truth, new Set(matchedTo.keys())))
    spend(truth.get(entry.id)!, why, keys, ignored);
  for (const [at, row] of ignored) {
    s.keysIgnore += row.keys;
    s.keysWhere.set(at, { ...row, keys: Math.round(row.keys) });
  }
  s.keysIgnore = Math.round(s.keysIgnore);
  s.resaid = keysIfResaid(entries, items, truth, result, learned, (e, t, open) =>
    amongThree(e, t, open) ? 1 : MANUAL_KEYS,
  );
  s.keysFloor += Math.round(ignoreKeys(entries, truth, new Set()).reduce((sum, r) => sum + r.keys, 0));
  return s;
}

function arg(name: string, fallback: string): string {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1]! : fallback;
}

const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number);
const seed = Number(arg('seed', '42'));
const note = arg('note', '');
const sh = (cmd: string) => execSync(cmd, { encoding: 'utf8' }).trim();
const head = `${sh('git rev-parse --short HEAD')}${sh('git status --porcelain -- domain bench') ? ' + uncommitted changes' : ''}`;
const uptimeBefore = sh('uptime');
const secondMonth = process.argv.includes('--second-month');
const late = { latePayers: Number(arg('late-payers', '0')) };
const rows: Scores[] = [];
for (const n of sizes) {
  const first = generateMonth(n, seed, undefined, late);
  rows.push(score(n, first));
  if (secondMonth) {
    // The same customers a month later, first without, then with what the first month's matches taught.
    const second = generateMonth(n, seed, seed + 1, late);
    rows.push({ ...score(n, second), label: 'second month, no rules' });
    rows.push(score(n, second, rulesTaughtBy(first)));
  }
  process.stderr.write(`${n}: done\n`);
}
const per20 = (keys: number, lines: number) => ((20 * keys) / lines).toFixed(2);
const table = rows
  .map(
    (s) =>
      `| ${s.n.toLocaleString('en-GB')} × ${s.items.toLocaleString('en-GB')}${s.label ? ` (${s.label})` : ''} | ${s.findable} | ${pct(s.matchedRight, s.matches)} (${s.matches}) | ${pct(s.matchedRight, s.findable)} | ${pct(s.top1, s.findable)} | ${pct(s.top3Right, s.top3Of)} | ${s.unmatchedWithCounterpart} | ${s.keysToday} (${per20(s.keysToday, s.withCounterpart)}) | ${s.keysFilter} (${per20(s.keysFilter, s.withCounterpart)}) | ${per20(s.keysFindable, s.findable)} | ${s.keysIgnore} | ${s.resaid.keys + s.keysIgnore} (${per20(s.resaid.keys + s.keysIgnore, s.n)}), ${pct(s.resaid.sure - s.resaid.sureWrong, s.resaid.sure)} of ${s.resaid.sure} sure once said again | ${pct(s.sure - s.sureWrong, s.sure)} (${s.sure}) | ${s.cpuMs.toFixed(0)} ms (thread ${s.threadCpuMs.toFixed(0)} ms) |`,
  )
  .join('\n');
const kinds = rows
  .map(
    (s) =>
      `${s.n.toLocaleString('en-GB')}${s.label ? ` (${s.label})` : ''}: ${[...s.byKind]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k} ${v.lines} lines, top-1 ${pct(v.top1, v.findable)} of ${v.findable} findable`)
        .join('; ')}`,
  )
  .join('\n\n');
/** The largest size's rows: where their keys go, by kind of line and why, most keys first. */
const largest = Math.max(...sizes);
const keysWhere = rows
  .filter((s) => s.n === largest)
  .map((s) => {
    const month = s.keysFilter + s.keysIgnore;
    const list = [...s.keysWhere.values()].sort((a, b) => b.keys - a.keys || (a.kind < b.kind ? -1 : 1));
    return `Where the keys go, ${s.n.toLocaleString('en-GB')}${s.label ? ` (${s.label})` : ''}: ${month} keys for the whole month (${per20(month, s.n)} per 20 lines), score filter, every line; ${s.exchanged} lines printed identically to another took that one's truth, the order the matcher linked them in (decision 0151); ${s.twinsExchanged} lines paying one of a customer's twin counterparts (one kind, amount and day) took the twin it was linked to (decision 0177); taking such groups linked whole as one sure decision would save ${s.keysGroupWouldSave} keys; the fewest the console allows whatever the matcher does: ${s.keysFloor} (${per20(s.keysFloor, s.n)} per 20 lines); ${s.mustChoose} lines whose true counterpart scores no better than another party's still open (a person must choose: a key each), so the fewest for a matcher that does not guess: ${s.keysFloor + s.mustChoose} (${per20(s.keysFloor + s.mustChoose, s.n)} per 20 lines); the lines without counterpart ${s.keysIgnore} keys with the bulk ignore (${per20(s.keysIgnore, s.n)} per 20 lines), ${s.keysIgnoreLineByLine} line by line as before decision 0161 (${per20(s.keysIgnoreLineByLine, s.n)}); said again after each decision, as the product does (decision 0179): ${s.resaid.keys + s.keysIgnore} keys for the whole month (${per20(s.resaid.keys + s.keysIgnore, s.n)} per 20 lines), ${s.resaid.decided} lines decided by a person, ${s.resaid.sure} sure only once said again, ${pct(s.resaid.sure - s.resaid.sureWrong, s.resaid.sure)} of them right (${s.resaid.sureWrong} wrong), the matcher's runs ${(s.resaid.runMs / 1000).toFixed(1)} s in all (${(s.resaid.runMs / Math.max(1, s.resaid.decided)).toFixed(0)} ms a decision)\n\n| kind of line | why it costs keys | lines | keys | per 20 lines of the month |\n|---|---|---|---|---|\n${list
      .map((r) => `| ${r.kind} | ${r.why} | ${r.lines} | ${r.keys} | ${per20(r.keys, s.n)} |`)
      .join('\n')}`;
  })
  .join('\n\n');
const text = `
## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — ${head}${note ? ` — ${note}` : ''}

Command: \`npx tsx bench/matcher-quality.ts ${process.argv.slice(2).join(' ')}\` · seed ${seed}

Load: \`${uptimeBefore}\` (before) · \`${sh('uptime')}\` (after)

| lines × counterparts | findable | MATCHED precision (matches) | MATCHED recall | top-1 | top-3 | unmatched with counterpart | keys today (per 20 lines with counterpart) | keys with score filter (per 20) | of which on findable lines, per 20 findable | keys ignoring lines without counterpart | said again after each decision: keys for the whole month (per 20 lines), right of those sure once said again | precision of suggestions ≥ 0.95 (count) | reconcile CPU, median of 5 (its own thread) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${table}

Top-1 by kind of line: ${kinds}

${keysWhere}
`;
const file = path.resolve(import.meta.dirname, 'results', 'matcher-quality.md');
mkdirSync(path.dirname(file), { recursive: true });
if (!existsSync(file))
  writeFileSync(
    file,
    '# matcher-quality\n\nThe matcher against a labelled, generated month (bench/matcher-month.ts; model and scores in decision 0142). Each run is appended; read the newest.\n',
  );
appendFileSync(file, text);
process.stdout.write(text);

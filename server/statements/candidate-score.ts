import type { Candidate } from '../../contract/reconciliation';
import { type CandidateEntry, candidatesFor } from '../../domain/reconcile/candidates';
import { isIbanRule } from '../../domain/reconcile/learned';
import type { ExpectedItem } from '../../domain/reconcile/match';
import type { CounterpartInfo } from './counterparts';

/** What of a bank line the scoring compares. */
export type ScoredLine = CandidateEntry;

/** The matcher's window: a suggestion is scored as the import's matcher scored it. */
export const CANDIDATE_WINDOW_DAYS = 5;

const TYPE = { SEPA_FILE: 'sepa', SEPA_TRANSFER: 'sepa', PAYOUT: 'payout', INVOICE: 'invoice' } as const;

/** A counterpart as the domain matcher expects it: what is still open of it (all of it for a return). */
function expectedItem(counterpart: CounterpartInfo, forReturn: boolean): ExpectedItem {
  const isFile = counterpart.kind === 'SEPA_FILE';
  const isTransfer = counterpart.kind === 'SEPA_TRANSFER';
  return {
    id: counterpart.id,
    type: TYPE[counterpart.kind],
    amountCents: forReturn ? counterpart.amountCents : counterpart.amountCents - counterpart.matchedCents,
    direction: counterpart.direction < 0 ? 'out' : 'in',
    date: counterpart.date,
    endToEndId: isTransfer ? counterpart.reference : null,
    batchIds: isFile ? [counterpart.reference, counterpart.label].filter((id): id is string => !!id) : [],
    reference: isFile || isTransfer ? null : counterpart.reference,
    counterpartyName: counterpart.counterpartyName,
    counterpartyIban: counterpart.counterpartyIban,
    counterpartyPhone: counterpart.counterpartyPhone,
    partyId: counterpart.partyId,
  };
}

/**
 * The line's candidates among `counterparts`, best first, scored and explained by the domain matcher
 * (`candidatesFor`: reference, exact amount, date, name) — so the match picker and the import agree.
 * `windowDays` null: any date (explaining a suggestion or a counterpart already chosen).
 */
export function rankCandidates(
  line: ScoredLine,
  counterparts: readonly CounterpartInfo[],
  options: { windowDays: number | null; limit: number; learned?: LearnedRule | null },
): Candidate[] {
  const byId = new Map(counterparts.map((c) => [c.id, c]));
  const scored = candidatesFor(
    line,
    counterparts.map((c) => expectedItem(c, line.kind === 'return')),
    {
      windowDays: options.windowDays ?? 36_500,
      limit: options.limit,
      learnedPartyId: options.learned?.partyId,
      learnedByIban: options.learned ? isIbanRule(options.learned.text) : false,
    },
  );
  return scored.map((s) => {
    const counterpart = byId.get(s.itemId)!;
    return {
      kind: counterpart.kind,
      id: counterpart.id,
      label: counterpart.label,
      amountCents: counterpart.direction * counterpart.amountCents,
      date: counterpart.date,
      counterpartyName: counterpart.counterpartyName,
      score: s.score,
      // The rule named by its text, so the why says which earlier match taught it (decision 0151).
      // The file's evidence (decision 0177) only a suggestion's listing reads (`suggestion-evidence.ts`).
      reasons: {
        ...s.reasons,
        learnedText: s.reasons.learnedRule ? options.learned!.text : null,
        sameAccount: false,
        twin: false,
      },
    };
  });
}

/** One counterpart explained for the line (a suggestion), or null when it could never explain it. */
export const explainCandidate = (
  line: ScoredLine,
  counterpart: CounterpartInfo,
  learned: LearnedRule | null = null,
): Candidate | null =>
  rankCandidates(line, [counterpart], { windowDays: null, limit: 1, learned })[0] ?? null;

/** A learned rule that speaks for a line: its text and the party it names (decision 0146). */
export interface LearnedRule {
  text: string;
  partyId: string;
}

import type { Candidate } from '../../contract/reconciliation';
import type { CounterpartInfo } from './counterparts';

/** What of a bank line the explanation compares. */
export interface ScoredLine {
  amountCents: number;
  bankDate: string;
  description: string;
  bankReference: string | null;
  endToEndId: string | null;
  batchId: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
}

const DAY_MS = 86_400_000;
const days = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** Upper-case words of 3+ letters or digits, accents dropped: how names are compared. */
function words(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length >= 3);
}

const compactIban = (iban: string | null) => (iban ? iban.replace(/\s+/g, '').toUpperCase() : null);

/** 1 = same IBAN or every word of the expected name on the line; 0.5 = nothing to compare. */
function nameSimilarity(line: ScoredLine, counterpart: CounterpartInfo): number {
  const expectedIban = compactIban(counterpart.counterpartyIban);
  if (expectedIban && expectedIban === compactIban(line.counterpartyIban)) return 1;
  const expected = words(counterpart.counterpartyName);
  if (expected.length === 0) return 0.5;
  const seen = new Set([...words(line.counterpartyName), ...words(line.description)]);
  if (seen.size === 0) return 0.5;
  return Math.round((expected.filter((w) => seen.has(w)).length / expected.length) * 100) / 100;
}

/** The counterpart's reference (EndToEndId, PmtInfId/MsgId, payout id, invoice number) appears on the line. */
function referenceFound(line: ScoredLine, counterpart: CounterpartInfo): boolean {
  const references = [counterpart.reference, counterpart.kind === 'SEPA_FILE' ? counterpart.label : null]
    .filter((r): r is string => !!r)
    .map((r) => r.toUpperCase());
  const onLine = [line.endToEndId, line.batchId, line.bankReference]
    .filter((r): r is string => !!r)
    .map((r) => r.toUpperCase());
  const description = line.description.toUpperCase();
  return references.some((r) => onLine.includes(r) || description.includes(r));
}

/**
 * Why a counterpart is a candidate for a line, and a score from it (0–1): a reference with the exact
 * amount is certain (1); otherwise the exact amount weighs most, then the reference, the name and
 * the nearness of the dates. The amount compared is what is still open of the counterpart.
 */
export function explainCandidate(line: ScoredLine, counterpart: CounterpartInfo): Candidate {
  const open = counterpart.amountCents - counterpart.matchedCents;
  const amountExact = Math.abs(line.amountCents) === open;
  const dateDays = counterpart.date ? Math.abs(days(line.bankDate) - days(counterpart.date)) : 0;
  const reference = referenceFound(line, counterpart);
  const similarity = nameSimilarity(line, counterpart);
  const score =
    amountExact && reference
      ? 1
      : Math.round(
          (0.5 * Number(amountExact) +
            0.2 * Number(reference) +
            0.2 * similarity +
            0.1 * Math.max(0, 1 - dateDays / 10)) *
            1000,
        ) / 1000;
  return {
    kind: counterpart.kind,
    id: counterpart.id,
    label: counterpart.label,
    amountCents: counterpart.direction * counterpart.amountCents,
    date: counterpart.date,
    counterpartyName: counterpart.counterpartyName,
    score,
    reasons: { amountExact, dateDays, reference, nameSimilarity: similarity },
  };
}

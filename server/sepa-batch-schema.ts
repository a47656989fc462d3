import { z } from 'zod';
import type { SepaBatch } from '../domain/sepa/validate-batch';

/**
 * The shape of a batch JSON given to `sepa generate`: types only. The EPC rules (identifiers,
 * IBANs, amounts, dates) stay in the domain's prepareBatch, which reports them by transaction.
 * Objects are strict so a misspelt optional field (`batchBookng`) is refused instead of silently
 * taking its default.
 */
const transactionSchema = z.strictObject({
  endToEndId: z.string(),
  creditorName: z.string(),
  creditorIban: z.string(),
  creditorBic: z.string().nullish(),
  amountCents: z.number(),
  remittanceInformation: z.string().nullish(),
});

export const sepaBatchSchema = z.strictObject({
  messageId: z.string(),
  paymentInformationId: z.string().optional(),
  executionDate: z.string(),
  initiatingPartyName: z.string().optional(),
  batchBooking: z.boolean().optional(),
  debtor: z.strictObject({ name: z.string(), iban: z.string(), bic: z.string().nullish() }),
  transactions: z.array(transactionSchema),
}) satisfies z.ZodType<SepaBatch>;

/** `transactions[0].amountCents` style, as a reader of the JSON file would write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** One line per problem, naming the field: `  batchBooking: expected a boolean`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .flatMap((issue) => {
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => `  ${fieldPath([...issue.path, key])}: unknown field`);
      if (issue.code === 'invalid_type') {
        const expected =
          issue.expected === 'array' || issue.expected === 'object'
            ? `an ${issue.expected}`
            : `a ${issue.expected}`;
        return [`  ${fieldPath(issue.path) || '(the file)'}: expected ${expected}`];
      }
      return [`  ${fieldPath(issue.path)}: ${issue.message}`];
    })
    .join('\n');
}

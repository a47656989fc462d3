import { REFUSAL_CODES, type RefusalCode } from '../../contract/refusal-codes';

/**
 * Why a service said no: a stable code of `contract/refusal-codes.ts` (which also gives its HTTP status
 * and is what the console translates), never an HTTP status.
 */
export type { RefusalCode };

export interface RefusalDetails {
  /** The input that was refused, e.g. `cursor`; answered as `errors: [{field, code: 'invalid'}]`. */
  field?: string;
  /** How long to wait before trying again (`TOO_MANY_ATTEMPTS`); answered as `Retry-After`. */
  retryAfterSeconds?: number;
  /**
   * Facts the client needs to react without another call, answered beside `code` (e.g. the doctor's
   * `missingFields`, a settlement month's `currentTotalCents`). Declared by the route's error schema.
   */
  extra?: Record<string, unknown>;
}

export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly details: RefusalDetails = {},
  ) {
    super(code);
    this.name = 'Refusal';
  }
}

export const refuse = (code: RefusalCode, details?: RefusalDetails): Refusal => new Refusal(code, details);

const REFUSAL_CODE_SET: ReadonlySet<string> = new Set(REFUSAL_CODES);
export const isRefusalCode = (code: string): code is RefusalCode => REFUSAL_CODE_SET.has(code);

import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { REFUSAL_STATUSES } from '../../contract/refusal-codes';
import type { RefusalCode } from '../platform/refusal';

/**
 * The one place a service's refusal becomes an HTTP status, read from the code's declaration in
 * contract/refusal-codes.ts. Services know codes, not statuses.
 */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, ContentfulStatusCode>> = REFUSAL_STATUSES;

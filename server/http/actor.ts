import { idParamsSchema } from '../../contract/common';
import type { Actor } from '../platform/mutation';
import { type AppContext, now } from './context';

/**
 * The path only matches id-shaped segments, so sibling routes (`/v2/admin/users/export`) are never
 * swallowed; the schema then rejects a malformed id with 400 before SQL could fail on the cast.
 */
// No nested braces: the OpenAPI path and the authz walk read the pattern up to the first `}`.
export const ID = ':id{[0-9a-fA-F]+-[0-9a-fA-F-]+}';
export const idParams = idParamsSchema;

/** Who acts, and when by the request's clock: what every mutation's audit record needs. */
export const actorOf = (c: AppContext): Actor => ({ userId: c.var.session.userId, at: now(c) });

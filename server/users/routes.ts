import { errorBodySchema } from '../../contract/common';
import {
  resendVerificationResultSchema,
  setDisabledBodySchema,
  userDetailSchema,
  userListQuerySchema,
  userPageSchema,
  userSummarySchema,
} from '../../contract/users';
import { actorOf, ID, idParams } from '../http/actor';
import type { RouteRegistry } from '../http/routes';
import { mailerFor } from '../platform/mail/mailer';
import { loadUserDetail } from './detail';
import { registerInterestAreaRoutes } from './interest-area-routes';
import { registerProfessionalRoutes } from './professional-routes';
import { searchUsers } from './search';
import { setDisabled, verifyProfessional } from './transitions';
import { resendVerificationEmail } from './verification-mail';

const conflict = (codes: string) => ({ description: `Wrong transition: ${codes}`, schema: errorBodySchema });
const userNotFound = { description: 'USER_NOT_FOUND', schema: errorBodySchema };

/** The users area: users, professionals and areas of interest. */
export function registerUsersArea(routes: RouteRegistry): void {
  registerProfessionalRoutes(routes);
  registerUserRoutes(routes);
  registerInterestAreaRoutes(routes);
}

function registerUserRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/users',
    summary: 'Search users: filters, word-prefix `q`, keyset pages (docs/decisions/0040)',
    tags: ['users'],
    auth: 'admin',
    query: userListQuerySchema,
    responses: {
      200: {
        description: '`total` is exact up to 10,000 matches, the planner estimate beyond (`totalEstimated`)',
        schema: userPageSchema,
      },
      400: { description: 'Invalid filter, sort or cursor', schema: errorBodySchema },
    },
    async handler(c, { query }) {
      return c.json(await searchUsers(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'get',
    path: `/v2/admin/users/${ID}`,
    summary: 'One user: every field, files, bank data, missing data, share link, admin actions',
    tags: ['users'],
    auth: 'admin',
    params: idParams,
    responses: { 200: { description: 'The user', schema: userDetailSchema }, 404: userNotFound },
    async handler(c, { params }) {
      return c.json(await loadUserDetail(c.var.deps.db, params.id));
    },
  });

  routes.add({
    method: 'post',
    path: `/v2/admin/users/${ID}/disable`,
    summary: 'Disable (`true`) or enable (`false`) a user; disabling ends their sessions',
    tags: ['users'],
    auth: 'admin',
    params: idParams,
    body: setDisabledBodySchema,
    responses: {
      200: { description: 'The user after the change', schema: userSummarySchema },
      404: userNotFound,
      409: conflict('CANNOT_DISABLE_SELF, USER_ALREADY_DISABLED, USER_NOT_DISABLED'),
    },
    async handler(c, { params, body }) {
      return c.json(await setDisabled(c.var.deps.db, actorOf(c), params.id, body.disabled));
    },
  });

  routes.add({
    method: 'post',
    path: `/v2/admin/users/${ID}/resend/verification-email`,
    summary: 'Send a new verification e-mail, in the user’s language (NEW_USER only)',
    tags: ['users'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'Sent', schema: resendVerificationResultSchema },
      404: userNotFound,
      409: conflict('USER_NOT_NEW'),
      502: {
        description: 'MAIL_NOT_SENT: the mail server refused or was unreachable',
        schema: errorBodySchema,
      },
    },
    async handler(c, { params }) {
      const { deps } = c.var;
      // DESIGN §5: from configuration; the Host header is whatever the sender of the request wrote.
      return c.json(
        await resendVerificationEmail(
          deps.db,
          mailerFor(deps.config),
          actorOf(c),
          params.id,
          deps.config.publicUrl,
        ),
      );
    },
  });

  routes.add({
    method: 'post',
    path: `/v2/admin/professionals/${ID}/verify`,
    summary: 'Verify a professional whose e-mail is verified (EMAIL_VERIFIED → PROFESSIONAL_VERIFIED)',
    tags: ['professionals'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The professional after verification', schema: userSummarySchema },
      404: userNotFound,
      409: conflict('NOT_A_PROFESSIONAL, PROFESSIONAL_NOT_AWAITING_VERIFICATION'),
    },
    async handler(c, { params }) {
      return c.json(await verifyProfessional(c.var.deps.db, actorOf(c), params.id));
    },
  });
}

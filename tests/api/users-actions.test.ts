import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, postJson, type RunningApi, startApi } from './harness';

const VALID_IBAN = 'PT50000201231234567890154';

describe.each(testDatabaseKinds())('single user view and user transitions on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let adminId: string;
  let token: string;

  const getJson = async (path: string) => {
    const response = await fetch(`${api.url}${path}`, { headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const post = async (path: string, body: unknown = {}) => {
    const response = await postJson(`${api.url}${path}`, body, bearer(token));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const counts = async () => (await getJson('/v2/admin/professionals/status/count')).body;
  const auditCount = (id: string) =>
    count(db, "audit_log WHERE entity_type = 'user' AND entity_id = $1", [id]);

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    adminId = await insertUser(db, {
      email: 'admin@actions.test',
      admin: true,
      role: 'ADMIN',
      emailVerified: true,
    });
    token = await issueToken(db, adminId);
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  describe('GET /v2/admin/users/{id}', () => {
    it('shows every field, files, areas, bank data, missing fields, share link and admin actions', async () => {
      const id = await insertUser(db, {
        email: 'dr.full@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
      });
      const file = await db.query<{ id: string }>(
        `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
         VALUES ('cédula frente.png', 'image/png', 1234, $1, $2) RETURNING id`,
        ['a'.repeat(64), `aa/${'a'.repeat(64)}`],
      );
      const fileId = file.rows[0]!.id;
      await db.query(
        `UPDATE users SET full_name = 'Rita Maria Sousa', tax_number = NULL, college_number = '12345', iban = $2,
                bic_swift = 'CGDIPTPL', share_link_id = 'dr-rita-sousa', college_card_front_file_id = $3,
                specialities = '{Cardiologia}', current_workplaces = '{"Hospital de Santa Maria"}', case_price_cents = 1500,
                birth_date = '1980-05-02', locale = 'en-GB'
          WHERE id = $1`,
        [id, VALID_IBAN, fileId],
      );
      await db.query(
        `INSERT INTO share_link_occurrences (professional_id, share_link_id, kind)
         VALUES ($1, 'dr-rita-sousa', 'VISIT'), ($1, 'dr-rita-sousa', 'VISIT'), ($1, 'dr-rita-sousa', 'SIGNUP')`,
        [id],
      );
      const area = await db.query<{ id: string }>(
        `INSERT INTO interest_areas (name) VALUES ('Oncologia') RETURNING id`,
      );
      await db.query('INSERT INTO professional_interest_areas VALUES ($1, $2)', [id, area.rows[0]!.id]);
      expect((await post(`/v2/admin/professionals/${id}/verify`)).status).toBe(200);

      const { status, body } = await getJson(`/v2/admin/users/${id}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id,
        role: 'PROFESSIONAL',
        email: 'dr.full@actions.test',
        fullName: 'Rita Maria Sousa',
        status: 'PROFESSIONAL_VERIFIED',
        professionalVerified: true,
        collegeNumber: '12345',
        taxNumber: null,
        casePriceCents: 1500,
        caseCurrency: 'EUR',
        subscriptionCurrency: 'EUR',
        specialities: ['Cardiologia'],
        currentWorkplaces: ['Hospital de Santa Maria'],
        birthDate: '1980-05-02',
        locale: 'en-GB',
        areasOfInterest: [{ id: area.rows[0]!.id, name: 'Oncologia' }],
        collegeCardFrontFile: {
          id: fileId,
          name: 'cédula frente.png',
          contentType: 'image/png',
          sizeBytes: 1234,
          downloadUrl: `/v2/admin/attachments/${fileId}/download`,
        },
        collegeCardBackFile: null,
        bank: { iban: VALID_IBAN, ibanValid: true, ibanError: null, bicSwift: 'CGDIPTPL' },
        missingFields: ['taxNumber'],
        shareLink: { id: 'dr-rita-sousa', visits: 2, signups: 1, cases: 0 },
      });
      expect(body.adminActions).toEqual([
        expect.objectContaining({
          action: 'professional.verify',
          actor: { id: adminId, name: 'admin', email: 'admin@actions.test' },
          before: { status: 'EMAIL_VERIFIED' },
          after: { status: 'PROFESSIONAL_VERIFIED' },
        }),
      ]);
      for (const key of [
        'idCardNumber',
        'phoneNumber',
        'phoneNumberCountryCode',
        'subscriptionPriceCents',
        'referralName',
        'professionalBackground',
        'associationLink',
        'created',
        'userDisabled',
        'emailVerified',
        'gender',
        'country',
        'name',
      ])
        expect(body).toHaveProperty(key);
    });

    it('reports an invalid IBAN and every missing field, and no missing fields for customers', async () => {
      const id = await insertUser(db, { email: 'dr.empty@actions.test', role: 'PROFESSIONAL' });
      await db.query(`UPDATE users SET iban = 'PT50000201231234567890155' WHERE id = $1`, [id]);
      const { body } = await getJson(`/v2/admin/users/${id}`);
      expect(body.bank).toMatchObject({ ibanValid: false, ibanError: expect.stringMatching(/CHECKSUM/) });
      expect(body.missingFields).toEqual(['fullName', 'taxNumber', 'iban', 'collegeNumber']);
      const customer = await insertUser(db, { email: 'c.view@actions.test' });
      expect((await getJson(`/v2/admin/users/${customer}`)).body.missingFields).toBeNull();
    });

    it('counts an IBAN outside SEPA as missing (IBAN_NOT_SEPA), with the domain rule', async () => {
      const id = await insertUser(db, { email: 'dr.brazil@actions.test', role: 'PROFESSIONAL' });
      await db.query(
        `UPDATE users SET iban = 'BR1800360305000010009795493C1', full_name = 'Ana Lima', tax_number = '123456789',
                          college_number = 'OM-77' WHERE id = $1`,
        [id],
      );
      const { body } = await getJson(`/v2/admin/users/${id}`);
      expect(body.bank).toMatchObject({ ibanValid: false, ibanError: 'IBAN_NOT_SEPA' });
      expect(body.missingFields).toEqual(['iban']);
    });

    it('answers 404 USER_NOT_FOUND for an unknown id and 400/404 JSON for a malformed one', async () => {
      const unknown = await getJson('/v2/admin/users/00000000-0000-4000-8000-00000000abcd');
      expect(unknown).toEqual({ status: 404, body: { code: 'USER_NOT_FOUND' } });
      for (const bad of ['not-a-uuid', '12345', '0000-0000', `${'0'.repeat(35)}-`, '%27%20OR%201=1--']) {
        const response = await fetch(`${api.url}/v2/admin/users/${bad}`, { headers: bearer(token) });
        expect([400, 404], bad).toContain(response.status);
        expect(response.headers.get('content-type')).toContain('application/json');
      }
    });
  });

  describe('POST /v2/admin/users/{id}/disable', () => {
    it('disables, kills the sessions, records before → after, then enables back to the derived status', async () => {
      const id = await insertUser(db, {
        email: 'dr.disable@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
        professionalVerified: true,
      });
      const userToken = await issueToken(db, id);
      const me = () => fetch(`${api.url}/v2/user/me`, { headers: bearer(userToken) });
      expect((await me()).status).toBe(200);
      const before = await counts();

      const disabled = await post(`/v2/admin/users/${id}/disable`, { disabled: true });
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ id, status: 'DISABLED', userDisabled: true });
      expect((await me()).status).toBe(401);
      expect(await count(db, 'sessions WHERE user_id = $1 AND revoked_at IS NULL', [id])).toBe(0);
      expect(await counts()).toEqual({ ...before, DISABLED: (before.DISABLED as number) + 1 });

      const enabled = await post(`/v2/admin/users/${id}/disable`, { disabled: false });
      expect(enabled.body).toMatchObject({ status: 'PROFESSIONAL_VERIFIED', userDisabled: false });
      expect(await counts()).toEqual(before);
      // the revoked session stays dead after enabling: the user signs in again
      expect((await me()).status).toBe(401);

      const actions = (await getJson(`/v2/admin/users/${id}`)).body.adminActions as Record<string, unknown>[];
      expect(actions.map((a) => [a.action, a.before, a.after])).toEqual([
        [
          'user.enable',
          { disabled: true, status: 'DISABLED' },
          { disabled: false, status: 'PROFESSIONAL_VERIFIED' },
        ],
        [
          'user.disable',
          { disabled: false, status: 'PROFESSIONAL_VERIFIED' },
          { disabled: true, status: 'DISABLED' },
        ],
      ]);
    });

    it('refuses no-op transitions with 409 and changes nothing', async () => {
      const id = await insertUser(db, { email: 'c.noop@actions.test', emailVerified: true });
      expect(await post(`/v2/admin/users/${id}/disable`, { disabled: false })).toEqual({
        status: 409,
        body: { code: 'USER_NOT_DISABLED' },
      });
      await post(`/v2/admin/users/${id}/disable`, { disabled: true });
      expect(await post(`/v2/admin/users/${id}/disable`, { disabled: true })).toEqual({
        status: 409,
        body: { code: 'USER_ALREADY_DISABLED' },
      });
      expect(await auditCount(id)).toBe(1);
    });

    it('does not let an administrator disable themselves', async () => {
      expect(await post(`/v2/admin/users/${adminId}/disable`, { disabled: true })).toEqual({
        status: 409,
        body: { code: 'CANNOT_DISABLE_SELF' },
      });
      expect((await getJson('/v2/admin/professionals/status/count')).status).toBe(200);
      expect(await auditCount(adminId)).toBe(0);
    });

    it('lets an administrator disable another administrator', async () => {
      const other = await insertUser(db, { email: 'admin2@actions.test', admin: true, role: 'ADMIN' });
      expect((await post(`/v2/admin/users/${other}/disable`, { disabled: true })).status).toBe(200);
    });

    it('validates the body and the target', async () => {
      const id = await insertUser(db, { email: 'c.body@actions.test' });
      for (const body of [{}, { disabled: 'yes' }, { disabled: null }]) {
        const result = await post(`/v2/admin/users/${id}/disable`, body);
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'disabled' }] });
      }
      expect(
        (await post('/v2/admin/users/00000000-0000-4000-8000-00000000abcd/disable', { disabled: true })).body,
      ).toEqual({ code: 'USER_NOT_FOUND' });
    });
  });

  describe('POST /v2/admin/professionals/{id}/verify', () => {
    it('verifies a professional awaiting verification once, and the badge count follows', async () => {
      const id = await insertUser(db, {
        email: 'dr.verify@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
      });
      const before = await counts();
      const first = await post(`/v2/admin/professionals/${id}/verify`);
      expect(first).toMatchObject({ status: 200, body: { id, status: 'PROFESSIONAL_VERIFIED' } });
      expect(await counts()).toEqual({ ...before, EMAIL_VERIFIED: (before.EMAIL_VERIFIED as number) - 1 });
      expect(await post(`/v2/admin/professionals/${id}/verify`)).toEqual({
        status: 409,
        body: { code: 'PROFESSIONAL_NOT_AWAITING_VERIFICATION' },
      });
      expect(await auditCount(id)).toBe(1);
    });

    it('refuses customers, new and disabled professionals, and unknown ids', async () => {
      const customer = await insertUser(db, { email: 'c.verify@actions.test', emailVerified: true });
      expect(await post(`/v2/admin/professionals/${customer}/verify`)).toEqual({
        status: 409,
        body: { code: 'NOT_A_PROFESSIONAL' },
      });
      const fresh = await insertUser(db, { email: 'dr.new@actions.test', role: 'PROFESSIONAL' });
      const disabled = await insertUser(db, {
        email: 'dr.off@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
        disabled: true,
      });
      for (const id of [fresh, disabled])
        expect((await post(`/v2/admin/professionals/${id}/verify`)).body).toEqual({
          code: 'PROFESSIONAL_NOT_AWAITING_VERIFICATION',
        });
      expect((await post('/v2/admin/professionals/00000000-0000-4000-8000-00000000abcd/verify')).status).toBe(
        404,
      );
      expect(
        await count(db, 'users WHERE id = ANY($1) AND professional_verified', [[customer, fresh, disabled]]),
      ).toBe(0);
    });

    it('verifies exactly once when two administrators click at the same time', async () => {
      const id = await insertUser(db, {
        email: 'dr.race@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
      });
      const results = await Promise.all([
        post(`/v2/admin/professionals/${id}/verify`),
        post(`/v2/admin/professionals/${id}/verify`),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await auditCount(id)).toBe(1);
    });

    it('counts a disabled doctor awaiting verification under DISABLED, and back once enabled', async () => {
      const id = await insertUser(db, {
        email: 'dr.count@actions.test',
        role: 'PROFESSIONAL',
        emailVerified: true,
      });
      const before = await counts();
      await post(`/v2/admin/users/${id}/disable`, { disabled: true });
      expect(await counts()).toEqual({
        EMAIL_VERIFIED: (before.EMAIL_VERIFIED as number) - 1,
        DISABLED: (before.DISABLED as number) + 1,
      });
      await post(`/v2/admin/users/${id}/disable`, { disabled: false });
      expect(await counts()).toEqual(before);
    });
  });
});

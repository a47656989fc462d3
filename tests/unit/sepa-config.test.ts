import { describe, expect, it } from 'vitest';
import { DEMO_SEPA_DEBTOR, readSepaConfig } from '../../server/config';

describe('SEPA debtor configuration (SEPA_DEBTOR_*, SEPA_BATCH_BOOKING)', () => {
  it('defaults to the demo account and batch booking', () => {
    expect(readSepaConfig({})).toEqual({ debtor: { ...DEMO_SEPA_DEBTOR }, batchBooking: true });
  });

  it('takes an IBAN in any spacing, a BIC in any case, and batch booking off', () => {
    expect(
      readSepaConfig({
        SEPA_DEBTOR_NAME: 'Clínica Exemplo',
        SEPA_DEBTOR_IBAN: 'pt50 0035 0651 0000 1234 5671 4',
        SEPA_DEBTOR_BIC: 'cgdiptpl',
        SEPA_BATCH_BOOKING: 'false',
      }),
    ).toEqual({
      debtor: { name: 'Clínica Exemplo', iban: 'PT50003506510000123456714', bic: 'CGDIPTPL' },
      batchBooking: false,
    });
  });

  it.each([
    [{ SEPA_DEBTOR_IBAN: 'PT50003506510000123456715' }, /SEPA_DEBTOR_IBAN/],
    [{ SEPA_DEBTOR_IBAN: 'US64SVBKUS6S3300958879' }, /SEPA_DEBTOR_IBAN/],
    [{ SEPA_DEBTOR_BIC: 'NOTABIC' }, /SEPA_DEBTOR_BIC/],
    [{ SEPA_DEBTOR_NAME: '   ' }, /SEPA_DEBTOR_NAME/],
    [{ SEPA_BATCH_BOOKING: 'yes' }, /SEPA_BATCH_BOOKING/],
  ])('stops at start with the variable named: %o', (env, message) => {
    expect(() => readSepaConfig(env)).toThrow(message);
  });
});

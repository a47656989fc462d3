import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../domain/sha256';
import { parseCsvStatement } from '../../../domain/statements/csv';
import {
  bankReferenceOf,
  lineKeyRule,
  referenceLineKey,
  type StatementLineKeyFields,
  statementLineKey,
  statementLineKeys,
} from '../../../domain/statements/line-key';

// Any UTF-16 code unit, lone surrogates included (the 'binary' unit is much slower to generate).
const utf16Unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const nodeSha256 = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex');

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('a'.repeat(1_000_000))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('agrees with node:crypto on any string (UTF-8, lone surrogates included) and any bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: utf16Unit, maxLength: 300 }), (s) => {
        expect(sha256Hex(s)).toBe(nodeSha256(s));
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(sha256Hex(bytes)).toBe(nodeSha256(bytes));
      }),
    );
    // every length around the 55/56/64-byte padding boundaries
    for (let n = 0; n < 200; n++) expect(sha256Hex('x'.repeat(n))).toBe(nodeSha256('x'.repeat(n)));
  });
});

const ACCOUNT = 'PT50003506510000123456714';

const entry = (over: Partial<StatementLineKeyFields> = {}): StatementLineKeyFields => ({
  bookingDate: '2026-02-03',
  valueDate: null,
  amountCents: -123456,
  bankReference: 'BR000111222333',
  endToEndId: null,
  description: 'TRF SEPA LOTE PMT-2026-02-0001',
  ...over,
});

// Canonical values, as the parsers produce them: no whitespace at the ends, single inner spaces.
const word = fc.stringMatching(/^[A-Za-z0-9À-ÿ/.:'-]{1,12}$/);
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const optionalText = fc.option(text, { nil: null });
const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const iban = fc
  .tuple(fc.constantFrom('PT', 'ES', 'DE', 'FR', 'IE'), fc.stringMatching(/^\d{2}[A-Z0-9]{12,26}$/))
  .map(([country, rest]) => country + rest);
const cents = fc.integer({ min: -1_000_000_000_00, max: 1_000_000_000_00 });
const fields: fc.Arbitrary<StatementLineKeyFields> = fc.record({
  bookingDate: isoDate,
  valueDate: fc.option(isoDate, { nil: null }),
  amountCents: cents,
  bankReference: optionalText,
  endToEndId: optionalText,
  description: text,
});

/** Layout noise the parsers remove: padding, doubled spaces, tabs and line breaks between words. */
const layout = fc.record({
  before: fc.constantFrom('', ' ', '  ', '\t', '\r\n'),
  between: fc.constantFrom(' ', '  ', '\t', '\n ', ' \u00a0'),
  after: fc.constantFrom('', ' ', '\t', '\r\n'),
});
type Layout = typeof layout extends fc.Arbitrary<infer T> ? T : never;
const lay = (value: string, l: Layout) => l.before + value.split(' ').join(l.between) + l.after;

describe('statementLineKey', () => {
  it('keeps every key written so far (recipe v1: the values the seed stored before it moved to domain/)', () => {
    // Computed with the former server-side implementation (node:crypto) for the same inputs.
    expect(statementLineKey('PT50003506510000000000433', entry(), 0)).toBe(
      'f293f5cb1baa1f27d5ba24c503d540239178857473943697b049a25df4e0a463',
    );
    expect(statementLineKey('PT50003506510000000000433', entry(), 1)).toBe(
      '28d2376402843b773766cd7bcd78302c4117782c27eefae0319106d7889c6777',
    );
    const returned = entry({
      bookingDate: '2026-02-10',
      valueDate: '2026-02-10',
      amountCents: 2990,
      bankReference: null,
      endToEndId: 'E2E-XYZ-1',
      description: '  DEVOLUÇÃO TRF SEPA 𝄞 ',
    });
    expect(statementLineKey('PT50003506510000000000433', returned, 0)).toBe(
      'ec729de17041a6508f7717ed95f13d25e0bac3188941b97a032192d56dd81a10',
    );
    const fee = entry({
      bookingDate: '2026-01-31',
      amountCents: -750,
      bankReference: null,
      description: 'COMISSAO DE MANUTENCAO DE CONTA',
    });
    expect(statementLineKey('PT50003506510000000000433', fee, 1)).toBe(
      '8de7bd6d7d40728d1ccada37e72fe808e23575a61884ccf3a67030e53121bf40',
    );
  });

  it('is the documented recipe: SHA-256 of the canonical parts joined with U+001F', () => {
    const e = entry({ valueDate: '2026-02-04', endToEndId: 'E2E-1' });
    expect(statementLineKey(' pt50 0035 0651 0000 1234 5671 4', e, 2)).toBe(
      nodeSha256(
        [
          ACCOUNT,
          '2026-02-03',
          '-123456',
          'BR000111222333',
          'E2E-1',
          'TRF SEPA LOTE PMT-2026-02-0001',
          '2',
          '2026-02-04',
        ].join('\u001f'),
      ),
    );
  });

  it('gives the same key for the same line, and is a 64-digit hex string', () => {
    fc.assert(
      fc.property(iban, fields, fc.nat(5), (account, e, occurrence) => {
        const key = statementLineKey(account, e, occurrence);
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(statementLineKey(account, structuredClone(e), occurrence)).toBe(key);
      }),
    );
  });

  it('changes when the amount, a date, the description, a reference, the account or the occurrence changes', () => {
    type Change = (e: StatementLineKeyFields, account: string) => [StatementLineKeyFields, string];
    const change: fc.Arbitrary<Change> = fc.oneof(
      cents.map(
        (v): Change =>
          (e, a) => [{ ...e, amountCents: v }, a],
      ),
      isoDate.map(
        (v): Change =>
          (e, a) => [{ ...e, bookingDate: v }, a],
      ),
      fc.option(isoDate, { nil: null }).map(
        (v): Change =>
          (e, a) => [{ ...e, valueDate: v }, a],
      ),
      text.map(
        (v): Change =>
          (e, a) => [{ ...e, description: v }, a],
      ),
      optionalText.map(
        (v): Change =>
          (e, a) => [{ ...e, bankReference: v }, a],
      ),
      optionalText.map(
        (v): Change =>
          (e, a) => [{ ...e, endToEndId: v }, a],
      ),
      iban.map(
        (v): Change =>
          (e) => [e, v],
      ),
    );
    // Value dates compare as "the booking date unless stated otherwise".
    const effectiveValueDate = (e: StatementLineKeyFields) => e.valueDate ?? e.bookingDate;
    const same = (x: StatementLineKeyFields, y: StatementLineKeyFields) =>
      x.bookingDate === y.bookingDate &&
      effectiveValueDate(x) === effectiveValueDate(y) &&
      x.amountCents === y.amountCents &&
      (x.bankReference ?? '') === (y.bankReference ?? '') &&
      (x.endToEndId ?? '') === (y.endToEndId ?? '') &&
      x.description === y.description;
    fc.assert(
      fc.property(iban, fields, change, (account, e, apply) => {
        const [changed, changedAccount] = apply(e, account);
        fc.pre(!(same(e, changed) && account === changedAccount));
        expect(statementLineKey(changedAccount, changed, 0)).not.toBe(statementLineKey(account, e, 0));
      }),
    );
    fc.assert(
      fc.property(iban, fields, fc.nat(5), fc.nat(5), (account, e, o1, o2) => {
        fc.pre(o1 !== o2);
        expect(statementLineKey(account, e, o1)).not.toBe(statementLineKey(account, e, o2));
      }),
    );
  });

  it('cannot be fooled by a separator inside a field: shifting it to another field changes the key', () => {
    // Joined naively, both give "…␟R␟E␟␟D␟…".
    const a = entry({ bankReference: 'R\u001fE', endToEndId: null, description: 'D' });
    const b = entry({ bankReference: 'R', endToEndId: 'E', description: '\u001fD' });
    expect(statementLineKey(ACCOUNT, a, 0)).not.toBe(statementLineKey(ACCOUNT, b, 0));
  });

  it('ignores the layout noise the parsers normalise: spacing, IBAN grouping and case, "" for no reference', () => {
    const noise = fc.record({
      description: layout,
      bankReference: layout,
      endToEndId: layout,
      absent: fc.constantFrom(null, '', ' ', '\t'),
      sameValueDate: fc.boolean(),
      lowerIban: fc.boolean(),
      ibanGroups: fc.constantFrom('', ' ', '-', '  '),
    });
    fc.assert(
      fc.property(iban, fields, fc.nat(3), noise, (account, e, occurrence, n) => {
        const messy: StatementLineKeyFields = {
          ...e,
          description: lay(e.description, n.description),
          bankReference: e.bankReference === null ? n.absent : lay(e.bankReference, n.bankReference),
          endToEndId: e.endToEndId === null ? n.absent : lay(e.endToEndId, n.endToEndId),
          valueDate: e.valueDate ?? (n.sameValueDate ? e.bookingDate : null),
        };
        const messyIban = (n.lowerIban ? account.toLowerCase() : account).replace(
          /(.{4})(?!$)/g,
          `$1${n.ibanGroups}`,
        );
        expect(statementLineKey(messyIban, messy, occurrence)).toBe(statementLineKey(account, e, occurrence));
      }),
    );
  });

  it('gives one line the same key however the bank laid out its CSV export', () => {
    const tidy = [
      'Extrato de conta;;;;',
      `Conta;${ACCOUNT};;;`,
      'Data Mov.;Data Valor;Descritivo;Montante;Saldo',
      '03-02-2026;04-02-2026;TRF SEPA LOTE PMT-1;-1234,50;10000,00',
      '05-02-2026;05-02-2026;COMISSAO DE MANUTENCAO;-7,50;9992,50',
    ].join('\r\n');
    const messy = [
      'Extrato de conta;;;;',
      `Conta;${ACCOUNT};;;`,
      'Data Mov.;Data Valor;Descritivo;Montante;Saldo',
      '03/02/2026; 04/02/2026 ;  TRF SEPA   LOTE PMT-1 ;-1.234,50;10.000,00',
      '5.2.2026;05.02.2026;COMISSAO DE\tMANUTENCAO;-7,5;9.992,50',
    ].join('\n');
    const keys = (csv: string) => statementLineKeys(ACCOUNT, parseCsvStatement(csv).entries);
    expect(keys(messy)).toEqual(keys(tidy));
    expect(new Set(keys(tidy)).size).toBe(2);
  });
});

describe('statementLineKeys', () => {
  it('numbers genuinely identical lines of one statement 0, 1, … in order, so every key is distinct', () => {
    const fee = entry({ amountCents: -750, bankReference: null, description: 'COMISSAO' });
    const other = entry();
    expect(statementLineKeys(ACCOUNT, [fee, other, fee, fee, other])).toEqual([
      statementLineKey(ACCOUNT, fee, 0),
      referenceLineKey(ACCOUNT, other, 0),
      statementLineKey(ACCOUNT, fee, 1),
      statementLineKey(ACCOUNT, fee, 2),
      referenceLineKey(ACCOUNT, other, 1),
    ]);
  });

  it('recipe v2: a line with a bank reference of its own is keyed by it, the account, its day and amount', () => {
    const e = entry({ valueDate: '2026-02-04', endToEndId: 'E2E-1' });
    expect(referenceLineKey(' pt50 0035 0651 0000 1234 5671 4', e, 1)).toBe(
      nodeSha256(
        ['v2:bank-reference', ACCOUNT, '2026-02-03', '-123456', 'BR000111222333', '1'].join('\u001f'),
      ),
    );
    // Its text, EndToEndId and value date may differ between two exports of the same line: the key not.
    expect(statementLineKeys(ACCOUNT, [{ ...e, description: 'TRF SEPA LOTE', endToEndId: null }])).toEqual([
      referenceLineKey(ACCOUNT, e, 0),
    ]);
    // Another account's line with the same reference is another line.
    expect(referenceLineKey('PT50000201231234567890154', e, 0)).not.toBe(referenceLineKey(ACCOUNT, e, 0));
  });

  it('a placeholder is no reference: such a line keeps its v1 content key', () => {
    for (const placeholder of ['NONREF', ' nonref ', 'NOTPROVIDED', '', '  ', null]) {
      const e = entry({ bankReference: placeholder });
      expect(bankReferenceOf(placeholder)).toBeNull();
      expect(lineKeyRule(e)).toBe('CONTENT');
      expect(statementLineKeys(ACCOUNT, [e])).toEqual([statementLineKey(ACCOUNT, e, 0)]);
    }
    expect(bankReferenceOf('  BR\t0001 ')).toBe('BR 0001');
    expect(lineKeyRule(entry())).toBe('BANK_REFERENCE');
  });

  it('never repeats a key within a statement, and a statement that continues another keeps its keys', () => {
    // Few distinct values, so duplicates are common.
    const small: fc.Arbitrary<StatementLineKeyFields> = fc.record({
      bookingDate: fc.constantFrom('2026-02-02', '2026-02-03'),
      valueDate: fc.constant(null),
      amountCents: fc.constantFrom(-750, 2990),
      bankReference: fc.constantFrom(null, 'R1'),
      endToEndId: fc.constant(null),
      description: fc.constantFrom('COMISSAO', 'TRF'),
    });
    fc.assert(
      fc.property(fc.array(small, { maxLength: 30 }), fc.array(small, { maxLength: 30 }), (first, more) => {
        const keys = statementLineKeys(ACCOUNT, [...first, ...more]);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.slice(0, first.length)).toEqual(statementLineKeys(ACCOUNT, first));
        // The server hashes with node:crypto, the browser's preview with sha256Hex: the same keys.
        expect(statementLineKeys(ACCOUNT, [...first, ...more], nodeSha256)).toEqual(keys);
      }),
    );
  });
});

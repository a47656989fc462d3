import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPain001, readPain001 } from '../../../domain/sepa/read-pain001';
import { identifierProblem, sepaText, transliterate } from '../../../domain/sepa/transliterate';
import type { SepaBatch } from '../../../domain/sepa/validate-batch';
import { writePain001 } from '../../../domain/sepa/write-pain001';
import { sampleText, schemaErrors } from './shared-fixtures';

const NOW = new Date('2026-05-04T08:15:00Z');
const batch = (over: Partial<SepaBatch> = {}): SepaBatch => ({
  messageId: 'PAYOUT-2026-04-0002',
  executionDate: '2026-05-05',
  debtor: { name: 'Consultas Exemplo, Lda.', iban: 'PT50003500010001234567805', bic: 'cgdiptpl' },
  transactions: [
    {
      endToEndId: 'STL-2026-04-DOC0042',
      creditorName: 'Dra. Joana Conceição Gonçalves',
      creditorIban: 'PT50 0033 0000 4567 8901 2343 7',
      amountCents: 125000,
      remittanceInformation: 'Honorários consultas Abril/2026 nº 42 & outros',
    },
    {
      endToEndId: 'STL-2026-04-DOC0107',
      creditorName: 'João Simões Araújo',
      creditorIban: 'PT50001000001112223334480',
      creditorBic: 'bbpiptpl',
      amountCents: 321085,
      remittanceInformation: '',
    },
  ],
  ...over,
});

const ok = (b: SepaBatch, version: '03' | '09' = '03') => {
  const r = writePain001(b, { now: NOW, version });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
};

describe('transliteration', () => {
  it('maps Portuguese text to the SEPA Latin set', () => {
    expect(transliterate('Conceição Gonçalves, Nº 5ª & Cª')).toBe('Conceicao Goncalves, No 5a + Ca');
    expect(transliterate('ÁÀÂÃÉÊÍÓÔÕÚÜÇ áàâãéêíóôõúüç')).toBe('AAAAEEIOOOUUC aaaaeeiooouuc');
    expect(sepaText('  «Olá»\tmundo €5 ', 70)).toBe("'Ola' mundo EUR5");
    expect(sepaText('x'.repeat(200), 140)).toHaveLength(140);
  });

  it('checks identifiers without changing them', () => {
    expect(identifierProblem('STL-2026-04-DOC0042')).toBeNull();
    expect(identifierProblem('/ABC')).toBe('INVALID_SLASHES');
    expect(identifierProblem('A//B')).toBe('INVALID_SLASHES');
    expect(identifierProblem('A B')).toBe('INVALID_CHARACTERS');
    expect(identifierProblem('Pagamento ç')).toBe('INVALID_CHARACTERS');
    expect(identifierProblem('x'.repeat(36))).toBe('TOO_LONG');
  });
});

describe('pain.001 reader and EPC checks on the shared samples', () => {
  it('reads both samples; the synthetic payout is clean, the php-sepa-xml one has a bad debtor IBAN', () => {
    const synthetic = readPain001(sampleText('synthetic-payout-pt.pain.001.001.03.xml'));
    expect(synthetic.ok).toBe(true);
    if (!synthetic.ok) return;
    expect(checkPain001(synthetic.file)).toEqual([]);
    expect(synthetic.file.payments[0]!.transactions.map((t) => [t.endToEndId, t.amountCents])).toEqual([
      ['STL-2026-04-DOC0042', 125000],
      ['STL-2026-04-DOC0107', 321085],
      ['STL-2026-04-DOC0311', 12050],
    ]);
    const php = readPain001(sampleText('pain.001.001.03.xml'));
    expect(php.ok && checkPain001(php.file)).toEqual([
      { location: 'PmtInf[1]', field: 'DbtrAcct/Id/IBAN', code: 'INVALID_IBAN' },
    ]);
  });

  it('finds what the schema does not', () => {
    const r = ok(batch());
    const tampered = r.xml
      .replace('<Nm>Dra. Joana Conceicao Goncalves</Nm>', '<Nm>Dra. Joana Conceição</Nm>')
      .replace('<ChrgBr>SLEV</ChrgBr>', '<ChrgBr>SHAR</ChrgBr>')
      .replace('>1250.00<', '>1250.0<')
      .replace('<Ustrd>', '<Ustrd>x</Ustrd><Ustrd>');
    const read = readPain001(tampered);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(checkPain001(read.file).map((f) => `${f.field}:${f.code}`)).toEqual([
      'ChrgBr:NOT_SLEV',
      'Amt/InstdAmt:NOT_TWO_DECIMALS',
      'Cdtr/Nm:INVALID_CHARACTERS',
      'RmtInf/Ustrd:MORE_THAN_ONE',
    ]);
  });
});

describe('pain.001 writer', () => {
  it('writes a schema-valid .03 and .09 file with the EPC rules applied', async () => {
    const v3 = ok(batch());
    const v9 = ok(batch(), '09');
    expect(await schemaErrors([v3.xml])).toEqual([]);
    expect(await schemaErrors([v9.xml], '09')).toEqual([]);
    expect(v3.xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(v3.xml).toContain('<NbOfTxs>2</NbOfTxs>');
    expect(v3.xml.match(/<CtrlSum>4460\.85<\/CtrlSum>/g)).toHaveLength(2);
    expect(v3.xml).toContain('<ChrgBr>SLEV</ChrgBr>');
    expect(v3.xml).toContain('<Cd>SEPA</Cd>');
    expect(v3.xml).toContain('<Nm>Dra. Joana Conceicao Goncalves</Nm>');
    expect(v3.xml).toContain('<Ustrd>Honorarios consultas Abril/2026 no 42 + outros</Ustrd>');
    expect(v3.xml).toContain('<IBAN>PT50003300004567890123437</IBAN>');
    expect(v3.xml).toContain('<BIC>CGDIPTPL</BIC>');
    expect(v3.xml).toContain('<CreDtTm>2026-05-04T09:15:00+01:00</CreDtTm>');
    // No BIC → no CdtrAgt; empty remittance → no RmtInf.
    expect(v3.xml.match(/<CdtrAgt>/g)).toHaveLength(1);
    expect(v3.xml.match(/<RmtInf>/g)).toHaveLength(1);
    expect(v9.xml).toContain('<BICFI>CGDIPTPL</BICFI>');
    expect(v9.xml).toContain('<ReqdExctnDt>\n        <Dt>2026-05-05</Dt>');
    const read = readPain001(v3.xml);
    expect(read.ok && checkPain001(read.file)).toEqual([]);
  });

  it('moves the execution date to the next TARGET2 business day', () => {
    const r = ok(batch({ executionDate: '2026-12-25' }));
    expect(r.executionDate).toBe('2026-12-28');
    expect(r.xml).toContain('<ReqdExctnDt>2026-12-28</ReqdExctnDt>');
  });

  it('uses NOTPROVIDED for a debtor without BIC', async () => {
    const r = ok(batch({ debtor: { name: 'X', iban: 'PT50003500010001234567805' } }));
    expect(r.xml).toContain('<Othr>');
    expect(await schemaErrors([r.xml])).toEqual([]);
  });

  it('refuses invalid input with errors by transaction and field, and writes nothing', () => {
    const b = batch({ messageId: '/BAD', executionDate: '2026-05-01' });
    b.transactions[0] = {
      ...b.transactions[0]!,
      creditorIban: 'PT50003300004567890123438',
      amountCents: 12.5,
    };
    b.transactions[1] = {
      ...b.transactions[1]!,
      endToEndId: 'STL-2026-04-DOC0042',
      creditorBic: 'nope',
      creditorName: '😀<>',
    };
    b.transactions.push({
      endToEndId: 'x'.repeat(36),
      creditorName: 'A',
      creditorIban: 'CH9300762011623852957',
      amountCents: 0,
    });
    const r = writePain001(b, { now: NOW });
    expect(r.ok).toBe(false);
    expect(r).not.toHaveProperty('xml');
    if (r.ok) return;
    expect(r.errors).toEqual([
      { field: 'messageId', code: 'INVALID_SLASHES' },
      { field: 'executionDate', code: 'DATE_IN_PAST' },
      {
        index: 0,
        endToEndId: 'STL-2026-04-DOC0042',
        field: 'creditorIban',
        code: 'INVALID_NATIONAL_CHECKSUM',
      },
      { index: 0, endToEndId: 'STL-2026-04-DOC0042', field: 'amountCents', code: 'INVALID_AMOUNT' },
      { index: 1, endToEndId: 'STL-2026-04-DOC0042', field: 'endToEndId', code: 'DUPLICATE' },
      { index: 1, endToEndId: 'STL-2026-04-DOC0042', field: 'creditorName', code: 'REQUIRED' },
      { index: 1, endToEndId: 'STL-2026-04-DOC0042', field: 'creditorBic', code: 'INVALID_BIC' },
      { index: 2, endToEndId: 'x'.repeat(36), field: 'endToEndId', code: 'TOO_LONG' },
      { index: 2, endToEndId: 'x'.repeat(36), field: 'creditorBic', code: 'REQUIRED' },
      { index: 2, endToEndId: 'x'.repeat(36), field: 'amountCents', code: 'OUT_OF_RANGE' },
    ]);
  });

  it('refuses IBANs outside the SEPA schemes, creditor and debtor alike (IBAN_NOT_SEPA)', () => {
    const brazil = 'BR1800360305000010009795493C1'; // valid mod-97, not a SEPA country
    const b = batch({ debtor: { name: 'Consultas Exemplo, Lda.', iban: 'TR330006100519786457841326' } });
    b.transactions[0] = { ...b.transactions[0]!, creditorIban: brazil, creditorBic: 'ITAUBRSP' };
    const r = writePain001(b, { now: NOW });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { field: 'debtor.iban', code: 'IBAN_NOT_SEPA' },
      { index: 0, endToEndId: 'STL-2026-04-DOC0042', field: 'creditorIban', code: 'IBAN_NOT_SEPA' },
    ]);
    // Countries that joined the schemes in 2024–2025 are payable (with a BIC: they are outside the EEA).
    const joined = batch();
    joined.transactions[0] = {
      ...joined.transactions[0]!,
      creditorIban: 'RS35260005601001611379',
      creditorBic: 'AIKBRS22',
    };
    expect(writePain001(joined, { now: NOW }).ok).toBe(true);
  });

  it('sepa check finds a creditor or debtor IBAN outside SEPA', () => {
    const r = ok(batch());
    const tampered = r.xml
      .replace('<IBAN>PT50003300004567890123437</IBAN>', '<IBAN>BR1800360305000010009795493C1</IBAN>')
      .replace('<IBAN>PT50003500010001234567805</IBAN>', '<IBAN>TR330006100519786457841326</IBAN>');
    const read = readPain001(tampered);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(checkPain001(read.file).map((f) => `${f.location} ${f.field}:${f.code}`)).toEqual([
      'PmtInf[1] DbtrAcct/Id/IBAN:IBAN_NOT_SEPA',
      'PmtInf[1]/CdtTrfTxInf[1] CdtrAcct/Id/IBAN:IBAN_NOT_SEPA',
    ]);
  });

  it('refuses a batch that is not even shaped like one', () => {
    const r = writePain001({} as SepaBatch, { now: NOW });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors.map((e) => e.field)).toEqual([
        'messageId',
        'executionDate',
        'debtor.name',
        'debtor.iban',
        'transactions',
      ]);
    const stringly = { ...batch(), batchBooking: 'false' } as unknown as SepaBatch;
    expect(writePain001(stringly, { now: NOW })).toEqual({
      ok: false,
      errors: [{ field: 'batchBooking', code: 'INVALID_TYPE' }],
    });
  });

  it('only ever writes schema-valid files or refuses (random batches)', async () => {
    const good = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 });
    const iban = good(
      fc.constantFrom('PT50003300004567890123437', 'PT50001000001112223334480', 'DE89370400440532013000'),
      fc.constantFrom('PT50003300004567890123438', 'XX'),
    );
    const text = fc.string({
      unit: fc.constantFrom(...'aãçÇé &ºz/-?:().,\'+"<>€\u0000😀 '.split(''), 'A', '1'),
      minLength: 1,
      maxLength: 180,
    });
    const id = good(
      fc.stringMatching(/^[A-Za-z0-9\-.:]{1,35}$/),
      fc.string({ unit: fc.constantFrom('A', '/', ' ', 'ç', '-', '1'), maxLength: 40 }),
    );
    const tx = fc.record({
      endToEndId: id,
      creditorName: text,
      creditorIban: iban,
      creditorBic: fc.option(good(fc.constantFrom('bbpiptpl', 'CGDIPTPLXXX'), fc.constant('bad')), {
        nil: undefined,
      }),
      amountCents: good(fc.integer({ min: 1, max: 99_999_999_999 }), fc.constantFrom(0, -5, 1.5)),
      remittanceInformation: text,
    });
    const batches = fc.sample(
      fc.record({
        messageId: id,
        executionDate: good(
          fc.constantFrom('2026-05-05', '2026-05-09', '2026-12-25', '2027-04-02'),
          fc.constantFrom('2026-05-01', '2026-02-30'),
        ),
        debtor: fc.record({
          name: text,
          iban,
          bic: fc.option(good(fc.constant('CGDIPTPL'), fc.constant('x')), { nil: undefined }),
        }),
        transactions: fc.array(tx, { minLength: 0, maxLength: 5 }),
      }),
      { numRuns: 60, seed: 20260504 },
    );
    const written: string[] = [];
    let refused = 0;
    for (const b of batches) {
      const r = writePain001(b, { now: NOW });
      if (!r.ok) {
        expect(r.errors.length).toBeGreaterThan(0);
        refused++;
        continue;
      }
      const read = readPain001(r.xml);
      expect(read.ok && checkPain001(read.file)).toEqual([]);
      expect(r.controlSumCents).toBe(b.transactions.reduce((s, t) => s + t.amountCents, 0));
      written.push(r.xml);
    }
    expect(written.length).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(5);
    expect(await schemaErrors(written)).toEqual([]);
  });
});

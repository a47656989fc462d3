import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementLineRow } from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { insertUser } from './harness';
import { expectStatus, insertDoctor, type SepaWorld, startSepaWorld } from './sepa-support';
import { importStatement, insertCustomerInvoice } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';
const DAY = '2026-05-08';

/**
 * Issue 32, decision 0160: an imported sales document is its customer's (migration 0048: the case's
 * customer as party, the customer's phone), and an MB WAY credit printing a masked phone as Caixa Geral de
 * Depósitos prints it ("TRF MBWAY 964XXX072 0000235180") is suggested that customer's invoice of its
 * amount — among many of the same amount — sure when no other customer shares the visible digits.
 */
describe.each(testDatabaseKinds())('MB WAY phone against the customer’s phone, on $name', (kind) => {
  let world: SepaWorld;
  let doctorId: string;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
    doctorId = (await insertDoctor(world.db)).id;
  }, 120_000);
  afterAll(async () => world?.stop());

  /** A customer with this phone. */
  const customer = async (phone: string) => {
    const customerId = await insertUser(world.db, { email: `c-${randomUUID()}@demo.pt`, role: 'CUSTOMER' });
    await world.db.query(`UPDATE users SET phone_country_code = '+351', phone_number = $2 WHERE id = $1`, [
      customerId,
      phone,
    ]);
    return customerId;
  };
  /** An invoice (FT) of `cents` billing a paid case of the customer's, dated `day`. */
  const invoiceOf = (customerId: string, cents: number, day = DAY) =>
    insertCustomerInvoice(world.db, customerId, doctorId, cents, day);
  const customerInvoice = async (phone: string, cents: number) => {
    const customerId = await customer(phone);
    return { customerId, invoiceId: await invoiceOf(customerId, cents) };
  };
  const lineRow = async (fileId: string, lineId: string) => {
    const page = await expectStatus<{ items: StatementLineRow[] }>(
      await world.call('GET', `${LINES}?statementFileId=${fileId}`),
      200,
    );
    return page.items.find((l) => l.id === lineId)!;
  };

  it('the view names a sales document’s customer and phone', async () => {
    const { customerId, invoiceId } = await customerInvoice('911000001', 1_100);
    const { rows } = await world.db.query(
      'SELECT direction, party_id, counterparty_phone FROM statement_counterparts WHERE id = $1',
      [invoiceId],
    );
    expect(rows).toEqual([{ direction: 1, party_id: customerId, counterparty_phone: '+351 911000001' }]);
  });

  it('suggests the invoice of the customer whose phone shows those digits, sure, and says why; another phone is not suggested', async () => {
    // 25 other customers' invoices of the same amount and day: more than the 20 nearest by date.
    for (let k = 0; k < 25; k++) await customerInvoice(`9120000${String(k).padStart(2, '0')}`, 2_500);
    const right = await customerInvoice('964123072', 2_500);
    const imported = await importStatement(world, [
      { amountCents: 2_500, bankDate: DAY, description: 'TRF MBWAY 964XXX072 0000235180' },
      { amountCents: 2_500, bankDate: DAY, description: 'TRF MBWAY 964XXX079 0000235181' },
    ]);
    const row = await lineRow(imported.fileId, imported.lineIds[0]!);
    expect(row).toMatchObject({
      status: 'SUGGESTED',
      suggestion: { kind: 'INVOICE', id: right.invoiceId, score: 0.95, reasons: { phone: true } },
    });
    // No customer's phone ends in 079 with 964 first: nothing a person would take for it.
    const other = await lineRow(imported.fileId, imported.lineIds[1]!);
    expect(other.status).toBe('UNMATCHED');
    // The match picker says it too.
    const { candidates } = await expectStatus<{ candidates: { id: string; reasons: { phone: boolean } }[] }>(
      await world.call('GET', `${LINES}/${imported.lineIds[0]}/candidates`),
      200,
    );
    expect(candidates[0]).toMatchObject({ id: right.invoiceId, reasons: { phone: true } });
  });

  /**
   * Decision 0164 (migration 0053): a sales document carries its customer's name, so a credit printing the
   * payer's name as banks do (initial, surname, accents dropped) is suggested that customer's invoice, sure,
   * among other customers' invoices of the same amount and day — which the date alone cannot tell apart.
   */
  it('names the sales document’s customer, and a credit printing that name is suggested that invoice, sure', async () => {
    const named = async (fullName: string, phone: string) => {
      const customerId = await customer(phone);
      await world.db.query('UPDATE users SET full_name = $2 WHERE id = $1', [customerId, fullName]);
      return customerId;
    };
    const joao = await named('João Simões', '962000001');
    const invoiceId = await invoiceOf(joao, 1_700);
    for (const other of ['Maria Costa', 'Rui Pereira', 'Ana Sousa'])
      await invoiceOf(await named(other, '962000009'), 1_700);
    const { rows } = await world.db.query(
      'SELECT counterparty_name FROM statement_counterparts WHERE id = $1',
      [invoiceId],
    );
    expect(rows).toEqual([{ counterparty_name: 'João Simões' }]);

    const imported = await importStatement(world, [
      { amountCents: 1_700, bankDate: DAY, description: 'TRF SEPA J SIMOES' },
    ]);
    const row = await lineRow(imported.fileId, imported.lineIds[0]!);
    expect(row).toMatchObject({
      status: 'SUGGESTED',
      suggestion: { kind: 'INVOICE', id: invoiceId, score: 0.95 },
    });
    // The initial and the surname agree (0.5); the other customers' names contradict it (0).
    expect(row.suggestion?.reasons.nameSimilarity).toBe(0.5);
  });

  /**
   * Decision 0165's amendment (migration 0055): a credit note is the customer's of the invoice it corrects, so
   * the refund transferred back to that customer, printing the name, is suggested the credit note, sure, among
   * other customers' credit notes of the same amount and day.
   */
  it('names a credit note’s customer through the invoice it corrects, and the refund is suggested it', async () => {
    const named = async (fullName: string) => {
      const customerId = await customer('963000001');
      await world.db.query('UPDATE users SET full_name = $2 WHERE id = $1', [customerId, fullName]);
      return customerId;
    };
    const creditNote = async (customerId: string) => {
      const invoiceId = await invoiceOf(customerId, 1_900);
      const { rows } = await world.db.query<{ id: string }>(
        `INSERT INTO provider_invoices (provider_invoice_id, invoice_no, document_type, amount_cents, invoice_date,
            credited_invoice_id)
         VALUES ($1, $1, 'NC', -1900, $2, $3) RETURNING id`,
        [`NC ${randomUUID()}`, DAY, invoiceId],
      );
      return rows[0]!.id;
    };
    const rita = await named('Rita Valente');
    const ritaNote = await creditNote(rita);
    for (const other of ['Paulo Neves', 'Sara Lobo']) await creditNote(await named(other));
    const { rows } = await world.db.query(
      'SELECT direction, party_id, counterparty_name FROM statement_counterparts WHERE id = $1',
      [ritaNote],
    );
    expect(rows).toEqual([{ direction: -1, party_id: rita, counterparty_name: 'Rita Valente' }]);

    const imported = await importStatement(world, [
      { amountCents: -1_900, bankDate: DAY, description: 'TRF SEPA P/ R VALENTE DEVOL' },
    ]);
    const row = await lineRow(imported.fileId, imported.lineIds[0]!);
    expect(row).toMatchObject({
      status: 'SUGGESTED',
      suggestion: { kind: 'INVOICE', id: ritaNote, score: 0.95 },
    });
  });

  /**
   * Decision 0177: one account, one payer. João Simões pays his 41 € invoice with his name in full and a 23 €
   * one as "J SIMOES" from the same account; Joana Simões has a 23 € invoice of the same day, so the name alone
   * cannot tell. The account does, and the why says so; once accepted, it still does.
   */
  it('reads a line printed alike as the payer its account surely paid in the file, and says why', async () => {
    const named = async (fullName: string) => {
      const customerId = await customer('965000001');
      await world.db.query('UPDATE users SET full_name = $2 WHERE id = $1', [customerId, fullName]);
      return customerId;
    };
    const monday = '2026-05-11';
    const joao = await named('João Simões');
    const joao41 = await invoiceOf(joao, 4_100, monday);
    const joao23 = await invoiceOf(joao, 2_300, monday);
    await invoiceOf(await named('Joana Simões'), 2_300, monday);
    const account = 'PT50003506510000077777777';
    const imported = await importStatement(world, [
      {
        amountCents: 4_100,
        bankDate: '2026-05-12',
        description: 'TRF SEPA JOAO SIMOES',
        counterpartyIban: account,
      },
      {
        amountCents: 2_300,
        bankDate: '2026-05-12',
        description: 'TRF SEPA J SIMOES',
        counterpartyIban: account,
      },
    ]);
    const whole = await lineRow(imported.fileId, imported.lineIds[0]!);
    // Each line of the account says it of the other: the same account paid João's other document.
    expect(whole.suggestion).toMatchObject({ id: joao41, score: 0.95, reasons: { sameAccount: true } });
    const initial = await lineRow(imported.fileId, imported.lineIds[1]!);
    expect(initial.suggestion).toMatchObject({
      id: joao23,
      score: 0.95,
      reasons: { sameAccount: true, twin: false, nameSimilarity: 0.5 },
    });
    // Accepted, the full-name line is MATCHED: the account's evidence is read from it still.
    await expectStatus(
      await world.call('POST', `${LINES}/${imported.lineIds[0]}/match`, {
        body: { counterparts: [{ kind: 'INVOICE', id: joao41 }] },
      }),
      200,
    );
    expect((await lineRow(imported.fileId, imported.lineIds[1]!)).suggestion?.reasons.sameAccount).toBe(true);
  });

  it('takes one of a customer’s twin documents surely, and says why (decision 0177)', async () => {
    const rui = await customer('966000001');
    await world.db.query(`UPDATE users SET full_name = 'Rui Quintas' WHERE id = $1`, [rui]);
    const twins = [await invoiceOf(rui, 2_700, '2026-05-11'), await invoiceOf(rui, 2_700, '2026-05-11')];
    const imported = await importStatement(world, [
      { amountCents: 2_700, bankDate: '2026-05-12', description: 'TRF SEPA RUI QUINTAS' },
    ]);
    const row = await lineRow(imported.fileId, imported.lineIds[0]!);
    expect(row.status).toBe('SUGGESTED');
    expect(twins).toContain(row.suggestion?.id);
    expect(row.suggestion).toMatchObject({ score: 0.95, reasons: { twin: true, sameAccount: false } });
  });

  /**
   * Decision 0160: a camt.053 credit carries the debtor's IBAN; matched by hand to a customer's invoice, it
   * teaches "IBAN:…" → that customer, and next month's credit from that IBAN is suggested the customer's
   * invoice — sure, though another customer has one of the amount that day and the name prints otherwise.
   */
  it('a payer IBAN matched by hand suggests its customer next month, the IBAN rule named', async () => {
    const iban = 'PT50003506510000012345678';
    const joao = await customer('961000001');
    const jose = await customer('961000002');
    const first = await invoiceOf(joao, 1_500, DAY);
    await invoiceOf(jose, 1_500, DAY);
    const may = await importStatement(world, [
      { amountCents: 1_500, bankDate: DAY, description: 'TRF CR SEPA+ DE J SILVA', counterpartyIban: iban },
    ]);
    await expectStatus(
      await world.call('POST', `${LINES}/${may.lineIds[0]}/match`, {
        body: { counterparts: [{ kind: 'INVOICE', id: first }] },
      }),
      200,
    );
    const { rows: rules } = await world.db.query(
      'SELECT counterparty_text, party_id FROM statement_learned_parties WHERE party_id = $1 ORDER BY 1',
      [joao],
    );
    expect(rules).toEqual([
      { counterparty_text: `IBAN:${iban}`, party_id: joao },
      { counterparty_text: 'J SILVA', party_id: joao },
    ]);

    const june = '2026-06-08';
    const next = await invoiceOf(joao, 1_500, june);
    await invoiceOf(jose, 1_500, june);
    // The payer's bank prints the name otherwise this time: only the IBAN says who it is.
    const later = await importStatement(world, [
      {
        amountCents: 1_500,
        bankDate: june,
        description: 'TRF CR SEPA+ DE JOAO M SILVA',
        counterpartyIban: iban,
      },
    ]);
    const row = await lineRow(later.fileId, later.lineIds[0]!);
    expect(row).toMatchObject({
      status: 'SUGGESTED',
      suggestion: {
        kind: 'INVOICE',
        id: next,
        score: 0.95,
        reasons: { learnedRule: true, learnedText: `IBAN:${iban}` },
      },
    });
  });
});

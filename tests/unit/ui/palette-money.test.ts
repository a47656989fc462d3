import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FinanceSearch, StatementsSearch } from '../../../contract/money-search';
import { amountSearchCents } from '../../../domain/amount-search';
import { formatCents } from '../../../domain/money';
import { financeSearchCommands, sepaFileCommands } from '../../../src/features/finance/palette-commands';
import { statementSearchCommands } from '../../../src/features/statements/palette-commands';
import { translateIn } from '../../../src/i18n/i18n';
import { rankCommands } from '../../../src/kernel/palette-ranking';
import type { PaletteCommand } from '../../../src/kernel/palette-registry';

/*
 * The palette reaching the money (issue 29 point 10, decision 0131): an amount read however it is
 * typed, and what Enter runs for a MsgId, an EndToEndId or an amount among the other commands.
 */

describe('amountSearchCents', () => {
  it.each([
    ['45,30', 4530],
    ['45.30', 4530],
    ['45', 4500],
    ['€45.30', 4530],
    ['45,30 €', 4530],
    ['-45,30', 4530],
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['0,05', 5],
  ])('reads %s as %i cents', (text, cents) => {
    expect(amountSearchCents(text)).toBe(cents);
  });

  it.each(['SEPA-2026-11', 'PAG-202610-006', 'Farmácia', '0', '0,00', '45,3,0', '1.2.3', '', 'e5'])(
    'does not take %j for an amount',
    (text) => {
      expect(amountSearchCents(text)).toBeNull();
    },
  );

  it('reads back any amount as either language shows it, and as typed with a comma or a dot', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -99_999_999_99, max: 99_999_999_99 }).filter((c) => c !== 0),
        (cents) => {
          const abs = Math.abs(cents);
          const plain = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
          for (const typed of [
            formatCents(cents, 'pt-PT'),
            formatCents(cents, 'en-GB'),
            plain,
            plain.replace('.', ','),
          ])
            expect(amountSearchCents(typed)).toBe(abs);
        },
      ),
    );
  });
});

const t = translateIn('en-GB');
const noop = () => {};
const MSG_ID = 'SEPA-2026-11-000001';
const FILE_ID = '7d1f6f4e-8c1b-4a53-9a52-3f1d2f0c0a01';
const found: FinanceSearch = {
  sepaFiles: [
    { id: FILE_ID, msgId: MSG_ID, status: 'GENERATED', amountCents: 123456, referenceMonth: '2026-11' },
  ],
  transfers: [1, 2].map((n) => ({
    id: `7d1f6f4e-8c1b-4a53-9a52-3f1d2f0c0b0${n}`,
    endToEndId: `${MSG_ID}-0000${n}`,
    sepaFileId: FILE_ID,
    msgId: MSG_ID,
    professionalName: `Dra. Ana ${n}`,
    amountCents: 4530 * n,
  })),
  doctors: [],
};
const lines: StatementsSearch = {
  files: [],
  lines: [
    {
      id: '7d1f6f4e-8c1b-4a53-9a52-3f1d2f0c0c01',
      statementFileId: '7d1f6f4e-8c1b-4a53-9a52-3f1d2f0c0d01',
      fileName: 'extrato-novembro.xml',
      bankDate: '2026-11-04',
      amountCents: -4530,
      counterpartyName: 'Farmácia Central',
      status: 'UNMATCHED',
    },
  ],
};
/** On the file's page, an action whose label happens to name the MsgId: a page action is boosted. */
const pageAction: PaletteCommand = {
  id: 'sepa-file:available:other',
  group: 'This SEPA file',
  label: `Mark file ${MSG_ID} available`,
  kind: 'action',
  run: noop,
};

const firstFor = (query: string, commands: PaletteCommand[]) => rankCommands(commands, query)[0]?.id;

describe('the palette’s money commands, ranked', () => {
  it('puts the file first for its whole MsgId, even above a page action naming it', () => {
    const commands = [pageAction, ...financeSearchCommands(found, MSG_ID, t, 'en-GB', noop)];
    expect(firstFor(MSG_ID, commands)).toBe(`sepa:open:${FILE_ID}`);
    expect(firstFor(MSG_ID.toLowerCase(), commands)).toBe(`sepa:open:${FILE_ID}`);
  });

  it('puts the transfer first for its whole EndToEndId', () => {
    const e2e = found.transfers[1]!.endToEndId;
    const commands = [pageAction, ...financeSearchCommands(found, e2e, t, 'en-GB', noop)];
    expect(firstFor(e2e, commands)).toBe(`sepa:transfer:${found.transfers[1]!.id}`);
  });

  it('opens the file of a transfer and the file of a line narrowed to its amount', () => {
    const paths: string[] = [];
    const go = (path: string) => paths.push(path);
    for (const command of financeSearchCommands(found, MSG_ID, t, 'en-GB', go)) command.run();
    for (const command of statementSearchCommands(lines, '45.30', t, 'en-GB', go)) command.run();
    expect(paths).toEqual([
      `/sepa/${FILE_ID}`,
      `/sepa/${FILE_ID}`,
      `/sepa/${FILE_ID}`,
      `/statements?statementFileId=${lines.lines[0]!.statementFileId}&minCents=-4530&maxCents=-4530`,
    ]);
  });

  it('lists the line the server found for an amount however it was typed', () => {
    for (const typed of ['45.30', '45,30', '€45.30'])
      expect(firstFor(typed, statementSearchCommands(lines, typed, t, 'en-GB', noop))).toBe(
        `statement-line:open:${lines.lines[0]!.id}`,
      );
  });

  it('offers a GENERATED file’s downloads and the status report upload, and no download once handed over', () => {
    const labels = (downloadable: boolean) =>
      sepaFileCommands({ id: FILE_ID, downloadable }, t, noop).map((c) => c.id.split(':')[1]);
    expect(labels(true)).toEqual(['download-xml', 'download-xlsx', 'status-report']);
    expect(labels(false)).toEqual(['status-report']);
  });
});

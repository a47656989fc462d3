import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { MONEY_SEARCH_MAX } from '../../../contract/limits';
import { formatCents } from '../../../domain/money';
import { type StatementsSearch, searchStatements } from '../../api/money-search';
import { type Translate, translateEvery, useI18n } from '../../i18n/i18n';
import { formatDate } from '../../kernel/dates';
import {
  type PaletteCommand,
  usePaletteSearch,
  useRegisterCommands,
  useSettledValue,
} from '../../kernel/palette-registry';
import { SessionContext } from '../../kernel/session';

/** The shortest search sent: one letter would name every record. */
const MIN_SEARCH = 2;

const fileHref = (statementFileId: string) =>
  `/statements?statementFileId=${encodeURIComponent(statementFileId)}`;

/**
 * The statement files and lines the server found for `term` as commands: a file opens its lines, a
 * line opens its file's lines narrowed to its amount, so it is the row shown (decision 0131).
 */
export function statementSearchCommands(
  found: StatementsSearch,
  term: string,
  t: Translate,
  locale: string,
  navigate: (path: string) => void,
): PaletteCommand[] {
  const group = t('statementsPalette.group');
  return [
    ...found.files.map((file) => ({
      id: `statement-file:open:${file.id}`,
      group,
      label: t('statementsPalette.openFile', { name: file.fileName }),
      keywords: [file.fileName],
      ids: [file.fileName, file.id],
      kind: 'entity' as const,
      run: () => navigate(fileHref(file.id)),
    })),
    ...found.lines.map((line) => ({
      id: `statement-line:open:${line.id}`,
      group,
      label: t('statementsPalette.openLine', {
        amount: formatCents(line.amountCents, locale),
        date: formatDate(line.bankDate, locale),
        who: line.counterpartyName ?? line.fileName,
      }),
      keywords: [line.counterpartyName ?? '', line.fileName].filter(Boolean),
      // "45.30" or "45" found it, though the label reads "−45,30 €".
      foundBy: term,
      kind: 'entity' as const,
      run: () =>
        navigate(
          `${fileHref(line.statementFileId)}&minCents=${line.amountCents}&maxCents=${line.amountCents}`,
        ),
    })),
  ];
}

/** The score filter the palette's command opens (decision 0147): `Shift+a` then accepts what it selects. */
export const SCORE_FILTER_HREF = '/statements?status=SUGGESTED&minScore=0.95';

/** "Suggestions with score ≥ 95": the reconciliation table filtered to the matcher's surest suggestions. */
export function scoreFilterCommand(t: Translate, navigate: (path: string) => void): PaletteCommand {
  return {
    id: 'statements:score-filter',
    group: t('statementsPalette.group'),
    label: t('statementsPalette.scoreFilter'),
    keywords: [...translateEvery('statementsPalette.scoreFilter'), '95'],
    kind: 'screen',
    run: () => navigate(SCORE_FILTER_HREF),
  };
}

/** The lines whose payout paid a settlement no invoice bills (decision 0156), as the palette opens them. */
export const PAYOUT_WITHOUT_INVOICE_HREF = '/statements?payoutWithoutInvoice=true';

/** "Payouts with a settlement without invoice": the reconciliation table's credits still missing an invoice. */
export function payoutWithoutInvoiceCommand(t: Translate, navigate: (path: string) => void): PaletteCommand {
  return {
    id: 'statements:payout-without-invoice',
    group: t('statementsPalette.group'),
    label: t('statementsPalette.payoutWithoutInvoice'),
    keywords: translateEvery('statementsPalette.payoutWithoutInvoice'),
    kind: 'screen',
    run: () => navigate(PAYOUT_WITHOUT_INVOICE_HREF),
  };
}

/**
 * Statement files by name and lines by amount or counterparty, for what is typed in the palette; and the
 * score filter's command.
 */
export function useStatementSearchCommands(): void {
  const { t, locale } = useI18n();
  const [, navigate] = useLocation();
  const [search] = usePaletteSearch();
  const authenticated = SessionContext.useSelector((s) => s.hasTag('authenticated'));
  const term = useSettledValue(search.trim());
  const searched =
    authenticated && term.length >= MIN_SEARCH && term.length <= MONEY_SEARCH_MAX ? term : null;
  const { data: found } = useQuery({
    queryKey: ['statements', 'palette', searched],
    queryFn: () => searchStatements(searched ?? ''),
    enabled: searched !== null,
    staleTime: 30_000,
  });
  const commands = useMemo(
    () => [
      ...(authenticated ? [scoreFilterCommand(t, navigate), payoutWithoutInvoiceCommand(t, navigate)] : []),
      ...(searched !== null && found ? statementSearchCommands(found, searched, t, locale, navigate) : []),
    ],
    [authenticated, searched, found, t, locale, navigate],
  );
  useRegisterCommands('statements', commands);
}

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

/**
 * The reconciliation table's filters the palette opens, each a command: the matcher's surest suggestions
 * (decision 0147: `Shift+a` then accepts them), the credits whose payout still misses an invoice (decision
 * 0156), and the open lines with no candidate — the month's fees, chargebacks, lines printed twice —
 * that `Shift+i` then ignores together (decision 0161).
 */
const FILTER_COMMANDS = [
  {
    id: 'statements:score-filter',
    labelKey: 'statementsPalette.scoreFilter',
    keywords: ['95'],
    href: '/statements?status=SUGGESTED&minScore=0.95',
  },
  {
    id: 'statements:payout-without-invoice',
    labelKey: 'statementsPalette.payoutWithoutInvoice',
    keywords: [],
    href: '/statements?payoutWithoutInvoice=true',
  },
  {
    id: 'statements:no-candidate',
    labelKey: 'statementsPalette.noCandidate',
    keywords: [],
    href: '/statements?noCandidate=true',
  },
] as const;

function filterCommands(t: Translate, navigate: (path: string) => void): PaletteCommand[] {
  return FILTER_COMMANDS.map((command) => ({
    id: command.id,
    group: t('statementsPalette.group'),
    label: t(command.labelKey),
    keywords: [...translateEvery(command.labelKey), ...command.keywords],
    kind: 'screen' as const,
    run: () => navigate(command.href),
  }));
}

/**
 * Statement files by name and lines by amount or counterparty, for what is typed in the palette; and the
 * table's filter commands.
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
      ...(authenticated ? filterCommands(t, navigate) : []),
      ...(searched !== null && found ? statementSearchCommands(found, searched, t, locale, navigate) : []),
    ],
    [authenticated, searched, found, t, locale, navigate],
  );
  useRegisterCommands('statements', commands);
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatCents } from '../../../domain/money';
import type { LineAction } from '../../../machines/reconciliation';
import {
  type Candidate,
  fetchLineCandidates,
  fetchLineHistory,
  type StatementLineRow,
  statementKeys,
} from '../../api/statements';
import { useI18n } from '../../i18n/i18n';
import { AuditChanges } from '../../kernel/audit-changes';
import { formatDate, formatDateTime } from '../../kernel/dates';
import { LineDialog } from './LineDialog';

export type LineDialogState =
  | { kind: 'note' | 'ignore' | 'history'; line: StatementLineRow }
  /** `nth`: the `1`–`3` keys (that candidate, at once when the amounts add up); null: the `m` picker. */
  | { kind: 'match'; line: StatementLineRow; nth: 0 | 1 | 2 | null };

/** The dialog a reconciliation key opened; what it decides goes back as one action. */
export function LineDialogs(props: {
  dialog: LineDialogState;
  onAct(action: LineAction): void;
  onClose(): void;
}) {
  const { dialog } = props;
  if (dialog.kind === 'history') return <HistoryDialog line={dialog.line} onClose={props.onClose} />;
  if (dialog.kind === 'match') return <MatchPicker {...props} line={dialog.line} nth={dialog.nth} />;
  return <NoteDialog kind={dialog.kind} line={dialog.line} onAct={props.onAct} onClose={props.onClose} />;
}

function NoteDialog(props: {
  kind: 'note' | 'ignore';
  line: StatementLineRow;
  onAct(action: LineAction): void;
  onClose(): void;
}) {
  const { t } = useI18n();
  const [note, setNote] = useState('');
  return (
    <LineDialog
      title={t(props.kind === 'ignore' ? 'statements.dialog.ignoreTitle' : 'statements.dialog.noteTitle', {
        line: props.line.lineNumber,
      })}
      submitLabel={t('statements.dialog.save')}
      canSubmit={note.trim() !== ''}
      onSubmit={() => props.onAct({ kind: props.kind, lineId: props.line.id, note: note.trim() })}
      onClose={props.onClose}
    >
      <label className="statement-note">
        <span>{t('statements.dialog.note')}</span>
        <textarea value={note} maxLength={2000} required onChange={(e) => setNote(e.target.value)} />
      </label>
    </LineDialog>
  );
}

const refOf = (c: Candidate) => `${c.kind}:${c.id}`;

/** A score (0–1 on the wire) as the points the admin reads, out of 100. */
export const scorePoints = (score: number) => Math.round(score * 100);

function MatchPicker(props: {
  line: StatementLineRow;
  nth: 0 | 1 | 2 | null;
  onAct(action: LineAction): void;
  onClose(): void;
}) {
  const { t, locale } = useI18n();
  const { line, nth, onAct } = props;
  const money = (cents: number) => formatCents(cents, locale, 'EUR');
  const candidates = useQuery({
    queryKey: statementKeys.candidates(line.id),
    queryFn: () => fetchLineCandidates(line.id),
  });
  const list = candidates.data?.candidates ?? [];
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [note, setNote] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const picked = list.filter((c) => chosen.has(refOf(c)));
  const difference = line.bankAmountCents - picked.reduce((sum, c) => sum + c.amountCents, 0);

  // `1`–`3`: that candidate; matched at once when its amount is the line's, else shown with the note asked.
  useEffect(() => {
    if (nth === null || !candidates.data) return;
    const candidate = candidates.data.candidates[nth];
    if (!candidate) return;
    if (candidate.amountCents === line.bankAmountCents)
      onAct({ kind: 'match', lineId: line.id, counterparts: [{ kind: candidate.kind, id: candidate.id }] });
    else setChosen(new Set([refOf(candidate)]));
  }, [nth, candidates.data, line, onAct]);

  // The dialog opened on Cancel while the candidates were on their way: the first one takes the focus.
  useEffect(() => {
    if (nth === null && candidates.data) listRef.current?.querySelector('input')?.focus();
  }, [nth, candidates.data]);

  const toggle = (c: Candidate) => {
    const next = new Set(chosen);
    if (next.has(refOf(c))) next.delete(refOf(c));
    else next.add(refOf(c));
    setChosen(next);
  };
  return (
    <LineDialog
      title={t('statements.dialog.matchTitle', {
        line: line.lineNumber,
        amount: money(line.bankAmountCents),
      })}
      submitLabel={t('statements.dialog.match')}
      canSubmit={picked.length > 0 && (difference === 0 || note.trim() !== '')}
      onSubmit={() =>
        onAct({
          kind: 'match',
          lineId: line.id,
          counterparts: picked.map((c) => ({ kind: c.kind, id: c.id })),
          ...(note.trim() ? { note: note.trim() } : {}),
        })
      }
      onClose={props.onClose}
    >
      {candidates.isPending ? <p role="status">{t('statements.lines.loading')}</p> : null}
      {candidates.data && list.length === 0 ? <p>{t('statements.dialog.noCandidates')}</p> : null}
      <ol ref={listRef} className="statement-candidates" data-testid="statement-candidates">
        {list.map((c) => (
          <li key={refOf(c)}>
            <label>
              <input type="checkbox" checked={chosen.has(refOf(c))} onChange={() => toggle(c)} />{' '}
              <strong>{c.label}</strong> · {money(c.amountCents)} · {formatDate(c.date, locale)} ·{' '}
              {c.counterpartyName ?? '—'} · {t('statements.lines.score', { score: scorePoints(c.score) })}
              <small>
                {' '}
                (
                {t('statements.dialog.reasons', {
                  amount: t(c.reasons.amountExact ? 'statements.dialog.yes' : 'statements.dialog.no'),
                  days: c.reasons.dateDays,
                  reference: t(c.reasons.reference ? 'statements.dialog.yes' : 'statements.dialog.no'),
                  name: Math.round(c.reasons.nameSimilarity * 100),
                })}
                {c.reasons.learnedRule ? t('statements.dialog.learnedRule') : null})
              </small>
            </label>
          </li>
        ))}
      </ol>
      {picked.length > 0 && difference !== 0 ? (
        <label className="statement-note">
          <span role="alert">{t('statements.dialog.discrepancy', { difference: money(difference) })}</span>
          <textarea value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
        </label>
      ) : null}
    </LineDialog>
  );
}

function HistoryDialog({ line, onClose }: { line: StatementLineRow; onClose(): void }) {
  const { t, locale } = useI18n();
  const history = useQuery({
    queryKey: statementKeys.history(line.id),
    queryFn: () => fetchLineHistory(line.id),
  });
  return (
    <LineDialog title={t('statements.dialog.historyTitle', { line: line.lineNumber })} onClose={onClose}>
      {history.isPending ? <p role="status">{t('statements.lines.loading')}</p> : null}
      <ol className="statement-history" data-testid="statement-history">
        {history.data?.items.map((item) => (
          <li key={`${item.createdAt}-${item.action}`}>
            {formatDateTime(item.createdAt, locale)} · {item.actor?.name ?? t('statements.dialog.system')} ·{' '}
            {t(`statements.history.${item.action}`)}
            {item.before || item.after ? (
              <AuditChanges before={item.before} after={item.after} entityType="statement_line" />
            ) : null}
          </li>
        ))}
      </ol>
    </LineDialog>
  );
}

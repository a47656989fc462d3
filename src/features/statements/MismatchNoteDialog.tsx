import { useState } from 'react';
import { MISMATCH_NOTE_MAX } from '../../../machines/statement-import';
import { useI18n } from '../../i18n/i18n';
import { LineDialog } from './LineDialog';

/** "Import anyway": the statement's balances do not add up, and the admin says why (sent as `mismatchNote`). */
export function MismatchNoteDialog(props: { onImport(note: string): void; onClose(): void }) {
  const { t } = useI18n();
  const [note, setNote] = useState('');
  const trimmed = note.trim();
  return (
    <LineDialog
      title={t('statements.mismatch.title')}
      submitLabel={t('statements.mismatch.import')}
      canSubmit={trimmed.length > 0 && trimmed.length <= MISMATCH_NOTE_MAX}
      onSubmit={() => props.onImport(trimmed)}
      onClose={props.onClose}
    >
      <p>{t('statements.mismatch.explain')}</p>
      <label className="statement-note">
        <span>{t('statements.mismatch.note')}</span>
        <textarea
          value={note}
          maxLength={MISMATCH_NOTE_MAX}
          required
          data-testid="statement-mismatch-note"
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
    </LineDialog>
  );
}

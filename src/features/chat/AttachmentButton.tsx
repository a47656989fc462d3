import { useState } from 'react';
import { type CaseAttachment, fetchFileBlob } from '../../api/cases';
import { toastError } from '../../app/query-errors';
import { useI18n } from '../../i18n/i18n';
import { formatBytes } from '../cases/format';
import { saveBlob } from './save-blob';

/** A button, not a link: the file needs the bearer header, which a followed link would not send. */
export function AttachmentButton({ attachment }: { attachment: CaseAttachment }) {
  const { t, locale } = useI18n();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchFileBlob(attachment.url), attachment.name);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="attachment"
      onClick={download}
      aria-busy={busy}
      aria-label={t('chat.downloadAttachment', { name: attachment.name })}
    >
      <span className="attachment-name">{attachment.name}</span>
      <span className="attachment-size">{formatBytes(attachment.sizeBytes, locale)}</span>
    </button>
  );
}

import type { CaseAttachment } from '../../api/cases';
import { fileUrl } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { formatBytes } from './format';

/** A plain link: the server names the file (Content-Disposition) and reads the session cookie on GETs. */
export function AttachmentLink({ attachment }: { attachment: CaseAttachment }) {
  const { t, locale } = useI18n();
  return (
    <a
      className="attachment"
      href={fileUrl(attachment.url)}
      download={attachment.name}
      aria-label={t('chat.downloadAttachment', { name: attachment.name })}
    >
      <span className="attachment-name">{attachment.name}</span>
      <span className="attachment-size">{formatBytes(attachment.sizeBytes, locale)}</span>
    </a>
  );
}

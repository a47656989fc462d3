import type { CaseMessage } from '../../api/cases';
import { genderedKey } from '../../i18n/gender';
import { useI18n } from '../../i18n/i18n';
import { AttachmentLink } from './AttachmentLink';
import { formatDateTime, formatDuration } from './format';
import { VoicePlayer } from './VoicePlayer';

const ROLE_KEYS: Record<CaseMessage['sender']['role'], string> = {
  CUSTOMER: 'chat.role.CUSTOMER',
  PROFESSIONAL: 'chat.role.PROFESSIONAL',
  ADMIN: 'chat.role.ADMIN',
};

function Body({ message }: { message: CaseMessage }) {
  const { t } = useI18n();
  if (message.type === 'CALL')
    return (
      <p className="message-call">
        {t('chat.call', { duration: formatDuration(message.callDurationSeconds ?? 0) })}
      </p>
    );
  if (message.type === 'VOICE' && message.voice) return <VoicePlayer voice={message.voice} />;
  return <p className="message-text">{message.text}</p>;
}

export function MessageItem({ message }: { message: CaseMessage }) {
  const { t, locale } = useI18n();
  return (
    <article
      className="message"
      data-type={message.type}
      data-role={message.sender.role}
      aria-label={t('chat.messageFrom', { name: message.sender.name })}
    >
      <header className="message-meta">
        <strong className="message-sender">{message.sender.name}</strong>
        <span className="message-role">
          {t(genderedKey(ROLE_KEYS[message.sender.role], message.sender.gender))}
        </span>
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt, locale)}</time>
      </header>
      <Body message={message} />
      {message.attachments.length > 0 ? (
        <ul className="message-attachments" aria-label={t('chat.attachments')}>
          {message.attachments.map((a) => (
            <li key={a.id}>
              <AttachmentLink attachment={a} />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

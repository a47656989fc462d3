import { type CaseMessage, fileUrl } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { formatDuration } from './format';

type Voice = NonNullable<CaseMessage['voice']>;

/**
 * The browser streams the audio itself with range requests, so seeking jumps straight to the
 * bytes. Nothing is fetched before play: a conversation can hold many voice messages.
 */
export function VoicePlayer({ voice }: { voice: Voice }) {
  const { t } = useI18n();
  const duration = formatDuration(voice.durationSeconds);
  return (
    <div className="voice">
      {/* biome-ignore lint/a11y/useMediaCaption: recorded speech between patient and doctor has no captions */}
      <audio
        controls
        preload="none"
        src={fileUrl(voice.url)}
        aria-label={t('chat.voiceMessage', { duration })}
      />
      <span className="voice-duration">{duration}</span>
    </div>
  );
}

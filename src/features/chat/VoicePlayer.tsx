import { useEffect, useRef, useState } from 'react';
import { type CaseMessage, fetchFileBlob } from '../../api/cases';
import { toastError } from '../../app/query-errors';
import { useI18n } from '../../i18n/i18n';
import { formatDuration } from '../cases/format';

type Voice = NonNullable<CaseMessage['voice']>;

/**
 * The audio is fetched only when asked for (a long conversation holds many voice messages),
 * then played from memory, where the native controls seek freely.
 */
export function VoicePlayer({ voice }: { voice: Voice }) {
  const { t } = useI18n();
  const [src, setSrc] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);

  useEffect(() => () => void (src && URL.revokeObjectURL(src)), [src]);

  useEffect(() => {
    // Started from the admin's own key press, so the browser's autoplay rule allows it.
    if (src) audio.current?.play().catch(() => {});
  }, [src]);

  const load = async () => {
    setLoading(true);
    try {
      setSrc(URL.createObjectURL(await fetchFileBlob(voice.url)));
    } catch (error) {
      toastError(error);
    } finally {
      setLoading(false);
    }
  };

  const duration = formatDuration(voice.durationSeconds);
  return (
    <div className="voice">
      {src ? (
        // biome-ignore lint/a11y/useMediaCaption: recorded speech between patient and doctor has no captions
        <audio
          ref={audio}
          src={src}
          controls
          preload="auto"
          aria-label={t('chat.voiceMessage', { duration })}
        />
      ) : (
        <button type="button" className="voice-play" onClick={load} aria-busy={loading}>
          {t('chat.playVoice', { duration })}
        </button>
      )}
      <span className="voice-duration">{duration}</span>
    </div>
  );
}

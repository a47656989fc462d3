import { useRef, useState } from 'react';
import { type CaseMessage, fileUrl } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { formatDuration } from './format';

type Voice = NonNullable<CaseMessage['voice']>;

/**
 * A voice message's player, with controls of our own: the browser's shows "0:00 / 0:00" until the
 * audio is loaded, beside the duration the case already knows (issue 14). The browser streams the
 * audio with range requests when it plays, so seeking jumps straight to the bytes; nothing is fetched
 * before play (a conversation can hold many voice messages).
 */
export function VoicePlayer({ voice }: { voice: Voice }) {
  const { t } = useI18n();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const duration = formatDuration(voice.durationSeconds);
  const elapsed = `${formatDuration(position)} / ${duration}`;
  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of controls named by its message, not a fieldset of a form
    <div className="voice" role="group" aria-label={t('chat.voiceMessage', { duration })}>
      {/* biome-ignore lint/a11y/useMediaCaption: recorded speech between patient and doctor has no captions */}
      <audio
        ref={audio}
        preload="none"
        src={fileUrl(voice.url)}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
      />
      <button type="button" className="voice-toggle" onClick={toggle} aria-pressed={playing}>
        {playing ? t('chat.pause') : t('chat.play')}
      </button>
      <input
        type="range"
        className="voice-seek"
        min={0}
        max={voice.durationSeconds}
        step={0.1}
        value={position}
        aria-label={t('chat.position')}
        aria-valuetext={elapsed}
        onChange={(event) => {
          const seconds = Number(event.target.value);
          if (audio.current) audio.current.currentTime = seconds;
          setPosition(seconds);
        }}
      />
      <span className="voice-duration">{elapsed}</span>
    </div>
  );
}

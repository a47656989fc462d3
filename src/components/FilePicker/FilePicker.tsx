import { type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n';

interface FilePickerProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> {
  readonly label: ReactNode;
  readonly ref?: Ref<HTMLInputElement>;
}

/**
 * A file input whose button and chosen file's name are in the console's language: the native control
 * writes "Choose File" / "No file chosen" in the browser's language, whatever the console's. The input
 * itself stays the focused element (Space opens the chooser; it is named by the label's text alone), only drawn
 * hidden; the label draws the button and shows the focus ring when the input has it.
 */
export function FilePicker({ label, onChange, ref, ...input }: FilePickerProps) {
  const { t } = useI18n();
  const [chosen, setChosen] = useState<string | null>(null);
  const labelId = useId();
  const changed = (event: ChangeEvent<HTMLInputElement>) => {
    setChosen(event.target.files?.[0]?.name ?? null);
    onChange?.(event);
  };
  return (
    <label className="file-picker">
      <span id={labelId}>{label}</span>{' '}
      <input
        {...input}
        ref={ref}
        type="file"
        className="visually-hidden"
        aria-labelledby={labelId}
        onChange={changed}
      />
      <span className="file-picker-button" aria-hidden="true">
        {t('files.choose')}
      </span>{' '}
      <span className="file-picker-name" aria-hidden="true" data-testid="file-picker-name">
        {chosen ?? t('files.none')}
      </span>
    </label>
  );
}

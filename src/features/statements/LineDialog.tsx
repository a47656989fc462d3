import {
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  useId,
  useRef,
} from 'react';
import { trapTab, useModalFocus } from '../../components/Dialog/modal-focus';
import { useI18n } from '../../i18n/i18n';

/**
 * The one modal frame of the statements screen (the table's note, ignore, match picker, history; the
 * import's "import anyway" note): focus goes to `initial` (the first field) and back to what opened it
 * when it closes; Esc cancels; Tab stays inside.
 */
export function LineDialog(props: {
  title: string;
  children: ReactNode;
  /** Absent: a dialog that only shows (the history). */
  submitLabel?: string;
  canSubmit?: boolean;
  /** A confirmation: focus starts on its submit button, so Enter confirms (nothing to fill in). */
  focusSubmit?: boolean;
  onSubmit?(): void;
  onClose(): void;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const dialog = useRef<HTMLFormElement>(null);
  const initial = useRef<HTMLElement | null>(null);
  // The first control inside is what the admin works with first.
  const setInitial = (form: HTMLFormElement | null) => {
    dialog.current = form;
    initial.current =
      form?.querySelector<HTMLElement>(
        props.focusSubmit ? 'button[type="submit"]' : 'textarea, input, select, button',
      ) ?? null;
  };
  useModalFocus(dialog, initial);
  const onKeyDown = (event: ReactKeyboardEvent<HTMLFormElement>) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onClose();
    } else trapTab(event);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (props.onSubmit && props.canSubmit !== false) props.onSubmit();
    else if (!props.onSubmit) props.onClose();
  };
  return (
    <div className="modal-overlay">
      <form
        ref={setInitial}
        className="modal statement-line-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        onSubmit={submit}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div className="confirm-buttons">
          {props.onSubmit ? (
            <>
              <button type="button" onClick={props.onClose}>
                {t('statements.dialog.cancel')}
              </button>
              <button type="submit" className="primary" disabled={props.canSubmit === false}>
                {props.submitLabel}
              </button>
            </>
          ) : (
            <button type="submit" className="primary">
              {t('statements.dialog.close')}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

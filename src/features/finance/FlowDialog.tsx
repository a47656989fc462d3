import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { trapTab, useModalFocus } from '../../components/Dialog/modal-focus';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';

export interface FlowDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  workingLabel: string;
  /** The request is in flight: Enter and the button stay live but the machine ignores them. */
  busy: boolean;
  /** The last attempt failed with `error`: the button retries. */
  failed: boolean;
  error: string | null;
  onAccept(): void;
  onRetry(): void;
  onCancel(): void;
}

/**
 * The confirmation of a money-moving flow whose machine has its own confirm/submit states (settling
 * a doctor, generating a SEPA file). Every Enter is handed to the machine, even while it is busy:
 * the machine, not the dialog, guarantees that a second Enter sends nothing.
 */
export function FlowDialog(props: FlowDialogProps) {
  const { t } = useI18n();
  const titleId = useId();
  const confirmButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useModalFocus(dialog, confirmButton);

  const accept = () => (props.failed ? props.onRetry() : props.onAccept());
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onCancel();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (event.target instanceof HTMLButtonElement && event.target !== confirmButton.current)
        event.target.click();
      else accept();
    } else trapTab(event);
  };

  return (
    <div className="modal-overlay">
      <div
        ref={dialog}
        className="modal confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={props.busy}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{props.title}</h2>
        <div className="confirm-message">{props.children}</div>
        {props.error ? (
          <p role="alert" className="confirm-error">
            {t(errorCodeKey(props.error) ?? 'errorMessages.fallback')}
          </p>
        ) : null}
        <div className="confirm-buttons">
          <button type="button" onClick={props.onCancel} disabled={props.busy}>
            {t('confirmDialog.cancel')}
          </button>
          <button
            type="button"
            ref={confirmButton}
            className="primary"
            onClick={accept}
            aria-disabled={props.busy}
          >
            {props.busy ? props.workingLabel : props.failed ? t('confirmDialog.retry') : props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

import { useActorRef, useSelector } from '@xstate/react';
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  useCallback,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { fromPromise } from 'xstate';
import { confirmationMachine } from '../../../machines/confirmation';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { trapTab, useModalFocus } from '../Dialog/modal-focus';

/** One prompt: what it says and what runs when the admin confirms. */
export interface ConfirmRequest {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Styles the confirm button as destructive (disable, delete). */
  danger?: boolean;
  action(): Promise<unknown>;
  /** Runs once the action succeeded (refresh data, toast). */
  onDone?(output: unknown): void;
}

export interface Confirmation {
  /** Opens the dialog for this request; ignored while another one is open. */
  ask(request: ConfirmRequest): void;
  /** Render it once where the dialog should live. */
  dialog: ReactNode;
}

/** The single confirmation flow of the console, backed by `machines/confirmation.ts`. */
export function useConfirmation(): Confirmation {
  const current = useRef<ConfirmRequest | null>(null);
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const logic = useMemo(
    () =>
      confirmationMachine.provide({
        actors: {
          submit: fromPromise(() => current.current?.action() ?? Promise.resolve(undefined)),
        },
        actions: { reportDone: (_, params) => current.current?.onDone?.(params.output) },
      }),
    [],
  );
  const actor = useActorRef(logic);
  const open = useSelector(actor, (s) => s.hasTag('open'));
  const ask = useCallback(
    (next: ConfirmRequest) => {
      if (actor.getSnapshot().hasTag('open')) return;
      current.current = next;
      setRequest(next);
      actor.send({ type: 'confirm.open' });
    },
    [actor],
  );
  const dialog = open && request ? <ConfirmDialog actor={actor} request={request} /> : null;
  return { ask, dialog };
}

function ConfirmDialog({
  actor,
  request,
}: {
  actor: ReturnType<typeof useActorRef<typeof confirmationMachine>>;
  request: ConfirmRequest;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useModalFocus(dialogRef, confirmButton);

  const accept = () => actor.send({ type: failed ? 'confirm.retry' : 'confirm.accept' });
  const cancel = () => actor.send({ type: 'confirm.cancel' });

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    // Keys stop here: the table and the global shortcuts behind the dialog must not react.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    } else if (event.key === 'Enter' && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      accept();
    } else trapTab(event);
  };

  return (
    <div className="modal-overlay">
      <div
        ref={dialogRef}
        className="modal confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={busy}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          // Focus never leaves an open dialog (the trap's other half, beside Tab cycling).
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
            const target = confirmButton.current;
            setTimeout(() => {
              if (target?.isConnected && !dialogRef.current?.contains(document.activeElement)) target.focus();
            }, 0);
          }
        }}
      >
        <h2 id={titleId}>{request.title}</h2>
        <div className="confirm-message">{request.message}</div>
        {error ? (
          <p role="alert" className="confirm-error">
            {t(errorCodeKey(error) ?? 'errorMessages.fallback')}
          </p>
        ) : null}
        <div className="confirm-buttons">
          <button type="button" onClick={cancel} disabled={busy}>
            {t('confirmDialog.cancel')}
          </button>
          <button
            type="button"
            ref={confirmButton}
            className={request.danger ? 'danger' : 'primary'}
            onClick={accept}
            aria-disabled={busy}
          >
            {busy ? t('confirmDialog.working') : failed ? t('confirmDialog.retry') : request.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

import toast from 'react-hot-toast';

export type ToastVariant = 'primary' | 'secondary' | 'success' | 'danger' | 'warning' | 'info';

export const TOAST_DURATION_MS = 3000;

/** The one way to raise a toast, so every variant looks and lasts the same (spec §9). */
export function notify(variant: ToastVariant, message: string, title?: string): string {
  const urgent = variant === 'danger' || variant === 'warning';
  return toast(
    <div className="toast-body">
      {title ? <strong className="toast-title">{title}</strong> : null}
      <span className="toast-message">{message}</span>
    </div>,
    {
      duration: TOAST_DURATION_MS,
      className: `toast toast-${variant}`,
      ariaProps: { role: urgent ? 'alert' : 'status', 'aria-live': urgent ? 'assertive' : 'polite' },
    },
  );
}

import { forwardRef } from 'react';
import type { ExportJob } from '../../api/exports';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';

interface ExportProgressProps {
  /** The export of this type now queued or running, if any. */
  job: ExportJob | null;
  cancelling: boolean;
  onCancel(job: ExportJob): void;
}

/**
 * The running export: a progress bar of rows written out of the (estimated) total, refreshed by the
 * screen's polling, and Cancel. The region takes focus when an export starts, so Tab reaches Cancel.
 */
export const ExportProgress = forwardRef<HTMLElement, ExportProgressProps>(function ExportProgress(
  { job, cancelling, onCancel },
  ref,
) {
  const { t, locale } = useI18n();
  const number = new Intl.NumberFormat(locale);
  return (
    <section ref={ref} tabIndex={-1} className="exports-progress" aria-labelledby="export-progress-title">
      <h2 id="export-progress-title">{t('exports.current')}</h2>
      {job === null ? (
        <p>{t('exports.idle')}</p>
      ) : (
        <>
          <progress
            aria-labelledby="export-progress-title"
            aria-describedby="export-progress-text"
            max={Math.max(job.estimatedTotal, job.rowsWritten, 1)}
            value={job.rowsWritten}
          />
          <p id="export-progress-text" role="status">
            {job.status === 'queued'
              ? t('exports.queued')
              : t(
                  pluralKey(
                    locale,
                    job.estimatedTotal,
                    job.totalEstimated
                      ? { one: 'exports.progressEstimated.one', other: 'exports.progressEstimated.other' }
                      : { one: 'exports.progress.one', other: 'exports.progress.other' },
                  ),
                  {
                    written: number.format(job.rowsWritten),
                    total: number.format(job.estimatedTotal),
                  },
                )}
          </p>
          <button type="button" disabled={cancelling} onClick={() => onCancel(job)}>
            {t('exports.cancel')}
          </button>
        </>
      )}
    </section>
  );
});

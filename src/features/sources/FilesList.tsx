import { formatCents } from '../../../domain/money';
import type { SourceFileRow } from '../../api/sources';
import { useI18n } from '../../i18n/i18n';
import { formatDateTime } from '../../kernel/dates';
import { KIND_SHORT } from './source-words';

/**
 * The payout reports and SAF-T files imported, newest first: each one's kind, rows (new and imported
 * before), total, and whether its own control totals were checked against its rows.
 */
export function SourceFilesList({ files }: { files: readonly SourceFileRow[] }) {
  const { t, locale } = useI18n();
  return (
    <section className="statement-files" aria-labelledby="source-files-title">
      <h2 id="source-files-title">{t('sources.files.title')}</h2>
      {files.length === 0 ? (
        <p data-testid="source-files-empty">{t('sources.files.empty')}</p>
      ) : (
        <table
          className="statement-files-table"
          aria-label={t('sources.files.label')}
          data-testid="source-files"
        >
          <thead>
            <tr>
              <th scope="col">{t('sources.files.name')}</th>
              <th scope="col">{t('sources.files.kind')}</th>
              <th scope="col">{t('sources.files.rows')}</th>
              <th scope="col">{t('sources.files.newRows')}</th>
              <th scope="col">{t('sources.files.duplicates')}</th>
              <th scope="col">{t('sources.files.total')}</th>
              <th scope="col">{t('sources.files.control')}</th>
              <th scope="col">{t('sources.files.importedAt')}</th>
              <th scope="col">{t('sources.files.importedBy')}</th>
            </tr>
          </thead>
          <tbody>
            {files.map((file) => (
              <tr key={file.id} data-file={file.fileName} data-kind={file.kind}>
                <td>{file.fileName}</td>
                <td>{t(KIND_SHORT[file.kind])}</td>
                <td>{file.rows}</td>
                <td>{file.newRows}</td>
                <td>{file.duplicatesSkipped}</td>
                <td className="money">{formatCents(file.totalCents, locale, 'EUR')}</td>
                <td>
                  {t(file.controlTotals === 'checked' ? 'sources.files.checked' : 'sources.files.notStated')}
                </td>
                <td>{formatDateTime(file.importedAt, locale)}</td>
                <td>{file.importedBy ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

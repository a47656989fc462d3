import './statements-messages';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { ImportPanel } from './ImportPanel';

/** `/statements`: upload and preview a bank statement, then reconcile its lines (issue 12). */
export default function StatementsScreen() {
  const [location, navigate] = useLocation();
  const showFile = useCallback(
    (statementFileId: string) =>
      navigate(`${location}?statementFileId=${encodeURIComponent(statementFileId)}`),
    [location, navigate],
  );
  return (
    <div className="statements-screen">
      <ImportPanel onImported={showFile} />
    </div>
  );
}

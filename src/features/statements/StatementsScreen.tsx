import './statements-messages';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { fetchStatementFiles, statementKeys } from '../../api/statements';
import { FilesList } from './FilesList';
import { ImportPanel } from './ImportPanel';
import { LinesTable } from './LinesTable';

/** The files list shows this many, newest first (a month of daily statements and more). */
const FILES_SHOWN = 200;

/** `/statements`: import a bank statement (preview first), the files imported, and every line to reconcile (issue 12). */
export default function StatementsScreen() {
  const [, navigate] = useLocation();
  const files = useQuery({
    queryKey: statementKeys.files,
    queryFn: () => fetchStatementFiles({ limit: FILES_SHOWN }),
  });
  const showFile = useCallback(
    (statementFileId: string) =>
      navigate(`/statements?statementFileId=${encodeURIComponent(statementFileId)}`),
    [navigate],
  );
  const list = files.data?.items ?? [];
  return (
    <div className="statements-screen">
      <ImportPanel onImported={showFile} />
      {list.length > 0 ? <FilesList files={list} /> : null}
      <LinesTable files={list} />
    </div>
  );
}

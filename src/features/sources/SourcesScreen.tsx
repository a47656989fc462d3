import './sources-messages';
import { useQuery } from '@tanstack/react-query';
import { fetchSourceFiles, sourceKeys } from '../../api/sources';
import { SourceFilesList } from './FilesList';
import { SourceImportPanel } from './ImportPanel';

/** The files list shows this many, newest first (`SOURCE_FILES_PAGE.max`, contract/source-import.ts). */
const FILES_SHOWN = 200;

/** `/sources`: import a payment provider's payouts or an invoicing program's SAF-T file, and the files imported (issue 31). */
export default function SourcesScreen() {
  const files = useQuery({
    queryKey: sourceKeys.files,
    queryFn: () => fetchSourceFiles({ limit: FILES_SHOWN }),
  });
  return (
    <div className="statements-screen">
      <SourceImportPanel />
      {files.data ? <SourceFilesList files={files.data.items} /> : null}
    </div>
  );
}

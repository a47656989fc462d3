import type { Page } from 'playwright-core';
import { importPath, previewOf } from '../api/statement-support';

/**
 * A camt.053 imported through the import route the console uses, from the signed-in page (its cookie, its
 * Origin), waited for: the statement file's id, or the job's status when it did not finish.
 */
export async function importFromPage(page: Page, fileName: string, xml: string): Promise<string> {
  const path = importPath(fileName, previewOf(new Uint8Array(Buffer.from(xml))), {});
  return page.evaluate(
    async ({ path, xml }) => {
      const posted = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream', 'Idempotency-Key': crypto.randomUUID() },
        body: xml,
      });
      let { job } = (await posted.json()) as {
        job: { id: string; status: string; result: { statementFileId: string } | null };
      };
      while (job.status === 'RUNNING') {
        await new Promise((resolve) => setTimeout(resolve, 200));
        job = await (await fetch(`/v2/admin/statements/imports/${job.id}`)).json();
      }
      return job.result?.statementFileId ?? job.status;
    },
    { path, xml },
  );
}

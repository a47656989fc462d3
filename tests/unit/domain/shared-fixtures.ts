import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/** `../shared/fixtures/banking/` beside the repository (CI keeps a copy there too). */
export const BANKING = fileURLToPath(new URL('../../../../shared/fixtures/banking/', import.meta.url));

export function sample(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${BANKING}samples/${name}`));
}

export function sampleText(name: string): string {
  return readFileSync(`${BANKING}samples/${name}`, 'utf8');
}

/** xmllint --schema over several documents in one run (each run costs a wasm start-up). */
export async function schemaErrors(xmls: string[], version: '03' | '09' = '03'): Promise<string[]> {
  const xsd = readFileSync(`${BANKING}xsd/pain.001.001.${version}.xsd`, 'utf8');
  const r = await validateXML({
    xml: xmls.map((contents, i) => ({ fileName: `doc${i}.xml`, contents })),
    schema: [{ fileName: `pain.001.001.${version}.xsd`, contents: xsd }],
    maxMemoryPages: 4096,
  });
  return r.errors.map((e) => e.rawMessage);
}

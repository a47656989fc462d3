import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { painSchemaErrors } from '../../../server/pain-schema';

/** `../shared/fixtures/banking/` beside the repository (CI keeps a copy there too). */
export const BANKING = fileURLToPath(new URL('../../../../shared/fixtures/banking/', import.meta.url));

export function sample(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${BANKING}samples/${name}`));
}

export function sampleText(name: string): string {
  return readFileSync(`${BANKING}samples/${name}`, 'utf8');
}

/** Schema errors of each document against the shared pain.001 XSD (compiled once per process). */
export async function schemaErrors(xmls: string[], version: '03' | '09' = '03'): Promise<string[]> {
  const xsdFile = `${BANKING}xsd/pain.001.001.${version}.xsd`;
  const errors: string[] = [];
  for (const [i, xml] of xmls.entries()) {
    for (const e of await painSchemaErrors(xml, xsdFile)) errors.push(`doc${i}: ${e}`);
  }
  return errors;
}

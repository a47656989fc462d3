import { readFileSync } from 'node:fs';

/**
 * pain.001 schema validation in-process with libxml2-wasm, the XSD compiled once per process and
 * reused. xmllint-wasm (used before) starts a worker, instantiates the wasm module and compiles the
 * schema on every call: ~0.3 s of CPU before the first byte of the file, ~0.65 s in all for 10,000
 * transactions, against a budget of 1 s for writing *and* validating them (decision 0032).
 * No system binary is needed (Debian's xmllint is faster still, but a library must not need it).
 */
type Libxml2 = typeof import('libxml2-wasm');
type Validator = InstanceType<Libxml2['XsdValidator']>;

// The package loads and compiles its wasm module on import (~0.3 s of CPU): only when validating.
let libxml2: Promise<Libxml2> | undefined;
function loadLibxml2(): Promise<Libxml2> {
  if (!libxml2) libxml2 = import('libxml2-wasm');
  return libxml2;
}
const validators = new Map<string, Promise<Validator>>();

// No network, no external entities: the files checked come from outside.
const parseOptions = async () => {
  const { ParseOption } = await loadLibxml2();
  return { option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE };
};

function validatorFor(xsdFile: string): Promise<Validator> {
  let validator = validators.get(xsdFile);
  if (!validator) {
    validator = (async () => {
      const { XmlDocument, XsdValidator } = await loadLibxml2();
      const schema = XmlDocument.fromString(readFileSync(xsdFile, 'utf8'), {
        url: xsdFile,
        ...(await parseOptions()),
      });
      // The validator keeps what it needs from the schema document: it lives as long as the process.
      return XsdValidator.fromDoc(schema);
    })();
    validators.set(xsdFile, validator);
    validator.catch(() => validators.delete(xsdFile));
  }
  return validator;
}

/**
 * Compiles `xsdFile`'s validator ahead of its first use; settled once it is ready (or failed). A
 * failure is not reported here: the validation that needs it reports it.
 */
export function preparePainSchema(xsdFile: string): Promise<void> {
  return validatorFor(xsdFile).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * The schema's complaints about `xml` as `line N: message` (empty when valid). Never throws for a
 * bad file, only for an unusable XSD. A DOCTYPE is refused outright: pain.001 has none, and it is
 * how entity tricks (external entities, expansion bombs) get in.
 */
export async function painSchemaErrors(xml: string, xsdFile: string): Promise<string[]> {
  const doctype = /<!DOCTYPE/i.exec(xml);
  if (doctype) return [`line ${xml.slice(0, doctype.index).split('\n').length}: DOCTYPE not allowed`];
  const validator = await validatorFor(xsdFile);
  const { XmlDocument, XmlError, XmlLibError } = await loadLibxml2();
  let doc: InstanceType<Libxml2['XmlDocument']> | undefined;
  try {
    doc = XmlDocument.fromString(xml, await parseOptions());
    validator.validate(doc);
    return [];
  } catch (e) {
    // XmlParseError and XmlValidateError carry libxml2's details; other XmlErrors only a message.
    if (e instanceof XmlLibError && e.details.length > 0)
      return e.details.map((d) => `line ${d.line}: ${d.message.trim()}`);
    if (e instanceof XmlError) return [`line 1: ${e.message}`];
    throw e;
  } finally {
    doc?.dispose();
  }
}

import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { refused, type SourceRefusal } from './refusal';

/**
 * A SAF-T (PT) file as it is commonly handed over: the XML itself, gzip (`.xml.gz`) or a ZIP holding the
 * one XML file (decision 0149). Read as a stream of byte pieces, decompressed with fflate's streaming
 * decoders as the reader asks for more, a slice of the compressed file at a time, so that neither the
 * whole XML nor what one slice expands to is ever held. The output is counted as it comes: past the size
 * cap or the compression ratio a real file reaches, reading stops — a bomb is refused after at most one
 * slice more, never expanded.
 */

export type SaftContainer = 'xml' | 'gzip' | 'zip';

export interface UnpackLimits {
  /** The most bytes of XML a file may hold, compressed or not (`MAX_SAFT_XML_BYTES`, contract/limits.ts). */
  maxBytes: number;
  /** The most XML bytes per compressed byte (`MAX_SAFT_COMPRESSION_RATIO`). */
  maxRatio: number;
}

/** Thrown by `SaftByteSource.next` to end the read with a refusal, from inside the XML reader. */
export class SourceStop extends Error {
  constructor(readonly refusal: SourceRefusal) {
    super(refusal.code);
  }
}

const stop = (...args: Parameters<typeof refused>) => new SourceStop(refused(...args).refusal);

/** Compressed bytes handed to the decoder at a time: a slice expands to at most ~1032 times it (DEFLATE's limit). */
const SLICE = 16 * 1024;
/** Uncompressed bytes handed on at a time. */
const PLAIN_PIECE = 1024 * 1024;

const isGzip = (b: Uint8Array) => b[0] === 0x1f && b[1] === 0x8b;
/** A local file header, or the end of an archive with no entries at all. */
const isZip = (b: Uint8Array) =>
  b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));

export interface SaftByteSource {
  container: SaftContainer;
  /**
   * The next piece of XML bytes, null once the whole file was read (a ZIP's other entries, a stream
   * cut short found on the way); throws `SourceStop` when the file is refused.
   */
  next(): Uint8Array | null;
  /** The ZIP entry's name (null for the other containers). */
  entryName(): string | null;
}

function plainSource(bytes: Uint8Array, limits: UnpackLimits): SaftByteSource {
  let at = 0;
  return {
    container: 'xml',
    next() {
      if (bytes.length > limits.maxBytes)
        throw stop('SAFT_ARCHIVE_TOO_LARGE', undefined, { maxBytes: limits.maxBytes });
      if (at >= bytes.length) return null;
      const piece = bytes.subarray(at, at + PLAIN_PIECE);
      at += PLAIN_PIECE;
      return piece;
    },
    entryName: () => null,
  };
}

/** The compressed containers: a decoder fed a slice at a time, its output queued for `next`. */
function compressedSource(
  bytes: Uint8Array,
  limits: UnpackLimits,
  container: 'gzip' | 'zip',
  slice: number,
): SaftByteSource {
  const queue: Uint8Array[] = [];
  let size = 0;
  let fed = 0;
  const entries: string[] = [];
  let entryEnded = false;
  const tooLarge = (extra: Record<string, unknown>) =>
    stop('SAFT_ARCHIVE_TOO_LARGE', undefined, { container, compressedBytes: bytes.length, ...extra });
  // Why the output was stopped: fflate's ZIP decoder hands an error thrown by the output back as an
  // error of its own, so the reason is kept here.
  let stopped: SourceStop | null = null;
  const output = (chunk: Uint8Array) => {
    size += chunk.length;
    if (size > limits.maxBytes) stopped = tooLarge({ maxBytes: limits.maxBytes });
    else if (size > limits.maxRatio * Math.max(bytes.length, SLICE))
      stopped = tooLarge({ maxRatio: limits.maxRatio });
    if (stopped) throw stopped;
    if (chunk.length > 0) queue.push(chunk);
  };
  const unreadable = () => stopped ?? stop('SAFT_ARCHIVE_UNREADABLE', undefined, { container });
  let push: (chunk: Uint8Array, final: boolean) => void;
  if (container === 'gzip') {
    const gunzip = new Gunzip((chunk) => output(chunk));
    push = (chunk, final) => gunzip.push(chunk, final);
  } else {
    const unzip = new Unzip((file) => {
      entries.push(file.name);
      if (entries.length > 1 || file.name.endsWith('/')) {
        throw stop('SAFT_ARCHIVE_ENTRIES', undefined, { entries: [...entries] });
      }
      file.ondata = (error, chunk, final) => {
        if (error) throw unreadable();
        output(chunk);
        if (final) entryEnded = true;
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    push = (chunk, final) => unzip.push(chunk, final);
  }
  /** Feeds the next slice; false once everything was fed. */
  const feed = (): boolean => {
    if (fed >= bytes.length) return false;
    const part = bytes.subarray(fed, fed + slice);
    fed += slice;
    try {
      push(part, fed >= bytes.length);
    } catch (error) {
      throw error instanceof SourceStop ? error : unreadable();
    }
    return true;
  };
  const ended = () => {
    if (container === 'zip' && entries.length === 0)
      throw stop('SAFT_ARCHIVE_ENTRIES', undefined, { entries });
    if (container === 'zip' && !entryEnded) throw stop('SAFT_ARCHIVE_UNREADABLE', undefined, { container });
  };
  return {
    container,
    next() {
      while (queue.length === 0) {
        if (!feed()) {
          ended();
          return null;
        }
      }
      return queue.shift()!;
    },
    entryName: () => entries[0] ?? null,
  };
}

/**
 * The XML bytes of a SAF-T upload as pieces: as it is, or decompressed from gzip or a ZIP of one entry,
 * `slice` compressed bytes at a time (the tests vary it: any slicing gives the same bytes).
 */
export function openSaftBytes(bytes: Uint8Array, limits: UnpackLimits, slice = SLICE): SaftByteSource {
  if (isGzip(bytes)) return compressedSource(bytes, limits, 'gzip', slice);
  if (isZip(bytes)) return compressedSource(bytes, limits, 'zip', slice);
  return plainSource(bytes, limits);
}

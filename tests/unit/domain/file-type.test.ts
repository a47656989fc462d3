import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedFileType,
  FILE_PURPOSE_TYPES,
  FILE_SIGNATURE_BYTES,
  type SniffedType,
  sniffFileType,
} from '../../../domain/file-type';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v])));

// The first bytes real files of each kind start with (a RIFF or MP4 box length is any value).
const SAMPLES: ReadonlyArray<readonly [string, Uint8Array, SniffedType]> = [
  ['a PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
  ['a JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF'), 'image/jpeg'],
  ['a PNG', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR'), 'image/png'],
  ['a GIF87a', bytes('GIF87a', 1, 0), 'image/gif'],
  ['a GIF89a', bytes('GIF89a', 1, 0), 'image/gif'],
  ['a WebP', bytes('RIFF', 0x24, 0x10, 0, 0, 'WEBPVP8 '), 'image/webp'],
  ['a WAV', bytes('RIFF', 0x24, 0x08, 0, 0, 'WAVEfmt '), 'audio/wav'],
  ['an OGG/Opus recording', bytes('OggS', 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 'OpusHead'), 'audio/ogg'],
  ['an MP3 with an ID3 tag', bytes('ID3', 4, 0, 0, 0, 0, 0, 0), 'audio/mpeg'],
  ['an MP3 starting with a frame', bytes(0xff, 0xfb, 0x90, 0x64), 'audio/mpeg'],
  ['an MPEG-2 Layer III frame', bytes(0xff, 0xf3, 0x48, 0xc4), 'audio/mpeg'],
  ['an M4A', bytes(0, 0, 0, 0x20, 'ftypM4A ', 0, 0, 0, 0), 'audio/mp4'],
  ['an MP4 audio (isom)', bytes(0, 0, 0, 0x1c, 'ftypisom', 0, 0, 2, 0), 'audio/mp4'],
  ['a WebM recording', bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1), 'audio/webm'],
];

describe('sniffing a stored file from its first bytes (issue 28)', () => {
  it.each(SAMPLES)('knows %s', (_, head, type) => {
    expect(sniffFileType(head)).toBe(type);
  });

  it('answers the same whatever follows the signature', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SAMPLES),
        fc.uint8Array({ maxLength: 64 }),
        ([, head, type], rest) => sniffFileType(new Uint8Array([...head, ...rest])) === type,
      ),
    );
  });

  it('needs no more first bytes than FILE_SIGNATURE_BYTES', () => {
    for (const [, head, type] of SAMPLES)
      expect(sniffFileType(head.subarray(0, FILE_SIGNATURE_BYTES))).toBe(type);
  });

  it.each([
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
    ['JavaScript', bytes('fetch("/v2/user/logout")')],
    ['SVG (an image that runs scripts)', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['a PDF header after junk', bytes(' %PDF-1.4')],
    ['a RIFF of another kind (AVI)', bytes('RIFF', 0, 0, 0, 0, 'AVI LIST')],
    ['an MP4 of a brand recorders do not write', bytes(0, 0, 0, 0x20, 'ftypqt  ')],
    ['a truncated PNG signature', bytes(0x89, 'PNG')],
    ['an empty file', bytes()],
  ])('knows %s as nothing', (_, head) => {
    expect(sniffFileType(head)).toBeNull();
  });

  it('allows each purpose its own types only: attachments documents, voice audio', () => {
    for (const [, head, type] of SAMPLES) {
      const audio = type.startsWith('audio/');
      expect(allowedFileType(head, 'voice')).toBe(audio ? type : null);
      expect(allowedFileType(head, 'attachment')).toBe(audio ? null : type);
    }
    expect([...FILE_PURPOSE_TYPES.attachment, ...FILE_PURPOSE_TYPES.voice].sort()).toEqual(
      [...new Set(SAMPLES.map(([, , type]) => type))].sort(),
    );
  });
});

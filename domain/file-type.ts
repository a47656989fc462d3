// What a stored file really is, known by its first bytes (issue 28). The name and the Content-Type an
// uploader sends are claims; a file served from the console's own origin under a claimed `text/html`
// would run there. So every upload is sniffed, and only the types its purpose allows are kept.

export const DOCUMENT_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
] as const;
export const AUDIO_TYPES = ['audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/mp4', 'audio/webm'] as const;

export type SniffedType = (typeof DOCUMENT_TYPES)[number] | (typeof AUDIO_TYPES)[number];

/** What a file is stored for, and the types each purpose may hold (and be served back as). */
export const FILE_PURPOSE_TYPES = {
  /** Case attachments, college cards, avatars: documents and pictures. */
  attachment: DOCUMENT_TYPES,
  /** A VOICE message's recording, played inline by the console. */
  voice: AUDIO_TYPES,
} as const satisfies Record<string, readonly SniffedType[]>;

export type FilePurpose = keyof typeof FILE_PURPOSE_TYPES;
export const FILE_PURPOSES = Object.keys(FILE_PURPOSE_TYPES) as [FilePurpose, ...FilePurpose[]];

/** A byte pattern at an offset; `null` matches any byte (a RIFF chunk's length, an MP4 box's size). */
type Pattern = readonly [offset: number, bytes: readonly (number | null)[]];

const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

// The MP4 brands an audio recorder writes (an .m4a from a phone, a browser's MediaRecorder).
const MP4_AUDIO_BRANDS = ['M4A ', 'M4B ', 'mp41', 'mp42', 'isom', 'iso2', 'iso5', 'dash'];

const SIGNATURES: ReadonlyArray<readonly [SniffedType, readonly Pattern[]]> = [
  // "%PDF-": readers tolerate junk before it, we do not: a PDF starts with its header.
  ['application/pdf', [[0, ascii('%PDF-')]]],
  // SOI marker followed by the first segment's marker prefix.
  ['image/jpeg', [[0, [0xff, 0xd8, 0xff]]]],
  ['image/png', [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]]],
  ['image/gif', [[0, ascii('GIF87a')]]],
  ['image/gif', [[0, ascii('GIF89a')]]],
  [
    'image/webp',
    [
      [0, ascii('RIFF')],
      [8, ascii('WEBP')],
    ],
  ],
  [
    'audio/wav',
    [
      [0, ascii('RIFF')],
      [8, ascii('WAVE')],
    ],
  ],
  ['audio/ogg', [[0, ascii('OggS')]]],
  // An ID3v2 tag, or straight into an MPEG-1/2 Layer III frame (sync bits, layer bits 01).
  ['audio/mpeg', [[0, ascii('ID3')]]],
  ...[0xfb, 0xfa, 0xf3, 0xf2, 0xe3, 0xe2].map((second) => ['audio/mpeg', [[0, [0xff, second]]]] as const),
  ...MP4_AUDIO_BRANDS.map((brand) => ['audio/mp4', [[4, [...ascii('ftyp'), ...ascii(brand)]]]] as const),
  // The EBML header every Matroska/WebM file starts with (a recording's DocType is "webm").
  ['audio/webm', [[0, [0x1a, 0x45, 0xdf, 0xa3]]]],
];

/** How many first bytes sniffFileType needs: the furthest byte any signature looks at. */
export const FILE_SIGNATURE_BYTES = Math.max(
  ...SIGNATURES.flatMap(([, patterns]) => patterns.map(([offset, bytes]) => offset + bytes.length)),
);

const matches = (head: Uint8Array, [offset, bytes]: Pattern) =>
  head.length >= offset + bytes.length &&
  bytes.every((byte, index) => byte === null || head[offset + index] === byte);

/** The type the bytes really are, or null when they are none of the known ones. */
export function sniffFileType(head: Uint8Array): SniffedType | null {
  for (const [type, patterns] of SIGNATURES)
    if (patterns.every((pattern) => matches(head, pattern))) return type;
  return null;
}

/** The sniffed type when `purpose` may hold it, else null. */
export function allowedFileType(head: Uint8Array, purpose: FilePurpose): SniffedType | null {
  const type = sniffFileType(head);
  const allowed: readonly string[] = FILE_PURPOSE_TYPES[purpose];
  return type !== null && allowed.includes(type) ? type : null;
}

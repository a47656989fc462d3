import type { Queryable } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { patternPng, simplePdf, sineWav } from './media';
import type { Rng } from './random';

export interface VoiceFile {
  id: string;
  durationMs: number;
}

export interface FilePools {
  voices: VoiceFile[];
  attachments: string[];
  collegeCards: { front: string; back: string }[];
  invoices: string[];
}

// Pools, not one file per row: a 1,000,000-user seed must not write a million files. Each pool item is
// distinct content (content-addressed storage would fold identical bytes into one row anyway).
const VOICES = 12;
const ATTACHMENTS = 10;
const CARDS = 4;
const INVOICES = 6;

export async function createFilePools(db: Queryable, storage: FileStorage, rng: Rng): Promise<FilePools> {
  const save = (content: Buffer, originalName: string, contentType: string) =>
    storeFile(db, storage, { id: rng.uuid(), content, originalName, contentType });

  const voices: VoiceFile[] = [];
  for (let i = 0; i < VOICES; i++) {
    const durationMs = 1500 + i * 250;
    const id = await save(sineWav(330 + i * 55, durationMs), `mensagem-de-voz-${i + 1}.wav`, 'audio/wav');
    voices.push({ id, durationMs });
  }
  const attachments: string[] = [];
  for (let i = 0; i < ATTACHMENTS; i++) {
    attachments.push(
      i % 2 === 0
        ? await save(
            simplePdf([`Relatorio clinico n.o ${i + 1}`, 'Documento de demonstracao gerado pelo seed.']),
            `relatorio-${i + 1}.pdf`,
            'application/pdf',
          )
        : await save(
            patternPng(96, 64, [40 + i * 20, 120, 200], [250, 250, 250]),
            `fotografia-${i + 1}.png`,
            'image/png',
          ),
    );
  }
  const collegeCards: { front: string; back: string }[] = [];
  for (let i = 0; i < CARDS; i++) {
    const front = await save(
      patternPng(160, 100, [0, 90 + i * 30, 140], [230, 240, 250]),
      `cedula-frente-${i + 1}.png`,
      'image/png',
    );
    const back = await save(
      patternPng(160, 100, [140, 90 + i * 30, 0], [250, 240, 230]),
      `cedula-verso-${i + 1}.png`,
      'image/png',
    );
    collegeCards.push({ front, back });
  }
  const invoices: string[] = [];
  for (let i = 0; i < INVOICES; i++) {
    invoices.push(
      await save(
        simplePdf([`Fatura-recibo FR 2026/${1000 + i}`, 'Servicos de consulta online']),
        `fatura-${1000 + i}.pdf`,
        'application/pdf',
      ),
    );
  }
  return { voices, attachments, collegeCards, invoices };
}

import { describe, expect, it } from 'vitest';
import { invoiceFileName, sniffInvoiceType } from '../../../domain/invoice-file';
import {
  CONFIRMABLE_SETTLEMENT_STATUSES,
  canAdjustSettlement,
  refundedSettlementStatus,
  SETTLEMENT_STATUSES,
} from '../../../domain/settlement-status';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v])));

describe('settlement management rules (DESIGN.md §6)', () => {
  it('confirms READY_TO_SETTLE and AVAILABLE only', () => {
    expect([...CONFIRMABLE_SETTLEMENT_STATUSES]).toEqual(['READY_TO_SETTLE', 'AVAILABLE']);
  });

  it('refunds before payout to REFUNDED, after payout to REFUNDED_PAID, never from PENDING_TRANSFER', () => {
    expect(Object.fromEntries(SETTLEMENT_STATUSES.map((s) => [s, refundedSettlementStatus(s)]))).toEqual({
      READY_TO_SETTLE: 'REFUNDED',
      AVAILABLE: 'REFUNDED',
      SETTLED: 'REFUNDED',
      PENDING_TRANSFER: null,
      PAID: 'REFUNDED_PAID',
      REFUNDED: null,
      REFUNDED_PAID: null,
    });
  });

  it('adjusts before PENDING_TRANSFER only', () => {
    expect(SETTLEMENT_STATUSES.filter(canAdjustSettlement)).toEqual([
      'READY_TO_SETTLE',
      'AVAILABLE',
      'SETTLED',
    ]);
  });
});

describe('invoice type from the bytes', () => {
  it.each([
    ['a PDF', bytes('%PDF-1.7\n%âãÏÓ'), 'application/pdf'],
    ['a JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 'JFIF'), 'image/jpeg'],
    ['a PNG', bytes(0x89, 'PNG\r\n', 0x1a, '\n', 0, 0, 0, 13, 'IHDR'), 'image/png'],
  ] as const)('recognises %s', (_, content, type) => {
    expect(sniffInvoiceType(content)).toBe(type);
  });

  it.each([
    ['text that says it is a PDF', bytes('this is not %PDF-1.4')],
    ['an empty file', bytes()],
    ['a truncated PNG signature', bytes(0x89, 'PNG')],
    ['a GIF', bytes('GIF89a')],
    ['HTML', bytes('<html><script>alert(1)</script>')],
    ['a PDF header after junk', bytes(' %PDF-1.4')],
  ])('refuses %s', (_, content) => {
    expect(sniffInvoiceType(content)).toBeNull();
  });

  it('names the download after what the file is', () => {
    expect(invoiceFileName('fatura março.png', 'application/pdf')).toBe('fatura março.pdf');
    expect(invoiceFileName('scan.JPEG', 'image/jpeg')).toBe('scan.jpg');
    expect(invoiceFileName('../../etc/passwd', 'image/png')).toBe('passwd.png');
    expect(invoiceFileName('a\u0000b\r\n.pdf', 'application/pdf')).toBe('ab.pdf');
    expect(invoiceFileName('.pdf', 'application/pdf')).toBe('invoice.pdf');
    expect(invoiceFileName('report.v2', 'image/png')).toBe('report.v2.png');
  });
});

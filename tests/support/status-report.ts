/** One transfer of our pain.001 as the bank's answer names it. */
export interface AnsweredTransfer {
  endToEndId: string;
  /** An ISO 20022 reason code (e.g. AC04) when the bank rejected it; accepted (ACCP) otherwise. */
  rejectedFor?: string;
}

/**
 * The bank's pain.002.001.03 answering one of our files, transfer by transfer: partially accepted
 * (PART) when some are rejected, accepted (ACCP) when none is. Shaped like the bank samples in
 * `/work/shared/fixtures/banking/samples/status-reports/` and `tests/fixtures/status-reports/`.
 */
export function statusReportFor(
  file: { msgId: string; paymentInfoId: string },
  transfers: readonly AnsweredTransfer[],
  reportId = `BANK-STS-${file.msgId}`.slice(0, 35),
): string {
  const status = transfers.some((t) => t.rejectedFor) ? 'PART' : 'ACCP';
  const transfer = (t: AnsweredTransfer, i: number) =>
    `      <TxInfAndSts>
        <StsId>STS-${i + 1}</StsId>
        <OrgnlEndToEndId>${t.endToEndId}</OrgnlEndToEndId>
        <TxSts>${t.rejectedFor ? 'RJCT' : 'ACCP'}</TxSts>${
          t.rejectedFor ? `\n        <StsRsnInf><Rsn><Cd>${t.rejectedFor}</Cd></Rsn></StsRsnInf>` : ''
        }
      </TxInfAndSts>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">
  <CstmrPmtStsRpt>
    <GrpHdr>
      <MsgId>${reportId}</MsgId>
      <CreDtTm>2026-05-05T10:12:00+01:00</CreDtTm>
    </GrpHdr>
    <OrgnlGrpInfAndSts>
      <OrgnlMsgId>${file.msgId}</OrgnlMsgId>
      <OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId>
      <OrgnlNbOfTxs>${transfers.length}</OrgnlNbOfTxs>
      <GrpSts>${status}</GrpSts>
    </OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>${file.paymentInfoId}</OrgnlPmtInfId>
      <PmtInfSts>${status}</PmtInfSts>
${transfers.map(transfer).join('\n')}
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>
`;
}

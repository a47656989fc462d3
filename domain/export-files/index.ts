// File writers for exports and settlement reports: pure generators of bytes (docs/decisions/0059).
export {
  BOOLEAN_WORDS,
  type ColumnKind,
  type ExportColumn,
  type ExportLocale,
  type ExportRow,
  type ExportRows,
  ExportValueError,
} from './columns';
export { type CopiedCsv, CopyCsvReader } from './copy-csv';
export { type CopiedRows, CopyRowsReader } from './copy-rows';
export { CSV_DIALECT, CSV_MEDIA_TYPE, type CsvOptions, csvChunks, csvField } from './csv';
export { csvPhoneText, isFormulaLike, neutralise, PHONE_PATTERN, PHONE_PATTERN_SQL } from './neutralise';
export {
  columnLetters,
  SHEET_PART,
  SHEET_TAIL,
  safeSheetName,
  sheetHead,
  XLSX_MAX_ROWS,
  XLSX_MEDIA_TYPE,
  XLSX_STYLE,
  XlsxLimitError,
  type XlsxOptions,
  xlsxCellText,
  xlsxChunks,
  xlsxPackageParts,
} from './xlsx';

export interface Column<Row> {
  title: string;
  value: (row: Row) => string;
  /** Numbers line up on the right. */
  align?: 'left' | 'right';
}

/** A plain-text table for a terminal: a header line, then one line per row, columns padded to fit. */
export function formatTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, i) =>
    Math.max(column.title.length, ...cells.map((line) => line[i]!.length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) =>
        columns[i]!.align === 'right' ? value.padStart(widths[i]!) : value.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...cells.map(line)].join('\n');
}

import { stripAnsi } from "../io/colors.js";

export interface Column {
	header: string;
	/** Right-align (numbers). */
	right?: boolean;
	/** Cut cells longer than this (with an ellipsis). */
	max?: number;
}

/** A plain-text table: a header row and rows, columns padded to their widest cell. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
	const cells = rows.map((row) => columns.map((column, i) => clipCell(row[i] ?? "", column.max)));
	const widths = columns.map((column, i) =>
		Math.max(column.header.length, ...cells.map((row) => visibleLength(row[i] ?? ""))),
	);
	const format = (row: readonly string[]) =>
		columns
			.map((column, i) => pad(row[i] ?? "", widths[i] ?? 0, column.right === true, i === columns.length - 1))
			.join("  ");
	return [format(columns.map((column) => column.header)), ...cells.map((row) => format(row))];
}

function pad(text: string, width: number, right: boolean, last: boolean): string {
	const gap = " ".repeat(Math.max(0, width - visibleLength(text)));
	if (right) return gap + text;
	return last ? text : text + gap;
}

function visibleLength(text: string): number {
	return [...stripAnsi(text)].length;
}

function clipCell(text: string, max: number | undefined): string {
	const oneLine = text.replace(/\s+/g, " ");
	if (max === undefined) return oneLine;
	const chars = [...oneLine];
	return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : oneLine;
}

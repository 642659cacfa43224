import type { VerifyProblem, VerifyReport } from "@agent/session-format/reading";
import type { Paint } from "../io/colors.js";
import { formatBytes, formatCount } from "./format.js";

/** A verify report: one line for the session, then one per problem with its line and byte offset. */
export function renderVerifyReport(report: VerifyReport & { fixed?: VerifyProblem[] }, paint: Paint): string[] {
	const size = `${formatCount(report.records)} records, ${formatBytes(report.bytes)}`;
	const acknowledged = report.acknowledged ? `, ${report.acknowledged} damaged line(s) acknowledged` : "";
	const repaired = report.repaired ? paint("yellow", ` (metadata rebuilt${acknowledged})`) : "";
	const fixed = (report.fixed ?? []).map(
		(problem) => `      ${paint("green", "fixed")} ${problemLocation(problem)}${problem.kind}: ${problem.message}`,
	);
	const left = report.problems.map((problem) =>
		problem.acknowledged
			? `      ${problemLocation(problem)}${paint("gray", `${problem.kind} (acknowledged)`)}: ${problem.message}`
			: `      ${problemLocation(problem)}${paint("yellow", problem.kind)}: ${problem.message}`,
	);
	if (report.ok) return [`${paint("green", "ok")}    ${report.sessionId}  ${size}${repaired}`, ...fixed, ...left];
	return [
		`${paint("red", "FAIL")}  ${report.sessionId}  ${size}, ${report.problems.length} problem(s)${repaired}`,
		...fixed,
		...left,
	];
}

function problemLocation(problem: VerifyProblem): string {
	const parts: string[] = [];
	if (problem.line !== undefined) parts.push(`line ${problem.line}`);
	if (problem.byteOffset !== undefined) parts.push(`byte ${problem.byteOffset}`);
	if (problem.seq !== undefined) parts.push(`seq ${problem.seq}`);
	return parts.length > 0 ? `${parts.join(", ")}: ` : "";
}

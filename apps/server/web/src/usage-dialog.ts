import type { Api, UsageStats } from "./api.js";
import { byId, h, replaceChildren } from "./dom.js";
import { compactNumber, formatCost } from "./format.js";

/**
 * The Usage dialog: tokens and cost per user (every user's for an admin, the caller's own
 * otherwise), the totals, and the caller's spend today against their daily cap when they have one.
 */
export class UsageDialog {
	private readonly dialog = byId<HTMLDialogElement>("usage-dialog");
	private readonly body = byId("usage-body");

	constructor(private readonly api: Api) {
		byId<HTMLButtonElement>("usage").addEventListener("click", () => void this.open());
	}

	async open(): Promise<void> {
		replaceChildren(this.body, h("p", { class: "hint" }, "Loading…"));
		if (!this.dialog.open) this.dialog.showModal();
		try {
			this.render(await this.api.stats());
		} catch (error) {
			replaceChildren(this.body, h("p", { class: "hint", role: "alert" }, (error as Error).message));
		}
	}

	private render(stats: UsageStats): void {
		const users = Object.entries(stats.byUser);
		const row = (name: string, entry: { sessions: number; turns: number; totalTokens: number; cost: number }) =>
			h(
				"tr",
				null,
				h("th", { scope: "row" }, name),
				h("td", null, compactNumber(entry.sessions)),
				h("td", null, compactNumber(entry.turns)),
				h("td", null, compactNumber(entry.totalTokens)),
				h("td", null, formatCost(entry.cost) || "$0"),
			);
		const { user } = stats;
		replaceChildren(
			this.body,
			user.dailySpendLimit !== undefined
				? h(
						"p",
						{ "data-testid": "usage-today" },
						`Today (UTC) you spent ${formatCost(user.spentToday) || "$0"} of your $${user.dailySpendLimit} daily limit.`,
					)
				: null,
			h(
				"table",
				{ class: "usage-table", "data-testid": "usage-table" },
				h(
					"thead",
					null,
					h(
						"tr",
						null,
						h("th", { scope: "col" }, "User"),
						h("th", { scope: "col" }, "Sessions"),
						h("th", { scope: "col" }, "Turns"),
						h("th", { scope: "col" }, "Tokens"),
						h("th", { scope: "col" }, "Cost"),
					),
				),
				h(
					"tbody",
					null,
					...users.map(([name, entry]) => row(name, entry)),
					users.length === 0 ? h("tr", null, h("td", { class: "hint" }, "No sessions of a user yet.")) : null,
				),
				h("tfoot", null, row("All", { ...stats.totals, sessions: stats.sessions })),
			),
			h(
				"p",
				{ class: "hint" },
				user.admin
					? "Sessions created without a user (the CLI, scheduled jobs) count in All only."
					: `Your sessions, as ${user.name ?? "you"}.`,
			),
		);
	}
}

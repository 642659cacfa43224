import { modelLabel } from "@agent/session-format/reading";
import type { ModelList } from "./api.js";
import { byId, h, replaceChildren } from "./dom.js";

/** A touch screen without a keyboard's Shift: Enter adds a line there, and the Send button sends. */
function touchFirst(): boolean {
	return window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(any-pointer: fine)").matches;
}

/**
 * The message box: Enter sends and Shift+Enter adds a line (on a touch screen, Enter adds a line
 * and Send sends); the model picker (per session, and so per send: a send carries the picked model
 * when it differs from the session's); and the "editing an earlier message" banner.
 */
export class Composer {
	readonly message = byId<HTMLTextAreaElement>("message");
	readonly picker = byId<HTMLSelectElement>("model-picker");
	private readonly banner = byId("edit-banner");
	private readonly bannerText = byId("edit-text");
	private models: ModelList | undefined;
	/** What the picker shows when nothing was picked: the session's model (or the default for a new one). */
	private sessionModel = "";
	/** An earlier user message being edited: the new text goes on a branch from `parentSeq` (null: its own session). */
	editing: { seq: number; parentSeq: number | null } | undefined;

	constructor(onSend: () => void) {
		byId<HTMLFormElement>("composer").addEventListener("submit", (event) => {
			event.preventDefault();
			onSend();
		});
		const touch = touchFirst();
		if (touch) this.message.placeholder = "Write a message. Send sends; Enter adds a line.";
		this.message.addEventListener("keydown", (event) => {
			if (event.key === "Enter" && !event.shiftKey && !event.isComposing && !touch) {
				event.preventDefault();
				onSend();
			}
			if (event.key === "Escape" && this.editing) {
				// Handled: this Esc cancels the edit, not a running reply.
				event.preventDefault();
				this.cancelEdit();
			}
		});
		byId("edit-cancel").addEventListener("click", () => this.cancelEdit());
	}

	/** The turns queued or running: the Stop button, and the line under it. */
	showTurns(count: number): void {
		byId("queue-state").textContent = count === 0 ? "" : count === 1 ? "working…" : `${count} turns queued`;
		byId("stop").hidden = count === 0;
	}

	/** Puts the focus in the message box; on a touch screen only when asked (`always`), so no keyboard pops up unasked. */
	focus(always = false): void {
		if (always || !touchFirst()) this.message.focus({ preventScroll: true });
	}

	setModels(models: ModelList): void {
		this.models = models;
		this.fillPicker();
	}

	/** Shows a session's model (or, for a new session, the server's default). */
	showModel(model: string): void {
		this.sessionModel = modelLabel(model);
		this.fillPicker(this.sessionModel);
	}

	/** The picked model when it differs from the session's, for the send to carry. */
	modelForSend(): string | undefined {
		const picked = this.picker.value;
		return picked && picked !== this.sessionModel ? picked : undefined;
	}

	picked(): string {
		return this.picker.value || this.sessionModel;
	}

	startEdit(seq: number, parentSeq: number | null, text: string): void {
		this.editing = { seq, parentSeq };
		this.bannerText.textContent =
			parentSeq === null
				? `Editing the first message (#${seq}): sending starts a new session with the new text.`
				: `Editing #${seq}: the new text goes on a new branch from #${parentSeq}; the old one stays.`;
		this.banner.hidden = false;
		this.message.value = text;
		this.message.focus();
	}

	cancelEdit(): void {
		this.editing = undefined;
		this.banner.hidden = true;
	}

	private fillPicker(current = this.picker.value || this.sessionModel): void {
		const models = this.models?.models ?? [];
		const options: HTMLElement[] = [];
		const byProvider = new Map<string, HTMLOptionElement[]>();
		for (const model of models) {
			const option = h("option", { value: model.name }, model.name === "demo" ? model.label : model.name);
			const group = byProvider.get(model.provider);
			if (group) group.push(option);
			else byProvider.set(model.provider, [option]);
		}
		for (const [provider, group] of byProvider) {
			const optgroup = document.createElement("optgroup");
			optgroup.label = provider;
			optgroup.append(...group);
			options.push(optgroup);
		}
		if (this.sessionModel && !models.some((model) => model.name === this.sessionModel)) {
			options.unshift(h("option", { value: this.sessionModel }, `${this.sessionModel} (no API key on the server)`));
		}
		const unconfigured = this.models?.unconfigured ?? [];
		if (unconfigured.length > 0) {
			const optgroup = document.createElement("optgroup");
			optgroup.label = "no API key on the server";
			optgroup.append(...unconfigured.map((provider) => h("option", { value: "", disabled: true }, provider)));
			options.push(optgroup);
		}
		replaceChildren(this.picker, ...options);
		this.picker.value = current;
		if (this.picker.value !== current) this.picker.value = this.sessionModel;
	}
}

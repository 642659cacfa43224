/** A tiny element builder: text is always set as text (never parsed as HTML). */
export type Child = Node | string | number | null | undefined | false;

export type Props = {
	class?: string;
	title?: string;
	hidden?: boolean;
	open?: boolean;
	disabled?: boolean;
	type?: string;
	value?: string;
	onclick?: (event: MouseEvent) => void;
	tabindex?: string;
	href?: string;
	datetime?: string;
	role?: string;
	placeholder?: string;
	name?: string;
	min?: string;
	for?: string;
	alt?: string;
	scope?: string;
	[attribute: `data-${string}`]: string | number | undefined;
	[attribute: `aria-${string}`]: string | undefined;
};

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props | null = null,
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	if (props) {
		for (const [key, value] of Object.entries(props)) {
			if (value === undefined || value === false) continue;
			if (key === "class") element.className = String(value);
			else if (key === "onclick") element.addEventListener("click", value as (event: Event) => void);
			else if (key === "hidden" || key === "open" || key === "disabled") element.toggleAttribute(key, Boolean(value));
			else if (key === "value") (element as HTMLInputElement).value = String(value);
			else element.setAttribute(key, String(value));
		}
	}
	append(element, children);
	return element;
}

export function append(parent: Node, children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue;
		parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
	}
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
	parent.replaceChildren();
	append(parent, children);
}

/** The element with `id`, or an error naming it (the page's HTML and script are built together). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
	const element = document.getElementById(id);
	if (!element) throw new Error(`the page has no #${id}`);
	return element as T;
}

/**
 * Marks a button as unable to act now, saying why: the reason is its tooltip, screen readers hear
 * it as unavailable (aria-disabled, so it stays focusable and can tell), and pressing it shows the
 * reason instead of acting (the session header does that). Without a reason it acts again, with
 * its own tooltip back.
 */
export function setAvailable(button: HTMLButtonElement, reason: string | undefined, title?: string): void {
	button.dataset.title ??= button.title;
	if (title !== undefined) button.dataset.title = title;
	if (reason === undefined) {
		button.removeAttribute("aria-disabled");
		delete button.dataset.reason;
		button.title = button.dataset.title;
		return;
	}
	button.setAttribute("aria-disabled", "true");
	button.dataset.reason = reason;
	button.title = reason;
}

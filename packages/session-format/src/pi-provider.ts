/**
 * pi-ai keeps its providers in a registry inside its own module. A model registered with one copy
 * of pi-ai (the app's, say a faux or custom provider) is unknown to another copy: with two versions
 * installed, a package that loads the other copy gets "No API provider registered for api: …".
 * That text says nothing of the cause, so the packages that call pi-ai explain it.
 */
const NO_PROVIDER = /No API provider registered for api: (\S+)/;

/**
 * For pi-ai's "No API provider registered" error: what happened and how to fix it (undefined for
 * any other error). `caller` names the package that called pi-ai; `alternative` adds a way out
 * the caller offers (e.g. passing the app's own `complete`).
 */
export function explainMissingProvider(message: string, caller: string, alternative?: string): string | undefined {
	const api = NO_PROVIDER.exec(message)?.[1];
	if (api === undefined) return undefined;
	return (
		`pi-ai has no provider for the model's api ${JSON.stringify(api)} in the copy of @mariozechner/pi-ai that ${caller} loads. ` +
		"The model was most likely registered with another copy: two versions of @mariozechner/pi-ai are installed " +
		"(`npm ls @mariozechner/pi-ai` lists them). It is a peer dependency: install the one version your app uses and let every package share it" +
		(alternative ? `, or ${alternative}` : "") +
		`. (pi-ai said: ${message})`
	);
}

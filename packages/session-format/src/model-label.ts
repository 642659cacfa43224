/** The offline demo model as sessions record it: provider "demo", model "demo". */
const DEMO_RECORDED = "demo/demo";

/**
 * A model as people name it in a listing, a header or a picker: "demo" for the offline demo
 * model (recorded as "demo/demo"), any other as recorded ("" stays "": the caller words "none").
 */
export function modelLabel(model: string): string {
	return model === DEMO_RECORDED ? "demo" : model;
}

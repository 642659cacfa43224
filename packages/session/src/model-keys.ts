import { AgentSessionError } from "@agent/session-format/reading";

/**
 * Where pi-ai looks for each provider's API key (its env-api-keys.js), for the error that names
 * the variable to set. pi-ai does not export the table; a provider missing here is named with
 * the usual spelling and pi-ai's documentation.
 */
const KEY_VARIABLES: Readonly<Record<string, string>> = {
	anthropic: "ANTHROPIC_API_KEY",
	openai: "OPENAI_API_KEY",
	"azure-openai-responses": "AZURE_OPENAI_API_KEY",
	google: "GEMINI_API_KEY",
	"google-vertex": "GOOGLE_CLOUD_API_KEY",
	"amazon-bedrock": "AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)",
	"github-copilot": "COPILOT_GITHUB_TOKEN",
	deepseek: "DEEPSEEK_API_KEY",
	groq: "GROQ_API_KEY",
	cerebras: "CEREBRAS_API_KEY",
	xai: "XAI_API_KEY",
	openrouter: "OPENROUTER_API_KEY",
	"vercel-ai-gateway": "AI_GATEWAY_API_KEY",
	mistral: "MISTRAL_API_KEY",
	huggingface: "HF_TOKEN",
	fireworks: "FIREWORKS_API_KEY",
};

/** The environment variable that holds a provider's API key, as pi-ai reads it. */
export function keyVariableOf(provider: string): string {
	return KEY_VARIABLES[provider] ?? `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/**
 * MODEL_NOT_CONFIGURED for a model of pi-ai's registry with no API key in the environment: it
 * could only fail, and a reply stored with an authentication error helps nobody.
 */
export function missingKeyError(modelName: string, provider: string): AgentSessionError {
	return new AgentSessionError(
		"MODEL_NOT_CONFIGURED",
		`@agent/session: model ${modelName} needs an API key for ${provider}, and there is none in the environment; ` +
			`set ${keyVariableOf(provider)} (or choose the offline "demo" model). Nothing was written`,
	);
}

import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import initializer from "./file-store.js";

validate(initializer);
// Opt-in in the suite (a Beta method); it passes, so it runs.
deltaChannelHistoryTests(initializer);

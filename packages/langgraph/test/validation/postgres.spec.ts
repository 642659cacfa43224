import { deltaChannelHistoryTests, validate } from "@langchain/langgraph-checkpoint-validation";
import initializer from "./postgres.js";

validate(initializer);
deltaChannelHistoryTests(initializer);

export { StoreCheckpointer, type StoreCheckpointerOptions } from "./checkpointer.js";

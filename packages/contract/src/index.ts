// The OpenAPI generator lives at "@petstore/contract/openapi" so that browser
// bundles importing the contract do not pull in the generator.
export * from "./schemas.js";
export { ErrorBody as Error } from "./schemas.js";
export * from "./petstore-contract.js";
export * from "./access-schemas.js";
export * from "./root.js";
export * from "./operations.js";
export * from "./session-contract.js";
export * from "./keys-contract.js";
export * from "./activity-contract.js";
export * from "./webhooks-contract.js";
export * from "./staff-contract.js";
export * from "./account-contract.js";
export * from "./passkeys-contract.js";
export * from "./single-sign-on-contract.js";
export * from "./webhook-schemas.js";
export * from "./operation-scopes.js";
export * from "./route-metadata.js";
export * from "./staff-schemas.js";
export * from "./pinned-parsers.js";
export * from "./pet-patch.js";
export * from "./pet-changes-contract.js";
export * from "./store-schemas.js";
export * from "./store-contract.js";
export * from "./event-schemas.js";
export * from "./events-contract.js";

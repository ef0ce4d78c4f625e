// The OpenAPI generator lives at "@petstore/contract/openapi" so that browser
// bundles importing the contract do not pull in the generator.
export * from "./schemas.js";
export { ErrorBody as Error } from "./schemas.js";
export * from "./petstore-contract.js";
export * from "./access-schemas.js";
export * from "./access-contract.js";
export * from "./webhook-schemas.js";
export * from "./operation-scopes.js";
export * from "./route-metadata.js";
export * from "./staff-schemas.js";
export * from "./pinned-parsers.js";

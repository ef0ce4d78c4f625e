import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi.js";

// What a client developer outside TypeScript's contract gets: types generated from the
// served document by openapi-typescript. They must carry the spec's names and agree with
// the contract's own types, checked by the compiler rather than by reading generated text.
const schemasModule = path.join(path.dirname(fileURLToPath(import.meta.url)), "schemas.js");
const scratch = mkdtempSync(path.join(tmpdir(), "petstore-openapi-typescript-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const document = buildOpenApiDocument([{ url: "https://api.example-store.com/v1", description: "production" }]);

/** Compiles `files` (name -> source) in `scratch` strictly; returns each diagnostic as a line. */
function compile(files: Record<string, string>): string[] {
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(scratch, name), source);
  const program = ts.createProgram(
    Object.keys(files).map((name) => path.join(scratch, name)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    },
  );
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const { file, start } = diagnostic;
    const line = file && start !== undefined ? file.getLineAndCharacterOfPosition(start).line + 1 : 0;
    const where = file
      ? `${path.basename(file.fileName)}:${line} ${file.text.split("\n")[line - 1]?.trim() ?? ""}: `
      : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}

const CHECKS = `
import type { components, operations } from "./petstore-openapi.js";
import type { NewPet, Pet, PetStatus } from ${JSON.stringify(schemasModule)};

type Schemas = components["schemas"];
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
type Assert<T extends true> = T;

// The spec's five names exist.
export type Names = [Schemas["PetStatus"], Schemas["NewPet"], Schemas["Pet"], Schemas["Pets"], Schemas["Error"]];

// Pet: the same fields, the same required ones, the same status enum as the contract's Pet.
export type PetFields = Assert<Same<keyof Schemas["Pet"], keyof Pet>>;
export type PetRequired = Assert<Same<RequiredKeys<Schemas["Pet"]>, RequiredKeys<Pet>>>;
export type PetRequiredAreTheSpecs = Assert<Same<RequiredKeys<Schemas["Pet"]>, "id" | "name" | "categoryId">>;
export type PetStatusEnum = Assert<Same<NonNullable<Schemas["Pet"]["status"]>, PetStatus>>;
export type StatusIsNamed = Assert<Same<Schemas["PetStatus"], PetStatus>>;
export type PetAssignable = [Assert<Pet extends Schemas["Pet"] ? true : false>, Assert<Schemas["Pet"] extends Pet ? true : false>];

// NewPet likewise; Pets is an array of Pet.
export type NewPetRequired = Assert<Same<RequiredKeys<Schemas["NewPet"]>, RequiredKeys<NewPet>>>;
export type PetsOfPet = Assert<Same<Schemas["Pets"], Schemas["Pet"][]>>;

// The operations keep the spec's operationIds, and their bodies are the named schemas.
export type CreateBody = Assert<Same<operations["createPet"]["requestBody"]["content"]["application/json"], Schemas["NewPet"]>>;
export type Created = Assert<Same<operations["createPet"]["responses"][201]["content"]["application/json"], Schemas["Pet"]>>;
export type Listed = Assert<Same<operations["listPets"]["responses"][200]["content"]["application/json"], Schemas["Pets"]>>;
export type NotFound = Assert<Same<operations["getPet"]["responses"][404]["content"]["application/json"], Schemas["Error"]>>;
`;

describe("types generated from the OpenAPI document by openapi-typescript", () => {
  it(
    "name Pet and the other resources, and match the contract's Pet: required fields and status enum",
    { timeout: 60_000 },
    async () => {
      const generated = astToString(await openapiTS(document as never));
      const diagnostics = compile({ "petstore-openapi.ts": generated, "checks.ts": CHECKS });
      expect(diagnostics).toEqual([]);
    },
  );

  it("would catch a Pet that drifted from the contract", { timeout: 60_000 }, async () => {
    const drifted = structuredClone(document) as unknown as {
      components: { schemas: { Pet: { required: string[] } } };
    };
    drifted.components.schemas.Pet.required = ["id", "name"];
    const generated = astToString(await openapiTS(drifted as never));
    const diagnostics = compile({ "petstore-openapi.ts": generated, "checks.ts": CHECKS });
    expect(diagnostics.join("\n")).toMatch(
      /checks\.ts:\d+ export type PetRequired\b.*Type 'false' does not satisfy the constraint 'true'/,
    );
  });
});

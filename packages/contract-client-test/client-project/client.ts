// A client developer's program: the packed @petstore/contract, installed from
// its tarball, driving a running API through @ts-rest/core's fetch client.
// Every status is checked before its body is read: the body's type follows it.
import { initClient } from "@ts-rest/core";
import { petstoreContract, v1Contract, type ErrorBody, type Pet, type PetPatch } from "@petstore/contract";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

// The API's origin: the contract adds its /v1 prefix to every path.
const baseUrl = required("PETSTORE_API_URL");
const apiKey = required("PETSTORE_API_KEY");

const client = initClient(petstoreContract, {
  baseUrl,
  baseHeaders: { Authorization: `Bearer ${apiKey}` },
  // A status the contract does not list throws instead of passing as a typed one.
  throwOnUnknownStatus: true,
});

const created = await client.createPet({ body: { name: "  Rex  ", categoryId: 3, status: "available" } });
if (created.status !== 201) throw new Error(`createPet answered ${created.status}: ${created.body.message}`);
const pet: Pet = created.body;

const listed = await client.listPets({ query: { status: "available", limit: 100 } });
if (listed.status !== 200) throw new Error(`listPets answered ${listed.status}: ${listed.body.message}`);
const listedPets: Pet[] = listed.body;

const fetched = await client.getPet({ params: { petId: pet.id } });
if (fetched.status !== 200) throw new Error(`getPet answered ${fetched.status}: ${fetched.body.message}`);

const missing = await client.getPet({ params: { petId: pet.id + 1000 } });
if (missing.status !== 404) throw new Error(`getPet of a missing pet answered ${missing.status}`);
const notFound: ErrorBody = missing.body;

const invalid = await client.createPet({ body: { name: "   ", categoryId: 3 } });
if (invalid.status !== 400) throw new Error(`createPet with a blank name answered ${invalid.status}`);

// A sale done safely (updatePet, beyond the spec: v1Contract.petChanges): read the pet, then send a
// patch that tests the status read before it replaces it. If someone changed the pet in between, the
// test fails with a 409 and nothing is overwritten: read again and decide anew.
const changes = initClient(v1Contract.petChanges, {
  baseUrl,
  baseHeaders: { Authorization: `Bearer ${apiKey}` },
  throwOnUnknownStatus: true,
});
async function sell(petId: number): Promise<Pet | ErrorBody> {
  const read = await client.getPet({ params: { petId } });
  if (read.status !== 200) throw new Error(`getPet answered ${read.status}: ${read.body.message}`);
  const patch: PetPatch = [
    { op: "test", path: "/status", value: read.body.status ?? null },
    { op: "replace", path: "/status", value: "sold" },
  ];
  // An Idempotency-Key makes a retry after a lost answer replay the sale instead of failing its own test.
  const sold = await changes.updatePet({
    params: { petId },
    body: patch,
    headers: { "idempotency-key": `sale-${petId}-${Date.now()}` },
  });
  if (sold.status === 200 || sold.status === 409) return sold.body;
  throw new Error(`updatePet answered ${sold.status}: ${sold.body.message}`);
}
const sale = await sell(pet.id);
// A second seller who read the pet before the sale: their test of "available" fails, nothing changes.
const late = await changes.updatePet({
  params: { petId: pet.id },
  body: [
    { op: "test", path: "/status", value: "available" },
    { op: "replace", path: "/status", value: "pending" },
  ],
});
if (late.status !== 409) throw new Error(`a stale updatePet answered ${late.status}`);
const conflict: ErrorBody = late.body;

const stranger = initClient(petstoreContract, {
  baseUrl,
  baseHeaders: { Authorization: "Bearer not-a-key-of-this-api" },
  throwOnUnknownStatus: true,
});
const refused = await stranger.listPets();
if (refused.status !== 401) throw new Error(`listPets with a wrong key answered ${refused.status}`);
const unauthorized: ErrorBody = refused.body;

// The test reads this line and checks the values the API sent.
console.log(
  JSON.stringify({
    created: pet,
    listedIds: listedPets.map((listedPet) => listedPet.id),
    fetched: fetched.body,
    notFound,
    invalid: invalid.body,
    unauthorized,
    sale,
    conflict,
  }),
);

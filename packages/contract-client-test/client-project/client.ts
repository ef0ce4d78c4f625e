// A client developer's program: the packed @petstore/contract, installed from
// its tarball, driving a running API through @ts-rest/core's fetch client.
// Every status is checked before its body is read: the body's type follows it.
import { initClient } from "@ts-rest/core";
import { petstoreContract, type ErrorBody, type Pet } from "@petstore/contract";

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
  }),
);

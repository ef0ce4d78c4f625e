// Must NOT compile: the contract types createPet's body, so a number for
// `name` is refused by tsc before any request could be sent.
import { initClient } from "@ts-rest/core";
import { petstoreContract } from "@petstore/contract";

const client = initClient(petstoreContract, { baseUrl: "http://127.0.0.1:3000" });

await client.createPet({ body: { name: 42, categoryId: 1 } });

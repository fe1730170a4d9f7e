import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { loginPasswords } from "./database-users.ts";
import { databaseUrls } from "./entry.ts";

describe("the container entry on AWS", () => {
  it("builds each login's URL from the injected secret, every character of the password kept", () => {
    const urls = databaseUrls({
      DATABASE_HOST: "flowstate-prod.cluster-x.eu-central-1.rds.amazonaws.com",
      DATABASE_NAME: "flowstate",
      DATABASE_USERNAME: "flowstate_prod_audit_svc",
      DATABASE_PASSWORD: "p@ss:/w?rd#%",
      AUDIT_OWNER_DATABASE_USERNAME: "flowstate_prod_audit_owner",
      AUDIT_OWNER_DATABASE_PASSWORD: "owner",
    });
    const url = new URL(urls.DATABASE_URL!);
    assert.equal(decodeURIComponent(url.password), "p@ss:/w?rd#%");
    assert.equal(url.username, "flowstate_prod_audit_svc");
    assert.equal(url.port, "5432");
    assert.equal(url.pathname, "/flowstate");
    assert.equal(new URL(urls.AUDIT_OWNER_DATABASE_URL!).username, "flowstate_prod_audit_owner");
  });

  it("leaves a service without a login alone and refuses a login without a host", () => {
    assert.deepEqual(databaseUrls({ PORT: "8080" }), {});
    assert.throws(() => databaseUrls({ DATABASE_USERNAME: "u", DATABASE_PASSWORD: "p" }), /DATABASE_HOST/);
  });

  it("reads the database-users task's LOGIN_<ROLE> passwords as role names", () => {
    const passwords = loginPasswords({ LOGIN_FLOWSTATE_PROD_IDENTITY: "x", LOGIN_EMPTY: "", PATH: "/bin" });
    assert.deepEqual([...passwords], [["flowstate_prod_identity", "x"]]);
  });
});

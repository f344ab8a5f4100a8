import assert from "node:assert/strict";
import { test } from "node:test";

import { sideFor } from "../../static/addin/side.js";

const sides = { parties: [{ name: "Licensor", legal: "Acme", role: "Licensor" }, { name: "Licensee", legal: "", role: "Licensee" }], last_acting_for: "Licensee" };

test("the pane's own choice for the document wins, also the choice of no side", () => {
  assert.equal(sideFor("D1", sides, () => "Licensor"), "Licensor");
  assert.equal(sideFor("D1", sides, () => ""), "");
});

test("without one, the side of the document's last run is taken", () => {
  assert.equal(sideFor("D1", sides, () => null), "Licensee");
  assert.equal(sideFor("D1", { ...sides, last_acting_for: "" }, () => null), "");
});

test("a remembered party the document no longer has is not sent", () => {
  assert.equal(sideFor("D1", sides, () => "Distributor"), "Licensee");
  assert.equal(sideFor("D1", { ...sides, last_acting_for: "Distributor" }, () => null), "");
});

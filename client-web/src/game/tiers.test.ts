import { expect, test } from "vitest";
import { tierLabel } from "./tiers";

test("difficulties say what they need; unknown ones stay as they are", () => {
  expect(tierLabel("easy")).toBe("easy — singles");
  expect(tierLabel("extreme")).toBe("extreme — chains");
  expect(tierLabel("nightmare")).toBe("nightmare");
});

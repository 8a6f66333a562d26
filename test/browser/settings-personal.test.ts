/**
 * Personal settings in the web app: the settings overlay (its URL, Escape, the keyboard), and each change
 * made there asserted twice, on the page (and another person's page, through events) and in what the
 * server stored.
 */
import { describe, expect, test } from "bun:test";
import { browserSuite, eventually, shot } from "./helpers";

const suite = browserSuite();

const storedName = async (id: number) => (await suite.s.app.db.get<{ full_name: string }>("SELECT full_name FROM users WHERE id = ?", [id]))!.full_name;

describe("the settings overlay", () => {
  test("opens from the personal menu at its URL, moves the focus in, and Escape closes it back to the view beneath", async () => {
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#recent");
    await page.getByRole("button", { name: /^Personal menu/ }).click();
    await page.getByRole("menuitem", { name: "Personal settings" }).click();
    const overlay = page.getByRole("dialog", { name: "Settings" });
    await overlay.waitFor();
    expect(new URL(page.url()).hash).toBe("#settings");
    await overlay.getByRole("heading", { name: "Profile" }).waitFor();
    // the menu lists the sections; the focus is on the current one
    await eventually(() => page.evaluate(() => document.activeElement?.textContent), "Profile");
    expect(await overlay.getByRole("navigation", { name: "Personal settings" }).getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");
    await page.keyboard.press("Escape");
    await overlay.waitFor({ state: "detached" });
    expect(new URL(page.url()).hash).toBe("#recent");
    // a link to a section opens it directly (a reload, a shared link)
    await page.goto(`${suite.base}/#settings/profile`);
    await overlay.getByLabel("Name", { exact: true }).waitFor();
    await overlay.getByRole("button", { name: "Close settings" }).click();
    await overlay.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  }, 20_000);
});

describe("Profile", () => {
  test("a member renames themselves: the server stores it and another person's open page shows it live", async () => {
    const other = await suite.open();
    await suite.logIn(other.page, "othello");
    const { page, errors } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/profile");
    const name = page.getByLabel("Name", { exact: true });
    await name.fill("Prince Hamlet");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved").waitFor();
    expect(await storedName(suite.userId("hamlet"))).toBe("Prince Hamlet");
    await other.page.locator("#right-sidebar", { hasText: "Prince Hamlet" }).waitFor();
    await page.screenshot({ path: shot("settings-profile") });
    expect(errors).toEqual([]);
  }, 20_000);

  test("a refused name shows the server's reason beside the field, and nothing changes", async () => {
    const { page } = await suite.open();
    await suite.logIn(page, "hamlet", "/#settings/profile");
    const before = await storedName(suite.userId("hamlet"));
    const name = page.getByLabel("Name", { exact: true });
    await name.fill("Hamlet @ Elsinore");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("alert").getByText("Invalid characters in name!").waitFor();
    expect(await name.inputValue()).toBe(before);
    expect(await storedName(suite.userId("hamlet"))).toBe(before);
  }, 20_000);
});

import { expect, type Page } from "@playwright/test";

/** A tool's own page: its definition, a held-back change waiting for review, and its history with Restore. */
export class ToolPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto(name: string) {
    await this.page.goto(`/catalogs/${this.catalogId}/tools/${encodeURIComponent(name)}`);
    await expect(this.page.getByTestId("tool-name")).toBeVisible();
  }

  definition() {
    return this.page.getByTestId("tool-definition");
  }

  /** What the catalog learned from use for this tool. */
  learnedWords() {
    return this.page.getByTestId("learned-words");
  }

  /** What the tool-poisoning check found in the tool's text, each finding with its flagged words marked. */
  findings() {
    return this.page.getByTestId("tool-finding");
  }

  pendingChange() {
    return this.page.getByTestId("pending-change");
  }

  /** The words a pending change or a history entry adds to a text field. */
  addedWords(field: string, within = this.pendingChange()) {
    return within.getByTestId(`word-diff-${field}`).locator("ins");
  }

  async approvePending() {
    await this.pendingChange().getByTestId("approve-pending").click();
  }

  /** The "Overridden by the catalog" panel: each field the catalog's overrides set, upstream beside override. */
  overrides() {
    return this.page.getByTestId("tool-overrides");
  }

  /** One overridden field's row (`default of <parameter>`, `annotation <key>`, …): field, upstream value, override value. */
  overriddenField(field: string) {
    return this.overrides().getByTestId(`override-field-${field}`);
  }

  /** The note beside a source's change that names the fields the catalog overrides. */
  overriddenNote() {
    return this.page.getByTestId("overridden-note");
  }

  history() {
    return this.page.getByTestId("audit-history");
  }

  entries() {
    return this.history().getByTestId("audit-entry");
  }

  /** Opens the confirmation of restoring an entry's version and waits until it says what the restore would change. */
  async askToRestore(entryId: number) {
    await this.page.getByTestId(`restore-${entryId}`).click();
    const dialog = this.restoreDialog();
    await expect(dialog.getByTestId("restore-preview")).toBeVisible();
    return dialog;
  }

  restoreDialog() {
    return this.page.locator("dialog[open]");
  }
}

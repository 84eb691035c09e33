// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonFileButton } from "@/components/json-file-button";

afterEach(cleanup);

function renderButton(disabled = false) {
  const onFile = vi.fn();
  render(createElement(JsonFileButton, { onFile, disabled, inputTestId: "file" }, "Import labelled set…"));
  return onFile;
}

describe("the button that picks a JSON file", () => {
  it("is a button the keyboard reaches, which opens the hidden picker of JSON files", () => {
    renderButton();
    const button = screen.getByRole("button", { name: "Import labelled set…" });
    const input = screen.getByTestId("file") as HTMLInputElement;
    expect(input.hidden).toBe(true);
    expect(input.accept).toBe("application/json,.json");
    const opened = vi.spyOn(input, "click");
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(opened).toHaveBeenCalledOnce();
  });

  it("hands the picked file on and clears itself, so that the same file can be picked again", () => {
    const onFile = renderButton();
    const input = screen.getByTestId("file") as HTMLInputElement;
    const file = new File(["{}"], "set.json", { type: "application/json" });
    fireEvent.change(input, { target: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    expect(input.value).toBe("");
  });

  it("opens nothing while disabled", () => {
    renderButton(true);
    const opened = vi.spyOn(screen.getByTestId("file") as HTMLInputElement, "click");
    fireEvent.click(screen.getByRole("button"));
    expect(opened).not.toHaveBeenCalled();
  });
});

import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const elementRef = z.string().describe('Element reference (e.g. "e42") from the latest browser_snapshot.');
const elementLabel = z.string().describe("Human-readable description of the element, shown to the user for approval.");

export const BROWSER_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "browser_navigate",
    summary: "Open a URL in the automated browser tab, or go back or forward in its history.",
    description:
      "Loads a page in the controlled browser and waits until it has loaded, then returns the final URL and title. Follow it with browser_snapshot to see what is on the page.",
    parameters: {
      url: z.string().optional().describe("The URL to open; omit when using action back or forward."),
      action: z.enum(["open", "back", "forward", "reload"]).default("open").describe("What to do."),
    },
    tags: ["browser", "automation"],
  }),
  defineDemoTool({
    name: "browser_snapshot",
    summary: "Capture the current page's accessibility tree with element references, to see and act on its contents.",
    description:
      "Returns a structured text snapshot of the current page: headings, text, links, buttons and form fields, each interactive element with a reference to pass to browser_click, browser_type and the other actions. Prefer it over screenshots to understand a page; take a new snapshot after the page changes, because old references become invalid.",
    parameters: {},
    tags: ["browser", "automation", "read-only"],
  }),
  defineDemoTool({
    name: "browser_click",
    summary: "Click a button, link or other element on the current browser page by its snapshot reference.",
    description:
      "Scrolls the element into view and clicks it, then waits for resulting navigation or network activity to settle. Use doubleClick or a modifier key for special interactions.",
    parameters: {
      ref: elementRef,
      element: elementLabel,
      button: z.enum(["left", "right", "middle"]).default("left").describe("Mouse button."),
      doubleClick: z.boolean().default(false).describe("Double-click instead of a single click."),
      modifiers: z
        .array(z.enum(["Alt", "Control", "Meta", "Shift"]))
        .optional()
        .describe("Keys held during the click."),
    },
    tags: ["browser", "automation"],
  }),
  defineDemoTool({
    name: "browser_type",
    summary: "Type text into an input field or editable element on the browser page, optionally pressing Enter after.",
    description:
      "Focuses the element and enters the text, replacing what was there. Set submit to press Enter afterwards (e.g. in a search box). Set slowly to type one character at a time, for pages that react to each keystroke.",
    parameters: {
      ref: elementRef,
      element: elementLabel,
      text: z.string().describe("The text to enter."),
      submit: z.boolean().default(false).describe("Press Enter after typing."),
      slowly: z.boolean().default(false).describe("Type character by character."),
    },
    tags: ["browser", "automation", "forms"],
  }),
  defineDemoTool({
    name: "browser_select_option",
    summary: "Choose one or more options in a dropdown (select element) on the browser page.",
    description: "Selects options of a select element by their visible label or value. Several values are allowed only for multi-select elements.",
    parameters: {
      ref: elementRef,
      element: elementLabel,
      values: z.array(z.string()).min(1).describe("Labels or values of the options to select."),
    },
    tags: ["browser", "automation", "forms"],
  }),
  defineDemoTool({
    name: "browser_press_key",
    summary: "Press a keyboard key or shortcut in the browser, such as Escape, Tab, ArrowDown or Control+A.",
    description: 'Sends a key press to the focused element of the page. Key names follow the KeyboardEvent key values; combine modifiers with "+".',
    parameters: {
      key: z.string().describe('Key or combination, e.g. "Enter", "Escape", "ArrowDown", "Control+A".'),
    },
    tags: ["browser", "automation"],
  }),
  defineDemoTool({
    name: "browser_take_screenshot",
    summary: "Take a PNG screenshot of the browser viewport, the full page or one element, for visual checks.",
    description:
      "Returns an image of the page as it is rendered. Use it to check layout, styling or visual bugs; to read or act on the page, browser_snapshot is cheaper and more precise.",
    parameters: {
      fullPage: z.boolean().default(false).describe("Capture the whole scrollable page instead of the viewport."),
      ref: z.string().optional().describe("Capture only this element from the latest snapshot."),
    },
    tags: ["browser", "automation", "read-only"],
  }),
  defineDemoTool({
    name: "browser_wait_for",
    summary: "Wait until text appears or disappears on the browser page, or for a fixed number of seconds.",
    description:
      "Blocks until the given text is visible (or gone), up to a 30-second timeout, or simply waits the given time. Use it after actions that start slow loading, instead of taking snapshots repeatedly.",
    parameters: {
      text: z.string().optional().describe("Wait for this text to appear."),
      textGone: z.string().optional().describe("Wait for this text to disappear."),
      seconds: z.number().min(0).max(30).optional().describe("Wait this many seconds."),
    },
    tags: ["browser", "automation"],
  }),
];

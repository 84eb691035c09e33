import { z } from "zod";
import { defineBuiltinTool } from "./types";

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;

const DESCRIPTION = `Runs a shell command in a persistent bash session and returns its combined output and exit code.

Use it for terminal operations: running builds, tests, linters, package managers, git, starting and inspecting processes. Do not use it for file operations that have a dedicated tool: read files with read (not cat, head or tail), search contents with grep (not grep or rg), find files with glob (not find or ls -R), change files with the editing tool you have, edit, write or apply_patch (not sed, awk or echo with redirection). The dedicated tools are safer, show the user what changed, and keep output bounded.

Before running a command:
- If it creates files or directories, check first (with ls through this tool, or glob) that the parent directory exists and is the one you mean.
- Quote every path that contains spaces with double quotes, e.g. cd "/Users/me/My Project".

Running commands:
- command is required. Give a short description (5-10 words) of what the command does in active voice, e.g. "Install project dependencies" or "Run unit tests for the parser"; the user sees it.
- workdir sets the directory the command runs in. Prefer it over "cd <dir> && <command>", and keep using absolute paths so the session's working directory does not drift.
- The timeout is ${BASH_DEFAULT_TIMEOUT_MS / 1000} seconds by default and at most ${BASH_MAX_TIMEOUT_MS / 1000} seconds. A command that runs longer is killed and its output so far is returned.
- Output longer than 30000 characters is truncated in the middle. Pipe through head or tail, or write to a file and read the part you need, when you expect a lot of output.
- Commands cannot be interactive: there is no terminal to answer prompts. Use non-interactive flags (--yes, -y, CI=1) and never start editors, pagers or REPLs (git rebase -i, less, vim, python without a script).
- Independent commands can be sent as parallel tool calls. Commands that depend on each other belong in one call joined with "&&"; use ";" only when a later command must run even if an earlier one fails. Do not separate commands with newlines.
- To keep a long-lived process running (a dev server, a watcher), start it in the background with its output redirected to a file, and read that file later.

Git safety:
- Only commit when the user asks you to. Never change git config, never push with --force to a shared branch, never skip hooks (--no-verify) and never rewrite published history unless the user explicitly asks for exactly that.
- Before committing, look at git status, git diff and recent git log in parallel so the message follows the repository's conventions and describes why, not only what. Do not commit files that probably contain secrets (.env, credentials.json).
- If a commit fails because a pre-commit hook changed files, review the changes and commit again rather than amending someone else's commit.
- For pull requests, use the gh command line, and return the pull request's URL when done.

Never run destructive commands (rm -rf on broad paths, dropping databases, killing processes you did not start) without the user's explicit agreement.`;

export const bashTool = defineBuiltinTool({
  name: "bash",
  summary: "Run a shell command (build, test, git, package manager, scripts) and get its output and exit code; needed for any terminal operation.",
  description: DESCRIPTION,
  parameters: {
    command: z.string().describe("The command to run."),
    description: z.string().describe('What the command does in 5-10 words, e.g. "Run the unit tests".'),
    workdir: z.string().optional().describe("Absolute directory to run the command in. Defaults to the working directory."),
    timeout: z.int().min(1).max(BASH_MAX_TIMEOUT_MS).optional().describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}).`),
  },
  tags: ["shell", "execution"],
});

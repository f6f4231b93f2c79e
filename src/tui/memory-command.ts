// `/memory`: the instruction files of this session, to open one in your editor, as Claude
// Code's /memory does. The picker lists the AGENTS.md and CLAUDE.md files from the project
// root down to the workspace, the project's and your own rule files, and the project's and
// your own AGENTS.md even when they do not exist yet (the editor creates them). The editor is
// `$VISUAL`, else `$EDITOR`, else `vi`, run through `sh -c` with the terminal handed over
// (the screen stops, then draws again). What is edited applies from the next session.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { SelectItem } from "@mariozechner/pi-tui";
import { loadRuleFiles } from "../config/rule-files.ts";

interface MemoryPlaces {
  cwd: string;
  /** `$CODEWHALE_HOME`. */
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];

/** The picker's items: each file's path is its value; a file to be created says so. */
export function memoryItems(places: MemoryPlaces): SelectItem[] {
  const items: SelectItem[] = [];
  const add = (path: string, what: string) => {
    if (items.some((item) => item.value === path)) return;
    const state = existsSync(path) ? what : `${what} (new)`;
    items.push({ value: path, label: shown(path, places), description: state });
  };
  for (const dir of directoriesDown(places.project, places.cwd)) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(dir, name);
      if (existsSync(path)) add(path, "project instructions");
    }
  }
  add(join(places.project, "AGENTS.md"), "project instructions");
  add(join(places.home, "AGENTS.md"), "your instructions, every project");
  const { rules } = loadRuleFiles({
    home: places.home,
    userHome: places.env.HOME,
    project: places.project,
  });
  for (const rule of rules) {
    const scope = rule.paths ? `rule for ${rule.paths.join(", ")}` : "rule";
    add(
      rule.path,
      rule.path.startsWith(places.project + sep) ? `project ${scope}` : `your ${scope}`,
    );
  }
  return items;
}

/**
 * Opens `path` (shown as `label`) in the user's editor with the terminal handed over: `suspend` before, `resume`
 * after. Returns the line to show: what was edited, or why the editor failed.
 */
export function editInstructions(
  path: string,
  label: string,
  env: NodeJS.ProcessEnv,
  screen: { suspend(): void; resume(): void },
): { ok: boolean; line: string } {
  const editor = env.VISUAL || env.EDITOR || "vi";
  screen.suspend();
  let run: ReturnType<typeof spawnSync>;
  try {
    run = spawnSync("sh", ["-c", `${editor} "$1"`, "codewhale-editor", path], {
      stdio: "inherit",
      env,
    });
  } finally {
    screen.resume();
  }
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : `exit ${run.status ?? run.signal}`;
    return { ok: false, line: `the editor (${editor}) failed: ${why}` };
  }
  return { ok: true, line: `${label} edited: it applies from the next session (/new)` };
}

function shown(path: string, places: MemoryPlaces): string {
  const inProject = relative(places.project, path);
  if (!inProject.startsWith("..")) return inProject;
  const home = places.env.HOME;
  if (home && path.startsWith(home + sep)) return `~/${relative(home, path)}`;
  if (path.startsWith(places.home + sep)) return `$CODEWHALE_HOME/${relative(places.home, path)}`;
  return path;
}

/** The project root and each directory down to `cwd`. */
function directoriesDown(project: string, cwd: string): string[] {
  const dirs = [resolve(project)];
  const rest = relative(project, resolve(cwd));
  if (rest === "" || rest.startsWith("..")) return dirs;
  let dir = dirs[0] as string;
  for (const part of rest.split(sep)) {
    dir = join(dir, part);
    dirs.push(dir);
  }
  return dirs;
}

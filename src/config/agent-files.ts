// Custom agent types for the `task` tool (docs/subagents.md): Markdown files in Claude Code's
// format (front matter `name`, `description`, `tools`, `model`; the body is the agent's
// instructions), from `$CODEWHALE_HOME/agents/` (the user's), then the project's
// `.codewhale/agents/` and `.claude/agents/`. A project's come from a possibly hostile
// repository: they apply only in a trusted project, a name already taken is skipped (a
// repository never shadows the user's own), files are at most 64 KB, and a symlink out of its
// directory is refused. An agent can only narrow the tools; the rules still decide every call.
// Read by compose-session.ts for the task tool.
import { join } from "node:path";
import {
  CHANGED_SINCE_TRUST,
  directoryEntries,
  insideProject,
  parseFrontMatter,
  readDefinitionFile,
  unquote,
} from "./definition-files.ts";

export interface AgentDefinition {
  name: string;
  description: string;
  /** The tools it is offered (our names); absent: all the session's. */
  tools?: string[];
  /**
   * As written, read by agent/model-field.ts as `--model` reads it (`provider/model`, Claude
   * Code's `sonnet`, `opus`, `haiku`; `inherit`); absent: the parent's model.
   */
  model?: string;
  /** The body: instructions added to the child's system prompt. */
  instructions: string;
  /** The file it came from. */
  path: string;
}

interface LoadedAgents {
  agents: AgentDefinition[];
  /** One line per file not taken, naming it and why. */
  skipped: string[];
}

const MAX_AGENT_BYTES = 64 * 1024;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Claude Code's tool names as ours; any other name is taken lowercased. */
const CLAUDE_TOOLS: Readonly<Record<string, string>> = {
  read: "read",
  write: "write",
  edit: "edit",
  multiedit: "edit",
  bash: "bash",
  glob: "glob",
  grep: "grep",
  ls: "ls",
  todowrite: "todo_write",
};

/**
 * The agents of the three directories. `projectTrusted`: whether the project's files apply
 * (each project file that does not is listed in `skipped`).
 */
export function loadAgentFiles(dirs: {
  home: string;
  project: string;
  projectTrusted: boolean;
  /** The project's files changed since it was trusted (grant-files.ts): each is refused. */
  changed?: ReadonlySet<string>;
}): LoadedAgents {
  const agents: AgentDefinition[] = [];
  const skipped: string[] = [];
  const names = new Set<string>();
  const places = [
    { dir: join(dirs.home, "agents"), project: false },
    { dir: join(dirs.project, ".codewhale", "agents"), project: true },
    { dir: join(dirs.project, ".claude", "agents"), project: true },
  ];
  for (const { dir, project } of places) {
    const files = markdownFiles(dir);
    if (project && files.length > 0 && !dirs.projectTrusted) {
      skipped.push(`${dir}: the project is not trusted (codewhale trust, or --trust)`);
      continue;
    }
    if (project && !insideProject(dir, dirs.project)) {
      skipped.push(`${dir}: a symlink out of the project`);
      continue;
    }
    for (const file of files) {
      const path = join(dir, file);
      if (project && dirs.changed?.has(path)) {
        skipped.push(`${path}: ${CHANGED_SINCE_TRUST}`);
        continue;
      }
      const read = readDefinitionFile(dir, path, MAX_AGENT_BYTES);
      const agent = "problem" in read ? read : parseAgent(read.text, file.slice(0, -3), path);
      if ("problem" in agent) skipped.push(`${path}: ${agent.problem}`);
      else if (names.has(agent.name)) skipped.push(`${path}: the agent ${agent.name} is taken`);
      else {
        names.add(agent.name);
        agents.push(agent);
      }
    }
  }
  return { agents, skipped };
}

/** One agent file's definition, or why it is not one. */
function parseAgent(
  text: string,
  fileName: string,
  path: string,
): AgentDefinition | { problem: string } {
  const front = parseFrontMatter(text);
  if (!front) return { problem: "no front matter (--- name, description ---)" };
  const { fields } = front;
  const name = (fields.get("name") || fileName).toLowerCase();
  if (!NAME.test(name)) return { problem: "a name may use only a-z, 0-9, - and _" };
  const description = fields.get("description");
  if (!description) return { problem: "no description" };
  const tools = toolList(fields.get("tools"));
  const model = fields.get("model");
  return {
    name,
    description: description.replace(/\s+/g, " ").slice(0, 300),
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
    instructions: front.body,
    path,
  };
}

/** `Read, Grep` or `[read, grep]` as our tool names; absent or empty: all tools. */
function toolList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .replace(/^\[|\]$/g, "")
    .split(",")
    .map((name) => unquote(name).trim())
    .filter((name) => name !== "");
  if (names.length === 0) return undefined;
  return names.map((name) => CLAUDE_TOOLS[name.toLowerCase()] ?? name.toLowerCase());
}

function markdownFiles(dir: string): string[] {
  return directoryEntries(
    dir,
    (entry) => entry.name.endsWith(".md") && (entry.isFile() || entry.isSymbolicLink()),
  );
}

// The `skill` tool (docs/instructions.md#skills): the model loads a skill's instructions when a
// task matches its description. Only the names and descriptions are in the tool's description
// (progressive disclosure); a call returns the skill's SKILL.md body and the files beside it,
// which the model reads with `read` when the instructions call for them. Its source is added
// by compose-session.ts when there is a skill.
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import * as z from "zod";
import type { SkillDefinition } from "../config/index.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { ToolSource } from "../tools/source.ts";
import { zodInput } from "../tools/tool-input.ts";

const SKILL_TOOL = "skill";
const MAX_LISTED_FILES = 100;
const MAX_DEPTH = 3;

const skillSchema = z.object({
  name: z.string().min(1).describe("The skill's name, from the list in this description"),
});

function describe(skills: readonly SkillDefinition[]): string {
  const list = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return [
    "Load a skill: instructions for a kind of task, with files beside them. When a task matches a skill's description, call this first and follow what it returns; read the files it lists with the read tool only when its instructions call for them.",
    "",
    "Skills:",
    ...list,
  ].join("\n");
}

export function skillToolSource(skills: readonly SkillDefinition[]): ToolSource {
  const tool = defineTool({
    name: SKILL_TOOL,
    description: describe(skills),
    kind: "read",
    readOnly: true,
    input: zodInput(skillSchema),
    execute: async ({ name }) => {
      const skill = skills.find((candidate) => candidate.name === name.trim().toLowerCase());
      if (!skill) {
        const known = skills.map((candidate) => candidate.name).join(", ");
        return { content: `no skill named "${name}" (skills: ${known})`, isError: true };
      }
      return { content: skillText(skill) };
    },
  });
  return {
    name: "skills",
    open: async () => ({ tools: () => [tool], notices: [], dispose: async () => {} }),
  };
}

function skillText(skill: SkillDefinition): string {
  const files = filesOf(skill.dir);
  const listed =
    files.length === 0
      ? "It has no other files."
      : `Its other files, under ${skill.dir}:\n${files.map((file) => `- ${file}`).join("\n")}`;
  return `Skill "${skill.name}" (${join(skill.dir, "SKILL.md")}). ${listed}\n\n${skill.instructions}`;
}

/** The files under the skill's directory but SKILL.md, depth first, a bounded number. */
function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string, depth: number): void => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_LISTED_FILES) return;
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (entry.isFile() && path !== join(dir, "SKILL.md")) out.push(relative(dir, path));
    }
  };
  walk(dir, 1);
  return out;
}

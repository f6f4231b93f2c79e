// Skills in the shared SKILL.md format (Agent Skills, as Claude Code and Codex read them): a
// directory `<name>/` holding `SKILL.md` (front matter `name` and `description`, then the
// instructions) and any files it refers to. Found in the user's `$CODEWHALE_HOME/skills/`,
// `~/.claude/skills/` and `~/.agents/skills/`, then the project's `.codewhale/skills/`,
// `.claude/skills/` and `.agents/skills/`; a name already taken is skipped (a repository never
// shadows the user's own). A project's skills come from a possibly hostile repository: they
// apply only in a trusted project, and a SKILL.md is read only inside its own directory, as a
// regular file of at most 64 KB. Read by compose-session.ts for the `skill` tool.
import { join } from "node:path";
import {
  CHANGED_SINCE_TRUST,
  directoryEntries,
  insideProject,
  parseFrontMatter,
  readDefinitionFile,
} from "./definition-files.ts";

export interface SkillDefinition {
  name: string;
  description: string;
  /** The instructions: SKILL.md after its front matter. */
  instructions: string;
  /** The skill's directory, where the files it refers to are. */
  dir: string;
}

const MAX_SKILL_BYTES = 64 * 1024;
/** The Agent Skills spec: lowercase letters, digits and hyphens, at most 64. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_DESCRIPTION = 1024;

export function loadSkillFiles(dirs: {
  home: string;
  /** HOME, for `~/.claude/skills` and `~/.agents/skills`. */
  userHome: string | undefined;
  project: string;
  projectTrusted: boolean;
  /** The project's files changed since it was trusted (grant-files.ts): each is refused. */
  changed?: ReadonlySet<string>;
}): { skills: SkillDefinition[]; skipped: string[] } {
  const skills: SkillDefinition[] = [];
  const skipped: string[] = [];
  const names = new Set<string>();
  const user = dirs.userHome
    ? [".claude", ".agents"].map((d) => join(dirs.userHome as string, d, "skills"))
    : [];
  const places = [
    ...[join(dirs.home, "skills"), ...user].map((dir) => ({ dir, project: false })),
    ...[".codewhale", ".claude", ".agents"].map((d) => ({
      dir: join(dirs.project, d, "skills"),
      project: true,
    })),
  ];
  for (const { dir, project } of places) {
    const found = directoryEntries(dir, (entry) => entry.isDirectory() || entry.isSymbolicLink());
    if (project && found.length > 0 && !dirs.projectTrusted) {
      skipped.push(`${dir}: the project is not trusted (codewhale trust, or --trust)`);
      continue;
    }
    if (project && !insideProject(dir, dirs.project)) {
      skipped.push(`${dir}: a symlink out of the project`);
      continue;
    }
    for (const entry of found) {
      const skillDir = join(dir, entry);
      const path = join(skillDir, "SKILL.md");
      if (project && dirs.changed?.has(path)) {
        skipped.push(`${path}: ${CHANGED_SINCE_TRUST}`);
        continue;
      }
      // A user's skill may be a link to a directory elsewhere; a repository's stays inside it.
      const read = readDefinitionFile(project ? dir : skillDir, path, MAX_SKILL_BYTES);
      if ("problem" in read) {
        if (!/ENOENT/.test(read.problem)) skipped.push(`${path}: ${read.problem}`);
        continue;
      }
      const skill = parseSkill(read.text, entry, skillDir);
      if ("problem" in skill) skipped.push(`${path}: ${skill.problem}`);
      else if (names.has(skill.name)) skipped.push(`${path}: the skill ${skill.name} is taken`);
      else {
        names.add(skill.name);
        skills.push(skill);
      }
    }
  }
  return { skills, skipped };
}

function parseSkill(
  text: string,
  dirName: string,
  dir: string,
): SkillDefinition | { problem: string } {
  const front = parseFrontMatter(text);
  if (!front) return { problem: "no front matter (--- name, description ---)" };
  const name = (front.fields.get("name") || dirName).toLowerCase();
  if (!NAME.test(name)) return { problem: "a name may use only a-z, 0-9, - and _" };
  const description = front.fields.get("description");
  if (!description) return { problem: "no description" };
  const short = description.replace(/\s+/g, " ").slice(0, MAX_DESCRIPTION);
  return { name, description: short, instructions: front.body, dir };
}

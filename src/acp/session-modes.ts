// The ACP session modes: codewhale's permission modes, offered on session/new, load and resume
// and switched by session/set_mode (agent.setPermissionMode), each with a line saying what it
// lets run without asking. Used by acp-agent.ts and acp-session.ts.
import type { SessionModeState } from "@agentclientprotocol/sdk";
import { PERMISSION_MODES, type PermissionMode } from "../config/index.ts";

const MODES: Record<PermissionMode, { name: string; description: string }> = {
  default: { name: "Default", description: "Reads run; edits and commands ask first" },
  "accept-edits": { name: "Accept edits", description: "Edits in the workspace run; commands ask" },
  plan: { name: "Plan", description: "Read-only: nothing is changed or run" },
  bypass: { name: "Bypass", description: "Everything runs without asking (deny rules still hold)" },
};

export function modeState(current: PermissionMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODES[id] })),
  };
}

export function permissionModeOf(modeId: string): PermissionMode | undefined {
  return PERMISSION_MODES.find((mode) => mode === modeId);
}

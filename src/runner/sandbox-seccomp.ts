// The seccomp filter every sandboxed command runs under, whatever its network: it
// may not make a unix socket (`socket(AF_UNIX)`), since a socket file on the host (a D-Bus or
// systemd bus, docker.sock, an agent's socket) is a way out of the sandbox that a read-only mount
// does not close; socketpair() stays allowed. Classic BPF, assembled here for the host's
// architecture; bwrap reads it from an fd (`--seccomp`). Used by run-command.ts.

/** Where the filter reaches the command's bwrap: the fd after the lifeline (lifeline.ts). */
export const SECCOMP_FD = 4;

const LD_ABS_W = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const AF_UNIX = 1;
/** seccomp_data: the syscall's number, its architecture, its first argument's low half (LE). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

/** Per architecture the kernel reports (native and compat): socket's numbers, and refused ones. */
interface ArchRules {
  audit: number;
  /** socket(2): refused for AF_UNIX. */
  socket: number[];
  /** Refused outright: io_uring_setup (its ops make sockets past seccomp), i386's socketcall. */
  refused: number[];
}

const X32 = 0x40000000;
const RULES: Record<string, ArchRules[]> = {
  x64: [
    { audit: 0xc000003e, socket: [41, X32 | 41], refused: [425, X32 | 425] },
    { audit: 0x40000003, socket: [359], refused: [102, 425] },
  ],
  arm64: [
    { audit: 0xc00000b7, socket: [198], refused: [425] },
    { audit: 0x40000028, socket: [281], refused: [425] },
  ],
};

type Step =
  | { op: "ld"; at: number }
  | { op: "jeq"; k: number; to: string }
  | { op: "ret"; k: number }
  | { label: string };

/** The filter for this host's architecture, or null where it has none (the command runs without). */
export function unixSocketFilter(arch: string = process.arch): Buffer | null {
  const rules = RULES[arch];
  if (!rules) return null;
  const steps: Step[] = [{ op: "ld", at: ARCH }];
  for (const [i, rule] of rules.entries()) steps.push({ op: "jeq", k: rule.audit, to: `arch${i}` });
  steps.push({ op: "ret", k: RET_ALLOW });
  for (const [i, rule] of rules.entries()) {
    steps.push({ label: `arch${i}` }, { op: "ld", at: NR });
    for (const nr of rule.socket) steps.push({ op: "jeq", k: nr, to: "family" });
    for (const nr of rule.refused) steps.push({ op: "jeq", k: nr, to: "deny" });
    steps.push({ op: "ret", k: RET_ALLOW });
  }
  steps.push({ label: "family" }, { op: "ld", at: ARG0_LOW });
  steps.push({ op: "jeq", k: AF_UNIX, to: "deny" }, { op: "ret", k: RET_ALLOW });
  steps.push({ label: "deny" }, { op: "ret", k: RET_EPERM });
  return assemble(steps);
}

/** Eight bytes per instruction (code u16, jt u8, jf u8, k u32), little-endian as the hosts are. */
function assemble(steps: readonly Step[]): Buffer {
  const labels = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if ("label" in step) labels.set(step.label, count);
    else count++;
  }
  const out = Buffer.alloc(count * 8);
  let index = 0;
  for (const step of steps) {
    if ("label" in step) continue;
    const at = index * 8;
    if (step.op === "ld") out.writeUInt16LE(LD_ABS_W, at);
    if (step.op === "ret") out.writeUInt16LE(RET_K, at);
    if (step.op === "jeq") {
      const jump = (labels.get(step.to) as number) - index - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp jump out of range: ${step.to}`);
      out.writeUInt16LE(JEQ_K, at);
      out.writeUInt8(jump, at + 2);
    }
    out.writeUInt32LE((step.op === "ld" ? step.at : step.k) >>> 0, at + 4);
    index++;
  }
  return out;
}

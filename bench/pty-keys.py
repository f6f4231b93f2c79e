# Keystroke to echo on a pseudo-terminal, with nothing between: runs a program on a pty of its
# own (python's pty module), waits for a text, optionally types a line and waits for another,
# then writes letters one at a time to the master and times each until its echo arrives (the
# last letters typed seen, escapes stripped, in bytes read after the write). Prints the times
# in ms as JSON. Called by bench/tui-keys.ts; a plain echo program on the same pty is its floor.
#   python3 pty-keys.py CONFIG_JSON -- program args...
import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import struct
import sys
import termios
import time

ESCAPE = re.compile(
    rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|_[^\x07\x1b]*(\x07|\x1b\\)"
    rb"|P[^\x1b]*\x1b\\|[()][0-9A-Za-z]|[@-Z\\-_=>])"
)


class Screen:
    """Everything the program wrote, escapes stripped, read as it arrives."""

    def __init__(self, fd):
        self.fd = fd
        self.text = ""
        self.dropped = 0
        self.carry = b""
        self.watch = None
        self.watched = False

    def feed(self, chunk):
        data = self.carry + chunk
        last = data.rfind(b"\x1b")
        self.carry = b""
        if last >= 0 and ESCAPE.match(data, last) is None and len(data) - last < 4096:
            data, self.carry = data[:last], data[last:]
        plain = ESCAPE.sub(b"", data).decode("utf-8", "ignore")
        if self.watch and not self.watched:
            self.watched = self.watch in (self.text[-len(self.watch) :] + plain)
        # Only the tail matters for finding an echo; keep memory flat over a long stream.
        self.text += plain
        if len(self.text) > 262144:
            self.dropped += len(self.text) - 131072
            self.text = self.text[-131072:]

    def end(self):
        """How many characters were shown so far (a position that survives trimming)."""
        return self.dropped + len(self.text)

    def shown_since(self, want, mark):
        """Whether `want` was shown ending after position `mark`."""
        start = max(0, mark - len(want) + 1 - self.dropped)
        return self.text.find(want, start) >= 0

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            raise SystemExit("the program ended")
        if not chunk:
            raise SystemExit("the program ended")
        self.feed(chunk)
        return True

    def wait_for(self, text, timeout=60.0):
        until = time.monotonic() + timeout
        while text not in self.text:
            if time.monotonic() > until:
                raise SystemExit(f"never shown: {text!r}; last: {self.text[-400:]!r}")
            self.read(0.05)

    def drain(self, seconds):
        until = time.monotonic() + seconds
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return
            self.read(left)


def main():
    config = json.loads(sys.argv[1])
    program = sys.argv[sys.argv.index("--") + 1 :]
    pid, fd = pty.fork()
    if pid == 0:
        size = struct.pack("HHHH", config.get("rows", 30), config.get("columns", 100), 0, 0)
        fcntl.ioctl(0, termios.TIOCSWINSZ, size)
        if config.get("cwd"):
            os.chdir(config["cwd"])
        os.execvp(program[0], program)
    screen = Screen(fd)
    screen.watch = config.get("still")
    times = []
    try:
        screen.wait_for(config["ready"])
        if config.get("send"):
            os.write(fd, config["send"].encode())
            screen.wait_for(config["until"])
        gaps = random.Random(7)
        typed = ""
        for index in range(config["keys"]):
            # Keys land at any phase of the program's frames, as a person's do.
            screen.drain(gaps.uniform(0.02, 0.06))
            letter = chr(97 + index % 26)
            typed += letter
            want = typed[-12:]
            mark = screen.end()
            started = time.perf_counter()
            os.write(fd, letter.encode())
            until = time.monotonic() + 10
            while not screen.shown_since(want, mark):
                if time.monotonic() > until:
                    raise SystemExit(f"no echo of {want!r}; last: {screen.text[-400:]!r}")
                screen.read(0.5)
            times.append((time.perf_counter() - started) * 1000)
            # What was shown stays: later searches start after this echo.
        print(json.dumps({"times": times, "streaming": not screen.watched}))
    finally:
        stop(pid, screen)


def stop(pid, screen):
    """SIGTERM, as a closed terminal sends, so the program exits as it would (writing its code
    caches); SIGKILL if it has not ended within 5 s."""
    os.kill(pid, signal.SIGTERM)
    until = time.monotonic() + 5
    while time.monotonic() < until:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return
        try:
            screen.read(0.05)
        except SystemExit:
            pass
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


main()

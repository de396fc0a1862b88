#!/usr/bin/env python3
"""`mty repl` driven through a pseudo-terminal (repl_test.sh): the prompts,
line editing (libedit), history in $MTY_HISTORY and none when it is empty,
Ctrl-C during a running input and at the prompt, Ctrl-D.

usage: repl_pty.py MTY TMPDIR; exit 0 when every check passes."""
import os
import pty
import select
import sys
import termios
import time

MTY, TMP = sys.argv[1], sys.argv[2]
fails = 0


def check(name, cond, got=b""):
    global fails
    if cond:
        print(f"ok   pty.{name}")
    else:
        fails += 1
        print(f"FAIL pty.{name}: got {got!r}")


class Session:
    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(MTY, [MTY, "repl"] + args, env)
        self.buf = b""

    def until(self, pat, timeout=10.0):
        """Output up to and including `pat` (consumed); what came when it
        did not appear within `timeout`."""
        pat = pat.encode()
        end = time.time() + timeout
        while pat not in self.buf and time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                break
            if not data:
                break
            self.buf += data
        i = self.buf.find(pat)
        if i < 0:
            got, self.buf = self.buf, b""
            return got
        got, self.buf = self.buf[: i + len(pat)], self.buf[i + len(pat):]
        return got

    def send(self, data):
        # Let libedit put the terminal in its (non-canonical) mode first:
        # keys typed before are echoed and edited by the terminal itself.
        # (tcgetattr on the master reads the slave's modes.)
        end = time.time() + 5
        while time.time() < end and termios.tcgetattr(self.fd)[3] & termios.ICANON:
            time.sleep(0.02)
        time.sleep(0.05)
        os.write(self.fd, data)

    def wait(self, timeout=10.0):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                os.read(self.fd, 4096)
            except OSError:
                pass
            time.sleep(0.05)
        os.kill(self.pid, 9)
        return None


history = os.path.join(TMP, "history")
home = os.path.join(TMP, "home")
os.makedirs(home, exist_ok=True)
env = dict(os.environ, TERM="xterm", HOME=home, MTY_HISTORY=history)

s = Session(["--wall", "30s"], env)
out = s.until("mty> ")
check("banner", b":help" in out, out)
s.send(b"1 + 2\r")
out = s.until("mty> ")
check("value", b"\r\n3\r\n" in out, out)
# Editing: type `2 + 40`, move left twice, insert 1, then at the end
# delete a character and type 2 (`2 + 142`).
s.send(b"2 + 40\x1b[D\x1b[D1\x1b[C\x1b[C\x7f2\r")
out = s.until("mty> ")
check("editing", b"\r\n144\r\n" in out, out)
# History: up arrow brings back the last input.
s.send(b"\x1b[A\r")
out = s.until("mty> ")
check("history-recall", b"144\r\n" in out, out)
# A continuation prompt while a delimiter is open.
s.send(b"[1,\r")
out = s.until("...  ")
check("continuation-prompt", out.endswith(b"...  "), out)
s.send(b"2]\r")
out = s.until("mty> ")
check("continuation-value", b"[1, 2]" in out, out)
# Ctrl-C during a running input: interrupted, the session goes on.
s.send(b"let mut i = 0\r")
s.until("mty> ")
s.send(b"loop { i += 1 }\r")
time.sleep(0.5)
t0 = time.time()
os.write(s.fd, b"\x03")
out = s.until("mty> ")
check("ctrl-c-run", b"interrupted (Ctrl-C)" in out and time.time() - t0 < 3, out)
s.send(b"i\r")
out = s.until("mty> ")
check("ctrl-c-run-state-unchanged", b"\r\n0\r\n" in out, out)
# Ctrl-C at the prompt drops the line being typed.
s.send(b"this is dropped\x03")
out = s.until("mty> ")
s.send(b"7\r")
out = s.until("mty> ")
check("ctrl-c-prompt", b"\r\n7\r\n" in out and b"dropped" not in out, out)
# Ctrl-D ends the session with status 0.
s.send(b"\x04")
code = s.wait()
check("ctrl-d-exit", code == 0, str(code).encode())
text = open(history, "rb").read() if os.path.exists(history) else b""
check("history-file", b"1\\040+\\0402" in text or b"1 + 2" in text, text)
check("history-file-mode", os.path.exists(history) and (os.stat(history).st_mode & 0o077) == 0)

# MTY_HISTORY set and empty: no file, not even in $HOME.
env2 = dict(env, MTY_HISTORY="")
s = Session([], env2)
s.until("mty> ")
s.send(b"5\r")
out = s.until("mty> ")
check("no-history-value", b"5" in out, out)
s.send(b":quit\r")
code = s.wait()
check("quit-exit", code == 0, str(code).encode())
check("no-history-file", not os.path.exists(os.path.join(home, ".mty_history")))

# Without MTY_HISTORY, $HOME/.mty_history.
env3 = {k: v for k, v in env.items() if k != "MTY_HISTORY"}
s = Session([], env3)
s.until("mty> ")
s.send(b"6\r")
s.until("mty> ")
s.send(b"\x04")
s.wait()
check("home-history-file", os.path.exists(os.path.join(home, ".mty_history")))

sys.exit(1 if fails else 0)

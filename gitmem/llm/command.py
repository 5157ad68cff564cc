"""The ``command`` backend: any program that reads the prompt on stdin and prints JSON.

The command line is split like a shell would (``shlex``) but never run through a
shell. The program runs in its own process group, so that when the timeout
expires (or its output grows past the cap) the whole group is killed, including
anything it started. Errors name the program, never its arguments, which may
carry a key.

POSIX only (process groups, non-blocking pipes).
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from gitmem.llm.backend import MAX_OUTPUT_BYTES, BackendFailed, Reported

_MAX_STDERR_BYTES = 64 * 1024
_MAX_SHOWN_CHARS = 200
_CHUNK = 64 * 1024


class _TimedOut(Exception):
    pass


class _TooLarge(Exception):
    pass


class CommandBackend:
    """Runs one command per prompt: prompt on stdin, answer on stdout."""

    name = "command"
    reported: Reported | None = None

    def __init__(self, argv: Sequence[str], timeout: float) -> None:
        if not argv:
            raise ValueError("argv must not be empty")
        self.argv = tuple(argv)
        self.timeout = timeout
        self.label = f"command: {Path(self.argv[0]).name}"

    def complete(self, prompt: str, *, system: str) -> bytes:
        """Run the command with *prompt* on stdin and return its stdout.

        *system* is not sent: a command has one input, and the prompts gitmem sends
        state their own rules (the extraction prompt opens with its system prompt).

        Raises:
            BackendFailed: see :func:`run_program`.
        """
        return run_program(self.argv, prompt, self.timeout)


def run_program(
    argv: Sequence[str],
    prompt: str,
    timeout: float,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """Run *argv* (in *cwd*, with *env*) with *prompt* on stdin; its stdout.

    Raises:
        BackendFailed: the program cannot be started, exits non-zero or by a signal,
            runs past *timeout* seconds, or prints more than the output cap.
    """
    program = Path(argv[0]).name
    try:
        data = prompt.encode("utf-8")
    except UnicodeEncodeError as e:
        raise BackendFailed("the prompt holds a lone surrogate and cannot be sent") from e
    deadline = time.monotonic() + timeout
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )
    except FileNotFoundError as e:
        raise BackendFailed(f"command not found: {program}") from e
    except PermissionError as e:
        raise BackendFailed(f"command not executable: {program}") from e
    except OSError as e:
        raise BackendFailed(f"cannot start {program}: {e.strerror or e}") from e
    out = bytearray()
    err = bytearray()
    try:
        _exchange(proc, data, out, err, deadline)
        proc.wait(timeout=max(deadline - time.monotonic(), 0))
    except (_TimedOut, subprocess.TimeoutExpired):
        _kill_group(proc)
        raise BackendFailed(
            f"{program} timed out after {timeout:g} s", bytes(out) or None
        ) from None
    except _TooLarge:
        _kill_group(proc)
        raise BackendFailed(f"{program} printed more than {MAX_OUTPUT_BYTES} bytes") from None
    except OSError as e:
        _kill_group(proc)
        raise BackendFailed(f"lost the pipes to {program}: {e.strerror or e}") from e
    except BaseException:
        # Interrupted (Ctrl-C): the program must not outlive us.
        _kill_group(proc)
        raise
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    if proc.returncode != 0:
        how = (
            f"was killed by signal {-proc.returncode}"
            if proc.returncode < 0
            else f"exited with status {proc.returncode}"
        )
        raise BackendFailed(f"{program} {how}: {_first_line(err)}", bytes(out) or None)
    return bytes(out)


def _exchange(
    proc: subprocess.Popen[bytes], data: bytes, out: bytearray, err: bytearray, deadline: float
) -> None:
    """Write *data* to stdin while reading stdout and stderr, until both are closed."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    view = memoryview(data)
    sent = 0
    with selectors.DefaultSelector() as selector:
        if data:
            os.set_blocking(stdin.fileno(), False)
            selector.register(stdin, selectors.EVENT_WRITE)
        else:
            stdin.close()
        selector.register(stdout, selectors.EVENT_READ)
        selector.register(stderr, selectors.EVENT_READ)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _TimedOut
            for key, _ in selector.select(remaining):
                if key.fileobj is stdin:
                    try:
                        sent += os.write(key.fd, view[sent : sent + _CHUNK])
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        # The program stopped reading; what it prints still decides.
                        sent = len(data)
                    if sent >= len(data):
                        selector.unregister(stdin)
                        stdin.close()
                    continue
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is stdout:
                    out += chunk
                    if len(out) > MAX_OUTPUT_BYTES:
                        raise _TooLarge
                elif len(err) < _MAX_STDERR_BYTES:
                    err += chunk


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    # The program leads its own session (start_new_session), so its pid is the group id.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def _first_line(err: bytearray) -> str:
    text = bytes(err).decode("utf-8", "replace")
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= _MAX_SHOWN_CHARS else line[:_MAX_SHOWN_CHARS] + "…"
    return "no error output"

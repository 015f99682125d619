"""Run a short external command with a hard time limit.

Evidence sources, task providers and notifiers all shell out. A hung program
must never hold the sentinel, so each run gets its own process group and the
whole group is killed when the limit passes (a shell's grandchildren included).
"""

from __future__ import annotations

from contextlib import suppress

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


class CommandFailed(Exception):
    """The command could not run, timed out, or exited non-zero."""


@dataclass(frozen=True)
class Finished:
    """What a command printed (decoded leniently)."""

    stdout: str
    stderr: str


def run_bounded(
    argv: Sequence[str] | str,
    *,
    timeout: float,
    env: Mapping[str, str] | None = None,
    shell: bool = False,
) -> Finished:
    """Run ``argv`` and return its output, or raise :class:`CommandFailed`.

    ``shell=True`` takes a string for ``/bin/sh -c``. Stdin is closed so that a
    command waiting for input fails fast instead of hanging.
    """
    try:
        proc = subprocess.Popen(
            argv,
            shell=shell,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            start_new_session=True,
        )
    except (OSError, ValueError) as exc:
        raise CommandFailed(f"cannot start: {exc}") from None
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise CommandFailed(f"timed out after {timeout:g}s") from None
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        detail = stderr.strip().splitlines()[-1:] or [""]
        raise CommandFailed(f"exit status {proc.returncode} {detail[0][:120]}".rstrip())
    return Finished(stdout, stderr)


def _kill_group(proc: subprocess.Popen) -> None:
    """Kill the command's process group and reap it without waiting on pipes."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    with suppress(subprocess.TimeoutExpired):  # a process immune to SIGKILL
        proc.wait(timeout=2)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


async def run_group_async(argv: Sequence[str], *, timeout: float, limit: int) -> str:
    """Run ``argv`` in its own process group and return up to ``limit`` chars of its stdout.

    The tutor's research command may be a script that spawns children: when the limit
    passes, or the caller is cancelled (F9, quitting), the whole group is killed, so no
    grandchild outlives the job. Raises :class:`CommandFailed` for a start failure or a
    timeout; a cancellation is re-raised after the kill.
    """
    import asyncio

    try:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, start_new_session=True,
        )
    except OSError as exc:
        raise CommandFailed(f"cannot start: {exc.strerror or exc}") from None
    try:
        out, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        await _end_group(process)
        raise CommandFailed(f"timed out after {timeout:g}s") from None
    except asyncio.CancelledError:
        await _end_group(process)
        raise
    finally:
        # The leader may exit first and leave its children running: end the group anyway.
        _signal_group(process.pid)
    return out.decode("utf-8", "replace")[:limit]


def _signal_group(pid: int) -> None:
    with suppress(OSError):  # the group is already gone
        os.killpg(pid, signal.SIGKILL)


async def _end_group(process) -> None:
    """Kill the group and reap the leader (a short wait: SIGKILL is not refused)."""
    import asyncio

    _signal_group(process.pid)
    with suppress(TimeoutError, ProcessLookupError):  # immune to SIGKILL
        await asyncio.wait_for(process.wait(), 2)

"""Batch on a real Ray cluster (issue 48): a head started here on the loopback address, a batch
through ``RAY_ADDRESS``, one Ray worker killed mid-run, a resume; every case once, the right status,
the same outcomes as the local executor. Ray's start-up bounded, one line, exit 2.

Slow (a Ray head takes ~15 s to start on a busy machine): skipped with the reason when Ray is not
installed or cannot start here. The head is torn down by the ids of its own processes (those under
its private temp directory and their children), never by name.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtg_outcomes.batch import generate_cases

from ..conftest import ROOT

RAY = Path(sys.executable).parent / "ray"
LOOP = ROOT / "cases" / "rulings" / "stuffy-doll-guilty-conscience-loop.yaml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process we can read."""
    procs: dict[int, tuple[int, str]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{d}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        procs[int(d)] = (ppid, cmd)
    return procs


def _head_pids(marker: str) -> set[int]:
    """The processes of our head: their command line names its temp dir; and all their children."""
    procs = _processes()
    found = {p for p, (_pp, cmd) in procs.items() if marker in cmd and p != os.getpid()}
    grew = True
    while grew:
        more = {p for p, (pp, _c) in procs.items() if pp in found and p not in found}
        found |= more
        grew = bool(more)
    return found


def _stop_head(marker: str) -> None:
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 1.0)):
        pids = _head_pids(marker)
        for p in pids:
            try:
                os.kill(p, sig)
            except OSError:
                pass
        end = time.monotonic() + wait
        while time.monotonic() < end and _head_pids(marker):
            time.sleep(0.1)


@pytest.fixture(scope="module")
def ray_head() -> Iterator[dict[str, str]]:
    """A Ray head on 127.0.0.1 (2 CPUs, a private token and temp dir); the environment to reach it."""
    pytest.importorskip("ray")
    if not sys.platform.startswith("linux") or not RAY.exists():
        pytest.skip("needs Linux and the ray command next to this Python")
    tmp = tempfile.mkdtemp(prefix="rayt", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), RAY_TMPDIR=tmp, RAY_AUTH_MODE="token",
               RAY_AUTH_TOKEN=secrets.token_hex(16),
               RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")  # keeps 127.0.0.1 as the node's address
    env.pop("RAY_ADDRESS", None)
    cmd = [str(RAY), "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port), "--num-cpus", "2",
           "--include-dashboard=false", "--disable-usage-stats", "--temp-dir", tmp]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=150)
    except subprocess.TimeoutExpired:
        _stop_head(tmp)
        shutil.rmtree(tmp, ignore_errors=True)
        pytest.skip("ray start --head did not finish within 150 s on this machine")
    if proc.returncode != 0:
        _stop_head(tmp)
        shutil.rmtree(tmp, ignore_errors=True)
        last = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        pytest.skip(f"ray start --head failed here: {last}")
    env["RAY_ADDRESS"] = f"127.0.0.1:{port}"
    try:
        yield env
    finally:
        _stop_head(tmp)
        shutil.rmtree(tmp, ignore_errors=True)


def _batch(env: dict[str, str], cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mtg_outcomes", "batch", "cases", "--no-progress", "--timeout", "30",
                             *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(out: Path) -> list[dict]:
    return [json.loads(x) for x in out.read_text().splitlines() if x.strip()]


def _kill_a_busy_worker(proc: subprocess.Popen[str]) -> int:
    """SIGKILL a Ray worker that has been running a case for 0.3 s (the loop case): 0 if none came."""
    seen: dict[int, float] = {}
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        now = time.monotonic()
        busy = {p for p, (_pp, cmd) in _processes().items() if cmd.startswith("ray::_ray_case")}
        seen = {p: seen.get(p, now) for p in busy}
        for p, since in seen.items():
            if now - since >= 0.3:
                os.kill(p, signal.SIGKILL)
                return p
        time.sleep(0.05)
    return 0


def test_ray_cluster_kill_a_worker_and_resume(ray_head: dict[str, str], tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    generate_cases(4, 7, cases)
    # a loop of ~3 s (A at 300 life): long enough to kill its worker while it runs
    (cases / "a-loop.yaml").write_text(LOOP.read_text().replace("life: 3}", "life: 300}")
                                       .replace("{A.life: 0, A.lost: true}", "{A.lost: true}"))
    proc = _batch(ray_head, tmp_path, "--executor", "ray", "--out", "ray.jsonl")
    killed = _kill_a_busy_worker(proc)
    _out, err = proc.communicate(timeout=240)
    assert killed, f"no Ray worker ran a case for 0.3 s: {err[-2000:]}"
    assert proc.returncode == 1, err[-2000:]
    first = _lines(tmp_path / "ray.jsonl")
    assert len(first) == 5
    died = [r for r in first if r.get("failure") == "died"]
    assert len(died) == 1 and died[0]["status"] == "ERROR" and "worker died" in died[0]["errors"][0]
    assert [r["status"] for r in first if r not in died] == ["OK"] * 4  # no false TIMEOUT of the others

    resume = _batch(ray_head, tmp_path, "--executor", "ray", "--out", "ray.jsonl")
    _out, err = resume.communicate(timeout=240)
    assert resume.returncode == 0, err[-2000:]
    lines = _lines(tmp_path / "ray.jsonl")
    assert lines[:5] == first and len(lines) == 6  # only the died case ran again, once
    assert lines[5]["path"] == died[0]["path"] and lines[5]["status"] == "OK"

    local = subprocess.run([sys.executable, "-m", "mtg_outcomes", "batch", "cases", "--no-progress", "--jobs", "2",
                            "--out", "local.jsonl"], cwd=tmp_path, env=ray_head, capture_output=True, text=True,
                           timeout=240)
    assert local.returncode == 0, local.stderr[-2000:]

    def strip(recs: list[dict]) -> dict[str, str]:
        return {r["path"]: json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True)
                for r in recs if r.get("failure") != "died"}

    assert strip(lines) == strip(_lines(tmp_path / "local.jsonl"))
    assert len(strip(lines)) == 5


def test_ray_start_is_bounded(tmp_path: Path) -> None:
    """Nobody answers at the address: one line, exit 2, within the start-up limit (here 3 s)."""
    pytest.importorskip("ray")
    generate_cases(1, 7, tmp_path / "cases")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MTG_OUTCOMES_RAY_START_TIMEOUT="3",
               RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mtg_outcomes", "batch", "cases", "--no-progress", "--out", "o.jsonl",
                           "--executor", "ray", "--address", f"127.0.0.1:{_free_port()}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert time.monotonic() - t0 < 30
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("mtg-outcomes: --executor ray: could not reach the Ray cluster at 127.0.0.1:")
    assert not (tmp_path / "o.jsonl").read_text()  # no case ran

"""Batch reliability (issue 48): workers die with their parent, the output lock, outputs checked
before any work, bad numbers and arguments refused with one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOOP = ROOT / "cases" / "rulings" / "stuffy-doll-guilty-conscience-loop.yaml"


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _long_case(d: Path) -> Path:
    """A forced loop of 2 x 20,000 triggers: a case that runs for tens of seconds."""
    d.mkdir(parents=True, exist_ok=True)
    text = LOOP.read_text(encoding="utf-8").replace("life: 3}", "life: 20000}")
    (d / "long.yaml").write_text(text.replace("{A.life: 0, A.lost: true}", "{A.lost: true}"), encoding="utf-8")
    return d


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_the_batch_process(tmp_path: Path) -> None:
    """kill -9 of the batch: its worker ends within seconds, not when its case ends (--timeout 0)."""
    cases = _long_case(tmp_path / "cases")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "solver", "batch", str(cases), "--jobs", "1", "--timeout", "0",
                             "--no-progress", "--out", str(tmp_path / "o.jsonl")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers: list[int] = []
        end = time.monotonic() + 60
        while not workers and time.monotonic() < end:
            workers = _children(proc.pid)
            time.sleep(0.1)
        assert workers, "the batch started no worker"
        time.sleep(1.0)  # the worker is inside its case now
        os.kill(proc.pid, signal.SIGKILL)
        end = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < end:
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
    finally:
        proc.kill()
        proc.wait()
    for w in left:  # (only if the test failed: don't leave it running)
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their batch process"

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

from ..conftest import ROOT

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
    proc = subprocess.Popen([sys.executable, "-m", "mtg_outcomes", "batch", str(cases), "--jobs", "1", "--timeout", "0",
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


CASE = ROOT / "cases" / "cards" / "black-knight-cant-be-blocked-by-white.yaml"


@pytest.fixture
def alarm():  # type: ignore[no-untyped-def]
    """A hang (an open() of a FIFO for writing) fails the test after 20 s instead of hanging it."""
    def hung(signum, frame):  # type: ignore[no-untyped-def]
        raise TimeoutError("hung")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(("argv", "flag"), [
    (["report", str(CASE), "-o", "{fifo}"], "-o: {fifo}: "),
    (["enumerate", str(CASE), "--graph", "{fifo}"], "--graph: {fifo}: "),
    (["batch", str(CASE), "--out", "{tmp}/r.jsonl", "--csv", "{fifo}", "--no-progress"], "mtg-outcomes: --csv {fifo}: "),
    (["batch", str(CASE), "--out", "{fifo}", "--no-progress"], "mtg-outcomes: --out {fifo}: "),
])
def test_a_fifo_output_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str], alarm: None,
                                                  argv: list[str], flag: str) -> None:
    from mtg_outcomes.cli import main

    fifo = tmp_path / "out.dot"
    os.mkfifo(fifo)
    args = [a.format(fifo=fifo, tmp=tmp_path) for a in argv]
    assert main(args) == 2
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert lines == [flag.format(fifo=fifo) + "is a named pipe (FIFO); give a regular file"], cap.err
    assert cap.out == "" and not (tmp_path / "r.jsonl").exists()  # nothing ran


def test_an_unwritable_report_dir_is_refused_before_any_case(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from mtg_outcomes.cli import main

    (tmp_path / "afile").write_text("x")
    out = tmp_path / "r.jsonl"
    assert main(["batch", str(CASE), "--out", str(out), "--report", str(tmp_path / "afile" / "rep"),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"mtg-outcomes: --report {tmp_path / 'afile' / 'rep'}: cannot write files")
    assert not out.exists() or out.read_text() == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="flock")
def test_a_second_batch_on_the_same_out_refuses_to_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import fcntl

    from mtg_outcomes.cli import main

    out = tmp_path / "r.jsonl"
    with open(out, "a") as other:  # another batch holds the file
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main(["batch", str(CASE), "--out", str(out), "--no-progress"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"mtg-outcomes: --out {out}: another batch is writing to it (locked); wait for it to end "
                       "or give another file"]
        assert out.read_text() == ""
    assert main(["batch", str(CASE), "--out", str(out), "--no-progress"]) == 0  # unlocked: it runs
    assert len(out.read_text().splitlines()) == 1

"""Batch runner and case generator: one line per case, resumable, errors captured, reproducible."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mtg_outcomes.batch import analyze, generate_cases, load_done
from mtg_outcomes.cli import main

from ..conftest import ROOT


def _lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("gen")
    generate_cases(6, 7, d)
    return d


def test_generate_reproducible_and_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--count", "5", "--seed", "3", str(tmp_path / "a")]) == 0
    assert main(["generate", "--count", "5", "--seed", "3", str(tmp_path / "b")]) == 0
    a = sorted((tmp_path / "a").iterdir())
    b = sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 5
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))
    assert main(["validate", str(tmp_path / "a")]) == 0


def test_batch_resume_torn_line_and_csv(cases: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    csv = tmp_path / "r.csv"
    args = ["batch", str(cases), "--jobs", "2", "--out", str(out), "--no-progress"]
    assert main(args + ["--csv", str(csv)]) == 0
    recs = _lines(out)
    assert len(recs) == 6 and {r["status"] for r in recs} == {"OK"}
    assert all(len(r["hash"]) == 64 and "seconds" in r and "outcomes" in r for r in recs)
    assert csv.read_text().count("\n") == 7
    first = out.read_bytes()
    assert main(args) == 0
    assert out.read_bytes() == first  # nothing re-run, nothing added
    # kill -9 mid-write: the last line is torn
    data = first.splitlines(keepends=True)
    out.write_bytes(b"".join(data[:3]) + data[3][: len(data[3]) // 2])
    assert main(args) == 0
    recs = _lines(out)
    assert sorted(r["path"] for r in recs) == sorted(str(p) for p in cases.iterdir())
    # deterministic apart from seconds
    strip = lambda rs: sorted(json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True) for r in rs)  # noqa: E731
    assert strip(recs) == strip(json.loads(x) for x in first.decode().splitlines())


def test_bad_case_is_error_and_others_run(cases: Path, tmp_path: Path) -> None:
    d = tmp_path / "mixed"
    d.mkdir()
    for p in sorted(cases.iterdir())[:2]:
        (d / p.name).write_bytes(p.read_bytes())
    (d / "bad.yaml").write_text("id: bad\nplayers: 3\n")
    out = tmp_path / "m.jsonl"
    assert main(["batch", str(d), "--jobs", "2", "--out", str(out), "--no-progress"]) == 1
    recs = {Path(r["path"]).name: r for r in _lines(out)}
    assert len(recs) == 3
    assert recs["bad.yaml"]["status"] == "ERROR"
    assert any("players" in e for e in recs["bad.yaml"]["errors"])
    assert sum(r["status"] == "OK" for r in recs.values()) == 2


def test_analyze_check_mode_and_load_done(tmp_path: Path) -> None:
    root = ROOT
    rec = analyze(str(root / "cases/rulings/furnace-of-rath-two-copies.yaml"), "check", 30)
    assert rec["status"] == "OK" and rec["check"]["status"] == "OK"
    out = tmp_path / "x.jsonl"
    out.write_text('{"path": "a", "hash": "h"}\n{"path": "b", "ha')
    assert [r["path"] for r in load_done(out)] == ["a"]
    assert out.read_text() == '{"path": "a", "hash": "h"}\n'


# ---------------------------------------------------------------- the local pool: hard timeout, crashes, kill -9

def _misbehave(path: str, mode: str = "enumerate", timeout: float | None = None) -> dict:
    """``analyze``, except that a case named *hang* never returns, one named *crash* exits its worker
    and one named *sigkill* has it killed."""
    import time

    name = Path(path).stem
    if name == "hang":
        time.sleep(60)
    if name == "crash":
        os._exit(3)
    if name == "sigkill":  # as the out-of-memory killer would
        os.kill(os.getpid(), __import__("signal").SIGKILL)
    return analyze(path, mode, timeout)


@pytest.fixture
def misbehaving(cases: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The generated cases plus a hanging and a crashing one; workers forked so they see the patch."""
    import threading

    import mtg_outcomes.batch as batch

    if threading.active_count() > 1 or not hasattr(os, "fork"):
        pytest.skip("the patched analyze reaches the workers only by a safe fork")
    monkeypatch.setattr(batch.pool, "analyze", _misbehave)
    monkeypatch.setattr(batch.pool, "_start_method", lambda: "fork")
    monkeypatch.setattr(batch.pool, "GRACE", 0.3)
    d = tmp_path / "mixed"
    d.mkdir()
    for p in sorted(cases.iterdir()):
        (d / p.name).write_bytes(p.read_bytes())
    first = sorted(cases.iterdir())[0].read_text()
    (d / "hang.yaml").write_text(first)
    (d / "crash.yaml").write_text(first)
    return d


@pytest.mark.parametrize("jobs", [1, 2])
def test_hard_timeout_and_crash_replace_the_worker(misbehaving: Path, tmp_path: Path, jobs: int) -> None:
    from mtg_outcomes.batch import run_batch

    out = tmp_path / "t.jsonl"
    recs = run_batch([str(misbehaving)], str(out), jobs=jobs, timeout=3.0, progress=False)  # a margin for a loaded machine
    lines = _lines(out)
    assert len(lines) == len(recs) == 8
    assert sorted(r["path"] for r in lines) == sorted(str(p) for p in misbehaving.iterdir())  # each case once
    by = {Path(r["path"]).stem: r for r in lines}
    assert by["hang"]["status"] == "TIMEOUT" and "worker terminated" in by["hang"]["errors"][0]
    assert by["crash"]["status"] == "ERROR" and "worker process died" in by["crash"]["errors"][0]
    assert all(r["status"] == "OK" for k, r in by.items() if k not in ("hang", "crash"))
    assert len(by["hang"]["hash"]) == 64


def _children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_kill_9_mid_run_then_resume_records_each_case_once(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc")
    root = ROOT
    d = tmp_path / "cases"
    generate_cases(150, 11, d)
    out = tmp_path / "k.jsonl"
    cmd = [sys.executable, "-m", "mtg_outcomes.cli", "batch", str(d), "--jobs", "2", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 20):
        time.sleep(0.005)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert workers and out.read_bytes().count(b"\n") < 150  # killed mid-run, workers busy
    # the workers notice the parent is gone (their pipe reaches EOF) and exit instead of lingering
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)
    assert subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL).returncode == 0
    recs = _lines(out)
    assert sorted(r["path"] for r in recs) == sorted(str(p) for p in d.iterdir())


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_every_start_method_gives_the_same_lines(cases: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 method: str) -> None:
    import multiprocessing as mp

    import mtg_outcomes.batch as batch

    if method not in mp.get_all_start_methods():
        pytest.skip(f"no {method} here")
    if method == "fork" and __import__("threading").active_count() > 1:
        pytest.skip("forking a process with threads is unsafe")
    ref = tmp_path / "ref.jsonl"
    assert main(["batch", str(cases), "--jobs", "2", "--out", str(ref), "--no-progress"]) == 0
    monkeypatch.setattr(batch.pool, "_start_method", lambda: method)
    out = tmp_path / f"{method}.jsonl"
    assert main(["batch", str(cases), "--jobs", "2", "--out", str(out), "--no-progress"]) == 0
    assert _stable(_lines(out)) == _stable(_lines(ref))


def _stable(records: list[dict]) -> list[str]:
    return sorted(json.dumps({k: v for k, v in r.items() if k != "seconds"}, sort_keys=True) for r in records)


def test_ray_executor_gives_the_same_lines_as_local(cases: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main(["batch", str(cases), "--jobs", "2", "--out", str(local), "--no-progress"]) == 0
    assert main(["batch", str(cases), "--jobs", "2", "--out", str(remote), "--executor", "ray", "--no-progress"]) == 0
    assert len(_lines(remote)) == 6
    assert _stable(_lines(remote)) == _stable(_lines(local))


def test_ray_not_installed_message(cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # "import ray" now fails as if it were absent
    assert main(["batch", str(cases), "--out", str(tmp_path / "o.jsonl"), "--executor", "ray"]) == 2
    assert "ray is not installed: pip install '.[cluster]'" in capsys.readouterr().err




# ---------------------------------------------------------------- check mode fails the run like `check`

RULING = """\
id: {id}
format: standard
players:
  - {{name: A}}
  - {{name: you, life: 20}}
battlefield:
  - {{id: dictate, card: Dictate of the Twin Gods, controller: A}}
  - {{id: griffin, card: Decorated Griffin, controller: you}}
  - {{id: giant, name: Hill Giant, controller: A, types: [creature], colors: [red], power: 3, toughness: 3}}
effects:
  - {{id: g1, shield: 1, to: you, combat: true, controller: you, source: griffin}}
actions:
  - damage: [{{from: giant, to: you, amount: 3, combat: true}}]
expect:
  complete: {complete}
  outcomes:
{outcomes}
"""


def _ruling(d: Path, name: str, complete: bool, lives: list[int]) -> None:
    outcomes = "\n".join(f"    - {{you.life: {n}}}" for n in lives)
    (d / f"{name}.yaml").write_text(RULING.format(id=name, complete=str(complete).lower(), outcomes=outcomes))


def test_check_mode_incomplete_and_unreachable_fail_the_run(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "rulings"
    d.mkdir()
    _ruling(d, "right", True, [15, 16])
    _ruling(d, "also-right", False, [16])
    _ruling(d, "incomplete", True, [16])
    out = tmp_path / "c.jsonl"
    args = ["batch", str(d), "--jobs", "2", "--out", str(out), "--mode", "check", "--no-progress"]
    assert main(args) == 1  # as `check` on the same files
    assert main(["check", str(d)]) == 1
    capsys.readouterr()
    assert main(args) == 1  # resumed, nothing re-run: the recorded ruling still fails the run
    text = capsys.readouterr().out
    assert "2 OK, 1 INCOMPLETE, 0 UNREACHABLE; 1 failed (3 cases)" in text.splitlines()[-1]
    _ruling(d, "unreachable", False, [14])
    assert main(args) == 1
    assert "2 OK, 1 INCOMPLETE, 1 UNREACHABLE; 2 failed (4 cases)" in capsys.readouterr().out.splitlines()[-1]
    (d / "incomplete.yaml").unlink()
    (d / "unreachable.yaml").unlink()
    clean = tmp_path / "clean.jsonl"
    assert main(["batch", str(d), "--out", str(clean), "--mode", "check", "--no-progress"]) == 0
    assert "2 OK, 0 INCOMPLETE, 0 UNREACHABLE; 0 failed (2 cases)" in capsys.readouterr().out


def test_resume_does_not_take_another_modes_records(cases: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert main(["batch", str(cases), "--out", str(out), "--no-progress"]) == 0
    assert main(["batch", str(cases), "--out", str(out), "--mode", "check", "--no-progress"]) == 0
    recs = _lines(out)
    assert sorted(r["mode"] for r in recs) == ["check"] * 6 + ["enumerate"] * 6
    assert {r["status"] for r in recs if r["mode"] == "check"} == {"NO-EXPECT"}


# ---------------------------------------------------------------- --out and --csv that can't be written

def _cli(*argv: str) -> tuple[int, str, str]:
    """The CLI in a child process under a 2 GB address-space limit and a timeout."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))

    root = ROOT
    proc = subprocess.run([sys.executable, "-m", "mtg_outcomes", *argv], cwd=root, capture_output=True, text=True,
                          timeout=60, preexec_fn=limit)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("target, reason", [
    ("{tmp}/afile/r.jsonl", "{tmp}/afile is not a directory"),
    ("{tmp}/adir", "is a directory; give a file name"),
    ("", "the path is empty"),
    ("/proc/no-such-process/r.jsonl", "cannot open for writing: No such file or directory"),
    ("/proc/self/status", ""),  # refused by the kernel (EINVAL as root, EACCES otherwise)
    ("/dev/full", "cannot write: No space left on device"),
])
def test_unwritable_out_is_one_line_exit_2(cases: Path, tmp_path: Path, target: str, reason: str) -> None:
    needs = {"/proc": "/proc/self/status", "/dev": "/dev/full"}.get("/" + target.split("/")[1] if target else "")
    if needs and not Path(needs).exists():
        pytest.skip(f"no {needs}")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    target = target.format(tmp=tmp_path)
    one = sorted(cases.iterdir())[0]
    code, out, err = _cli("batch", str(one), "--out", target, "--jobs", "1", "--no-progress")
    assert "Traceback" not in out + err and "MemoryError" not in err, err
    assert code == 2, out + err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mtg-outcomes: --out {target}".rstrip()), err
    assert reason.format(tmp=tmp_path) in lines[0]


@pytest.mark.parametrize("target, reason", [
    ("{tmp}", "is a directory; give a file name"),
    ("{tmp}/r.jsonl", "the same file as --out"),
    ("/dev/full", "cannot write: No space left on device"),
])
def test_unwritable_csv_is_one_line_exit_2(cases: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           target: str, reason: str) -> None:
    if target.startswith("/dev") and not Path(target).exists():
        pytest.skip(f"no {target}")
    target = target.format(tmp=tmp_path)
    code = main(["batch", str(sorted(cases.iterdir())[0]), "--out", str(tmp_path / "r.jsonl"), "--csv", target,
                 "--no-progress"])
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"mtg-outcomes: --csv {target}: "), err
    assert reason in lines[0]


def test_out_device_is_written_not_read_back(cases: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null")
    assert main(["batch", str(cases), "--out", "/dev/null", "--no-progress"]) == 0
    assert "6 OK; 0 failed (6 cases)" in capsys.readouterr().out


def test_load_done_bounds_a_line_and_cuts_a_torn_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mtg_outcomes.batch as batch

    monkeypatch.setattr(batch.output, "MAX_LINE", 100)
    out = tmp_path / "x.jsonl"
    huge = json.dumps({"path": "huge", "hash": "h", "pad": "x" * 500})
    out.write_text(f'{{"path": "a", "hash": "h"}}\n{huge}\nnot json\n{{"path": "b", "hash": "h"}}\n'
                   f'{{"path": "torn", "pad": "{"y" * 300}')
    assert [r["path"] for r in load_done(out)] == ["a", "b"]  # the overlong line is skipped, unread
    assert out.read_text().endswith('{"path": "b", "hash": "h"}\n')  # the torn (and overlong) tail is cut
    assert huge in out.read_text()  # a line in the middle stays in the file


# ---------------------------------------------------------------- died workers are retried, errors are not

def test_died_worker_is_retried_on_resume_and_errors_are_not(misbehaving: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import mtg_outcomes.batch as batch
    from mtg_outcomes.batch import run_batch

    first = sorted(misbehaving.iterdir())[0].read_text()
    (misbehaving / "sigkill.yaml").write_text(first)
    (misbehaving / "bad.yaml").write_text("id: bad\nplayers: 3\n")
    out = tmp_path / "d.jsonl"
    run_batch([str(misbehaving)], str(out), jobs=2, timeout=0.5, progress=False)
    by = {Path(r["path"]).stem: r for r in _lines(out)}
    assert by["crash"]["failure"] == "died" and "exited with code 3" in by["crash"]["errors"][0]
    assert by["sigkill"]["failure"] == "died" and "killed by SIGKILL" in by["sigkill"]["errors"][0]
    assert by["bad"]["status"] == "ERROR" and by["bad"]["failure"] == "input"
    assert by["hang"]["failure"] == "timeout" and by["hang"]["timeout"] == 0.5
    assert all("failure" not in r for r in by.values() if r["status"] == "OK")
    # the machine recovers (the analysis no longer kills its worker): resume
    monkeypatch.setattr(batch.pool, "analyze", lambda p, m="enumerate", t=None: analyze(p, m, t) if Path(p).stem != "hang"
                        else _misbehave(p, m, t))
    recs = run_batch([str(misbehaving)], str(out), jobs=2, timeout=0.5, progress=False)
    lines = [Path(r["path"]).stem for r in _lines(out)]
    assert lines.count("crash") == lines.count("sigkill") == 2  # retried
    assert lines.count("bad") == 1 and lines.count("hang") == 1  # deterministic: not re-run
    assert len(lines) == 10 + 2
    latest = {Path(r["path"]).stem: r for r in recs}
    assert len(recs) == 10 and latest["crash"]["status"] == latest["sigkill"]["status"] == "OK"
    # a longer limit retries the timeout; the same limit again does not
    run_batch([str(misbehaving)], str(out), jobs=2, timeout=0.6, progress=False)
    run_batch([str(misbehaving)], str(out), jobs=2, timeout=0.6, progress=False)
    assert [Path(r["path"]).stem for r in _lines(out)].count("hang") == 2


def test_memory_error_counts_as_died(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mtg_outcomes.batch import records

    def oom(path: str) -> None:
        raise MemoryError

    case = tmp_path / "c.yaml"
    case.write_text("id: c\n")
    monkeypatch.setattr(records, "load_case", oom)
    rec = analyze(str(case), "enumerate", 5)
    assert rec["status"] == "ERROR" and rec["failure"] == "died" and "out of memory" in rec["errors"][0]


def test_summary_counts_the_record_of_the_file_as_it_is_now(cases: Path, tmp_path: Path) -> None:
    """Edit a case to be bad, then back: the run's answer is the record of the current content."""
    from mtg_outcomes.batch import run_batch

    d = tmp_path / "one"
    d.mkdir()
    case = d / "c.yaml"
    good = sorted(cases.iterdir())[0].read_text()
    out = tmp_path / "e.jsonl"
    case.write_text(good)
    assert [r["status"] for r in run_batch([str(d)], str(out), progress=False)] == ["OK"]
    case.write_text("id: bad\nplayers: 3\n")
    assert [r["status"] for r in run_batch([str(d)], str(out), progress=False)] == ["ERROR"]
    case.write_text(good)
    assert [r["status"] for r in run_batch([str(d)], str(out), progress=False)] == ["OK"]  # nothing re-run
    assert len(_lines(out)) == 2


def test_out_that_is_not_a_results_file_is_left_alone(cases: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    one = sorted(cases.iterdir())[0]
    mistaken = tmp_path / "case.yaml"  # --out given a case file by mistake
    mistaken.write_bytes(one.read_bytes() + b"no newline at the end")
    before = mistaken.read_bytes()
    assert main(["batch", str(one), "--out", str(mistaken), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err == f"mtg-outcomes: --out {mistaken}: not a batch results file (JSON lines); give a new file name\n"
    assert mistaken.read_bytes() == before  # neither cut nor appended to

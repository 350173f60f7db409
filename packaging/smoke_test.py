"""Smoke test of the BUILT offline demo: unpack, cut the network, ask as two people.

Usage: ``python packaging/smoke_test.py [--archive dist/regdesk-*.tar.gz]``

The archive is unpacked into a scratch folder and run the way a presenter
runs it on a laptop: no network (a fresh user+network namespace with only
loopback up, via ``unshare -rn``), no Python on ``PATH``, no ``PYTHONPATH``,
``HOME`` in the scratch folder. It then

* prints the version and the demo organisation's ground truth (``ground-truth``),
* asks hong "나 육아휴직 며칠 남았어?" through the CLI and expects hong's
  remaining days from the ground truth,
* asks "20090001 사번 직원 육아휴직 얼마나 썼어?" as cho and as hong, through the
  CLI (``ask --json``) and through the window (``gui --offscreen --split
  hong,cho``): cho must get 20090001's used days, hong a not-found answer,
* runs the window again with a fontconfig that lists no fonts: the bundled
  Korean font must be used and have a glyph for every character of both
  answers (with the machine's fonts, an installed Korean font must win),
* runs the public scenario suite (``tests/scenarios/*.yaml``) with the bundle,
* checks the bundle folder is unchanged (state goes to the user data dir),

and writes sizes and cold-start times (packaged vs ``.venv/bin/regdesk``) to
``bench/results/packaging.json``. Exit status 0 only when every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for the one shared "not found" wording

from agent_core.scenarios import NOT_FOUND_PATTERNS  # noqa: E402

OWN_LEAVE_QUESTION = "나 육아휴직 며칠 남았어?"
OTHER_LEAVE_QUESTION = "20090001 사번 직원 육아휴직 얼마나 썼어?"
OTHER_EMP_NO = "20090001"
SOURCE_REGDESK = ROOT / ".venv" / "bin" / "regdesk"
RESULTS = ROOT / "bench" / "results" / "packaging.json"


class SmokeFailure(AssertionError):
    """A check of the built artefact failed."""


def _tree_size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink()
    }


def network_prefix() -> tuple[list[str], dict[str, str], str]:
    """How to run a command with no network, with a dead proxy set either way.

    Returns:
        The command prefix, extra environment, and a description.
    """
    if shutil.which("unshare") and shutil.which("ip"):
        probe = subprocess.run(
            ["unshare", "-rn", "sh", "-c", "ip link set lo up"],
            capture_output=True,
            check=False,
        )
        if probe.returncode == 0:
            # A fresh network namespace has only loopback, and it starts DOWN.
            script = 'ip link set lo up && exec "$0" "$@"'
            prefix = ["unshare", "-rn", "sh", "-c", script]
            return prefix, DEAD_PROXY, "unshare -rn (loopback only) + dead proxy"
    return [], DEAD_PROXY, "a dead proxy only (unshare unavailable)"


DEAD_PROXY = {
    name: "http://127.0.0.1:9"
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy")
}
"""A company laptop's proxy settings, pointing at a port nobody answers, and no
``no_proxy``: the app's own loopback calls to the embedded services must not
go through it (they used to, and every answer was ``ProxyError``)."""


def clean_env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    """A presenter's environment: no Python, no venv, HOME in scratch."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": str(home.parent / "tmp"),
    }
    (home.parent / "tmp").mkdir(exist_ok=True)
    env.update(extra)
    return env


class Runner:
    """Runs one regdesk executable with a fixed prefix and environment."""

    def __init__(self, executable: Path, prefix: list[str], env: dict[str, str]) -> None:
        self.executable = executable
        self.prefix = prefix
        self.env = env

    def run(self, *args: str, timeout: float = 300.0) -> tuple[str, float]:
        """Run ``regdesk ARGS``; return stdout and wall time; raise on failure."""
        started = time.perf_counter()
        result = subprocess.run(
            [*self.prefix, str(self.executable), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            raise SmokeFailure(
                f"regdesk {' '.join(args)} exited {result.returncode}\n"
                f"stdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-4000:]}"
            )
        return result.stdout, elapsed

    def json(self, *args: str) -> tuple[Any, float]:
        """Run and parse stdout as JSON."""
        out, elapsed = self.run(*args)
        try:
            return json.loads(out), elapsed
        except json.JSONDecodeError as exc:
            raise SmokeFailure(f"regdesk {' '.join(args)} did not print JSON: {out[:500]}") from exc

    def median_time(self, *args: str, repeat: int) -> float:
        """Median wall time of ``repeat`` runs (cold processes each time)."""
        return statistics.median(self.run(*args)[1] for _ in range(repeat))


def used_days(truth: dict[str, Any], emp_no: str) -> int:
    """Childcare days ``emp_no`` (the HR officer, cho) has used, from the ground truth.

    Args:
        truth: The output of ``regdesk ground-truth``.
        emp_no: The employee number asked about.

    Returns:
        The used days.
    """
    if truth["personas"]["cho"]["emp_no"] != emp_no:
        raise SmokeFailure(f"the question asks about {emp_no}, who is not cho in this build")
    return int(truth["hr"]["hr_officer_childcare_used"])


def _has_number(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def check_answers(hong: str, cho: str, used: int, where: str) -> None:
    """cho sees 20090001's figure; hong is told it is not available."""
    if not _has_number(cho, used):
        raise SmokeFailure(f"{where}: cho's answer lacks {used} days:\n{cho}")
    if not NOT_FOUND_PATTERNS.search(hong):
        raise SmokeFailure(f"{where}: hong's answer does not say not-found:\n{hong}")
    if f"{used}일" in hong:
        raise SmokeFailure(f"{where}: hong's answer shows {OTHER_EMP_NO}'s {used} days:\n{hong}")


EMPTY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""
"""A fontconfig with no font folders at all: a machine without any installed font."""

FONT_SHOT = ROOT / "build" / "smoke-korean-font.png"
"""Where the no-installed-fonts screenshot is kept after the run, to look at."""


def _glyph_check(window: dict[str, Any], where: str) -> dict[str, Any]:
    font = window.get("font")
    if not isinstance(font, dict):
        raise SmokeFailure(f"{where}: the headless driver's --json has no font report")
    if font["missing"]:
        raise SmokeFailure(f"{where}: no glyph in {font['family']} for {font['missing']}")
    if not font["hangul"]:
        raise SmokeFailure(f"{where}: the answers have no Hangul to check: {window['panes']}")
    return font


def check_korean_font(gui: Runner, scratch: Path, window: dict[str, Any]) -> dict[str, Any]:
    """Korean renders from the bundled font on a machine with no fonts installed.

    The split-view run above had the machine's fonts (an installed Korean font
    must win over the bundled one); this one runs the window with a fontconfig
    that lists no font folder, so the only font is the bundle's, and every
    character of both answers must have a glyph in it.

    Args:
        gui: Runs the packaged app offscreen.
        scratch: The scratch folder.
        window: The split-view run's ``--json`` output (installed fonts).

    Returns:
        What each run used and what the font choice cost at start-up.
    """
    installed = _glyph_check(window, "installed fonts")
    if installed["korean_font"].startswith("bundled"):
        raise SmokeFailure(f"the bundled font was registered beside an installed one: {installed}")
    config = scratch / "fontconfig" / "fonts.conf"
    config.parent.mkdir()
    config.write_text(EMPTY_FONTCONFIG.format(cache=scratch / "fontconfig-cache"), encoding="utf-8")
    no_fonts = dict(gui.env, FONTCONFIG_FILE=str(config), FONTCONFIG_PATH=str(config.parent))
    shot = scratch / "korean-font.png"
    bare, bare_s = Runner(gui.executable, gui.prefix, no_fonts).json(
        "gui", "--offscreen", "--split", "hong,cho", "--ask", OWN_LEAVE_QUESTION,
        "--screenshot", str(shot), "--json",
    )  # fmt: skip
    bundled = _glyph_check(bare, "no installed fonts")
    if not bundled["korean_font"].startswith("bundled: Noto Sans CJK KR"):
        raise SmokeFailure(f"with no installed fonts the bundled one was not used: {bundled}")
    if not shot.is_file() or shot.stat().st_size == 0:
        raise SmokeFailure("the no-installed-fonts screenshot was not written")
    FONT_SHOT.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, FONT_SHOT)
    return {
        "installed_fonts": installed["korean_font"],
        "installed_check_ms": installed["check_ms"],
        "no_fonts": bundled["korean_font"],
        "no_fonts_check_ms": bundled["check_ms"],
        "no_fonts_family": bundled["family"],
        "hangul_checked": bundled["hangul"],
        "missing_glyphs": bundled["missing"],
        "no_fonts_gui_split_s": round(bare_s, 3),
        "screenshot": str(FONT_SHOT.relative_to(ROOT)),
    }


def smoke(archive: Path, source_regdesk: Path | None, repeat: int) -> dict[str, Any]:
    """Run every check; return the figures.

    Args:
        archive: The built ``regdesk-*.tar.gz``.
        source_regdesk: The source install's ``regdesk`` to compare start-up with.
        repeat: Runs per timing (median).

    Returns:
        The figures written to ``bench/results/packaging.json``.
    """
    figures: dict[str, Any] = {"archive": archive.name, "archive_bytes": archive.stat().st_size}
    with tempfile.TemporaryDirectory(prefix="regdesk-smoke-") as scratch_name:
        scratch = Path(scratch_name)
        started = time.perf_counter()
        with tarfile.open(archive) as tar:
            tar.extractall(scratch / "unpacked", filter="tar")
        figures["unpack_s"] = round(time.perf_counter() - started, 2)
        bundle = scratch / "unpacked" / "regdesk"
        figures["unpacked_bytes"] = _tree_size(bundle)
        before = _snapshot(bundle)

        prefix, extra_env, isolation = network_prefix()
        figures["network_isolation"] = isolation
        home = scratch / "home"
        home.mkdir()
        env = clean_env(home, extra_env)
        packaged = Runner(bundle / "regdesk", prefix, env)

        version_out, _ = packaged.run("--version")
        if not version_out.startswith("regdesk "):
            raise SmokeFailure(f"--version printed {version_out!r}")
        figures["version"] = version_out.split()[1]
        truth, _ = packaged.json("ground-truth")
        used = used_days(truth, OTHER_EMP_NO)
        remaining = int(truth["demo_employee"]["remaining"])

        own, own_s = packaged.json("ask", "--as", "hong", "--json", OWN_LEAVE_QUESTION)
        if not _has_number(own["answer"], remaining):
            raise SmokeFailure(f"hong's own leave answer lacks {remaining}:\n{own['answer']}")
        cli_cho, _ = packaged.json("ask", "--as", "cho", "--json", OTHER_LEAVE_QUESTION)
        cli_hong, _ = packaged.json("ask", "--as", "hong", "--json", OTHER_LEAVE_QUESTION)
        check_answers(cli_hong["answer"], cli_cho["answer"], used, "CLI")

        gui_env = dict(env, QT_QPA_PLATFORM="offscreen")
        gui = Runner(bundle / "regdesk", prefix, gui_env)
        shot = scratch / "split.png"
        window, gui_s = gui.json(
            "gui", "--offscreen", "--split", "hong,cho", "--ask", OTHER_LEAVE_QUESTION,
            "--screenshot", str(shot), "--json",
        )  # fmt: skip
        panes = {p["persona"]: p["answer"] for p in window["panes"]}
        if set(panes) != {"hong", "cho"}:
            raise SmokeFailure(f"split view answered for {sorted(panes)}, not hong and cho")
        check_answers(panes["hong"], panes["cho"], used, "GUI split view")
        if not shot.is_file() or shot.stat().st_size == 0:
            raise SmokeFailure("the split view screenshot was not written")

        figures["korean_font"] = check_korean_font(gui, scratch, window)

        # The public scenario suite, run by the packaged app itself.
        suite_out = scratch / "scenarios.json"
        suites = sorted(str(p) for p in (ROOT / "tests" / "scenarios").glob("*.yaml"))
        _, scenarios_s = packaged.run("scenarios", "--json", str(suite_out), *suites)
        suite = json.loads(suite_out.read_text(encoding="utf-8"))
        if suite["failed"] or not suite["passed"]:
            counts = f"{suite['passed']} passed, {suite['failed']} failed"
            raise SmokeFailure(f"scenario suite with the bundle: {counts}")
        figures["scenarios"] = {"passed": suite["passed"], "failed": suite["failed"]}
        figures["packaged_scenarios_s"] = round(scenarios_s, 3)

        data_dir = home / ".local" / "share" / "regdesk"
        if not data_dir.is_dir():
            raise SmokeFailure(f"no user data written to {data_dir}")
        if _snapshot(bundle) != before:
            raise SmokeFailure("running the app changed files inside the bundle")

        figures["checks"] = {
            "own_leave_remaining": remaining,
            "cho_sees_used_days": used,
            "hong_told_not_found": True,
            "gui_split_view_differs": True,
            "korean_without_installed_fonts": True,
            "bundle_unchanged": True,
        }
        figures["packaged_version_s"] = round(packaged.median_time("--version", repeat=repeat), 3)
        figures["packaged_ask_s"] = round(
            statistics.median(
                [own_s]
                + [
                    packaged.run("ask", "--as", "hong", "--json", OWN_LEAVE_QUESTION)[1]
                    for _ in range(repeat - 1)
                ]
            ),
            3,
        )
        figures["packaged_gui_split_s"] = round(gui_s, 3)
        if source_regdesk is not None and source_regdesk.exists():
            source_env = dict(os.environ, HOME=str(home), REGDESK_DATA_DIR=str(scratch / "src"))
            source = Runner(source_regdesk, [], source_env)
            figures["source_version_s"] = round(source.median_time("--version", repeat=repeat), 3)
            figures["source_ask_s"] = round(
                source.median_time("ask", "--as", "hong", "--json", OWN_LEAVE_QUESTION,
                                   repeat=repeat),
                3,
            )  # fmt: skip
    figures["timing_runs"] = repeat
    figures["cpus"] = os.cpu_count()
    return figures


def main(argv: list[str] | None = None) -> int:
    """Command line: run the smoke test, print and save the figures."""
    parser = argparse.ArgumentParser(description="Smoke-test the built RegDesk archive.")
    parser.add_argument("--archive", type=Path, help="default: newest dist/regdesk-*.tar.gz")
    parser.add_argument("--source-regdesk", type=Path, default=SOURCE_REGDESK)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (median)")
    args = parser.parse_args(argv)
    archive = args.archive
    if archive is None:
        candidates = sorted(
            (ROOT / "dist").glob("regdesk-*.tar.gz"), key=lambda p: p.stat().st_mtime
        )
        if not candidates:
            print("smoke_test: no archive in dist/; run packaging/build first", file=sys.stderr)
            return 2
        archive = candidates[-1]
    try:
        figures = smoke(archive, args.source_regdesk, max(1, args.repeat))
    except SmokeFailure as exc:
        print(f"SMOKE TEST FAILED: {exc}", file=sys.stderr)
        return 1
    build_report = ROOT / "build" / "strip-report.json"
    if build_report.exists():
        strip = json.loads(build_report.read_text(encoding="utf-8"))
        figures["bundle_bytes_before_strip"] = strip["bytes_before"]
        figures["bundle_bytes_after_strip"] = strip["bytes_after"]
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))
    print(f"smoke test passed; figures in {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

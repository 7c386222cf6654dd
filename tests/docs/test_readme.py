"""The README and the docs pages run as written: the tour (Python and shell) and every Python
example; the README stays a front page; every relative link and anchor resolves.

Each ``print(...)  # expected`` line of a Python example must print what its comment says.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from accord import Accord
from accord.crypto import Ed25519Signer
from tests.conftest import REPO_ROOT

# The pages whose examples run here, in reading order.
PAGES = (
    "README.md",
    "docs/extending.md",
    "docs/agents.md",
    "docs/disputes.md",
    "docs/cli.md",
    "docs/verification.md",
    "docs/configuration.md",
    "docs/service.md",
    "docs/webhooks.md",
    "docs/benchmarks.md",
)
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>\w*)\n(?P<body>.*?)\n```", re.DOTALL)
LEAD_MARK = "<!-- LEAD:"


@dataclass(frozen=True)
class Block:
    page: str
    lang: str
    body: str
    section: str
    lead_check: bool  # marked for the lead: depends on another branch, not run here


def blocks() -> list[Block]:
    found: list[Block] = []
    for page in PAGES:
        text = (REPO_ROOT / page).read_text(encoding="utf-8")
        found.extend(_page_blocks(page, text))
    return found


def _page_blocks(page: str, text: str) -> list[Block]:
    found: list[Block] = []
    for match in FENCE.finditer(text):
        heading = re.findall(r"^##+ (.+)$", text[: match.start("body")], re.MULTILINE)
        found.append(
            Block(
                page=page,
                lang=match["lang"],
                body=match["body"],
                section=heading[-1] if heading else "",
                lead_check=match["before"].startswith(LEAD_MARK),
            )
        )
    return found


def python_blocks(section: str) -> list[str]:
    return [b.body for b in blocks() if b.lang == "python" and b.section == section]


def run_python(code: str, namespace: dict[str, object] | None = None) -> list[str]:
    """Run ``code``; check each commented print against its comment; the printed lines.

    ``print`` is captured on its own (not stdout), so what the library logs cannot mix in.
    """
    printed: list[str] = []

    def capture(*values: object, sep: str = " ", **_: object) -> None:
        printed.append(sep.join(str(v) for v in values))

    scope = namespace if namespace is not None else {}
    scope["print"] = capture
    exec(compile(code, "README.md", "exec"), scope)
    expected = [line.split("#", 1)[1].strip() for line in _print_lines(code) if "#" in line]
    commented = [p for p, line in zip(printed, _print_lines(code), strict=False) if "#" in line]
    assert commented == expected
    return printed


def _print_lines(code: str) -> list[str]:
    return [line for line in code.splitlines() if line.lstrip().startswith("print(")]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("ACCORD_DB", "ACCORD_KEYS", "ACCORD_KEY_PASSPHRASE"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_the_readme_uses_one_import_style() -> None:
    for block in blocks():
        if block.lang == "python":
            imports = re.findall(r"^(from \S+ import|import \S+)", block.body, re.MULTILINE)
            assert set(imports) <= {"from accord import"}, block.body


def test_every_python_example_is_run_by_a_test_here() -> None:
    sections = [(b.page, b.section) for b in blocks() if b.lang == "python"]
    parking = "Waiting for a person: parking a task and resuming it elsewhere"
    probe = "A tie-breaker probe (handing open disagreements to the next session)"
    assert sections == [
        ("README.md", "A five-minute tour"),
        ("docs/extending.md", "A source verifier"),
        ("docs/extending.md", probe),
        ("docs/extending.md", "A strategy"),
        ("docs/agents.md", parking),
        ("docs/agents.md", parking),
        ("docs/agents.md", "Agents filing their own positions: collecting cases"),
        ("docs/disputes.md", "Disputes (DCP-07)"),
        ("docs/verification.md", "Verification"),
    ]


def test_the_readme_is_a_front_page_that_starts_with_the_two_commands() -> None:
    assert len(README.splitlines()) <= 300
    first = next(b for b in blocks() if b.page == "README.md" and b.lang == "sh")
    commands = [line.split("#")[0].strip() for line in first.body.splitlines()]
    assert [c for c in commands if c] == ["make run", "make test"]


def _anchors(text: str) -> set[str]:
    outside = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    headings = re.findall(r"^#+ (.+)$", outside, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", [*PAGES, "docs/internals.md", "docs/architecture.md"])
def test_every_relative_link_and_anchor_on_a_page_resolves(page: str) -> None:
    source = REPO_ROOT / page
    text = source.read_text(encoding="utf-8")
    outside = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    for target in re.findall(r"\]\(([^)\s]+)\)", outside):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (source.parent / path).resolve() if path else source
        assert linked.exists(), f"{page}: {target} names no file"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked.read_text(encoding="utf-8")), f"{page}: {target}"


@pytest.mark.slow
def test_the_tour_pasted_into_python_and_a_shell_works(scratch: Path) -> None:
    [tour] = python_blocks("A five-minute tour")
    run_python(tour)
    shell = [b.body for b in blocks() if b.lang == "sh" and b.section == "A five-minute tour"]
    runnable = [
        b.body
        for b in blocks()
        if b.lang == "sh" and b.section == "A five-minute tour" and not b.lead_check
    ]
    assert shell == runnable  # every step of the tour runs, the reviewer decision included
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("ACCORD_DB", None)
    env.pop("ACCORD_KEYS", None)
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", "\n".join(runnable)],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"status": "escalated"' in result.stdout
    assert "Refund 18k to a flagged customer?" in result.stdout
    assert "apr:" in result.stdout
    assert "VERIFIED" in result.stdout
    assert "1 reviewer-signed decision(s)" in " ".join(result.stdout.split())


@pytest.mark.slow
def test_the_disputes_example_runs_in_python_and_the_shell(scratch: Path) -> None:
    [example] = python_blocks("Disputes (DCP-07)")
    run_python(example)
    [shell] = [b.body for b in blocks() if b.lang == "sh" and b.section == "Disputes (DCP-07)"]
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["COLUMNS"] = "200"  # a table folds long cells on a narrow terminal
    env.pop("ACCORD_DB", None)
    env.pop("ACCORD_KEYS", None)
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", shell],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("policy_conflict") == 2  # opened, then listed
    assert "0 deadline(s) fired" in result.stdout


def test_the_verifier_example_runs(scratch: Path) -> None:
    [example] = python_blocks("A source verifier")
    run_python(example)


def test_the_probe_example_runs(scratch: Path) -> None:
    [example] = python_blocks(
        "A tie-breaker probe (handing open disagreements to the next session)"
    )
    assert run_python(example) == ["['pending']", "('agent:audit',)"]


def test_the_strategy_example_installed_as_a_package_decides_a_case(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's module, entry point and accord.yaml, installed as pip would (a package and
    its .dist-info on sys.path), settle an escalated case."""
    section = [b for b in blocks() if b.section == "A strategy"]
    module = next(b.body for b in section if b.lang == "python")
    points = tomllib.loads(next(b.body for b in section if b.lang == "toml"))
    config = next(b.body for b in section if b.lang == "yaml")
    site = scratch / "site"
    (site / "mypkg").mkdir(parents=True)
    (site / "mypkg" / "__init__.py").write_text("")
    (site / "mypkg" / "strategies.py").write_text(module)
    dist_info = site / "mypkg-0.1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: mypkg\nVersion: 0.1.0\n")
    group = points["project"]["entry-points"]["accord.strategies"]
    (dist_info / "entry_points.txt").write_text(
        "[accord.strategies]\n" + "".join(f"{k} = {v}\n" for k, v in group.items())
    )
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    (scratch / "accord.yaml").write_text(config)
    accord = Accord.open(scratch / "accord.yaml", db_url="sqlite:///s.db", keys_dir="k")
    try:
        case = accord.settle(
            "Refund?",
            [
                {"agent": "agent:support", "output": "approve"},
                {"agent": "agent:risk", "output": "reject"},
            ],
        )
    finally:
        accord.close()
        sys.modules.pop("mypkg.strategies", None)
        sys.modules.pop("mypkg", None)
    assert case.strategy == "senior_first"
    assert case.decision is not None
    assert case.decision.winner == "agent:support"


def test_the_parking_example_resumes_in_another_accord(scratch: Path) -> None:
    park, resume = python_blocks("Waiting for a person: parking a task and resuming it elsewhere")
    first: dict[str, object] = {}
    run_python(park, first)
    Path("accord.yaml").write_text('approvals:\n  principals: {"human:alice": []}\n')
    person = Accord.open("accord.yaml", db_url="sqlite:///park.db", keys_dir="park-keys")
    try:
        [item] = person.approvals.list(status="pending")
        alice = Ed25519Signer.from_seed(b"\x07" * 32)  # her reviewer key
        person.register_reviewer_key(alice.public_key, "human:alice")
        person.decide(item.item_id, alice, choice="reject")
    finally:
        person.close()
    printed = run_python(resume, {"task_id": first["task_id"]})
    assert printed == ["{'order': 991, 'step': 'refund'} chosen reject"]


def test_the_collecting_example_settles_once_both_agents_submitted(scratch: Path) -> None:
    [example] = python_blocks("Agents filing their own positions: collecting cases")
    assert run_python(example) == ["settled agent:billing"]


def test_the_auditor_example_verifies_with_public_keys_only(scratch: Path) -> None:
    [example] = python_blocks("Verification")
    service = Accord.open(db_url="sqlite:///audited.db", keys_dir="service-keys")
    try:
        service.settle(
            "Total of invoice 4411",
            [
                {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
                {"agent": "agent:audit", "output": 1450, "confidence": 0.6},
            ],
        )
        kid = service.ledger.signer.kid
    finally:
        service.close()
    auditor = scratch / "auditor-keys"
    auditor.mkdir(mode=0o700)
    for public in (scratch / "service-keys").glob("*.pub.json"):
        (auditor / public.name).write_bytes(public.read_bytes())
    [pinned] = re.findall(r'"([0-9a-f]{32})"', example)
    scope: dict[str, object] = {"db_url": "sqlite:///audited.db"}
    run_python(example.replace(pinned, kid), scope)
    report = scope["report"]
    assert report.trust_root == kid
    assert report.cases == 1

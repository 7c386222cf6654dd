"""The case page over HTTP (no browser): agreed fields folded, evidence checked, analysis,
timeline, precedents, preset reasons and deny."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import update

from accord.api.ui.case_view import analysis_sections
from accord.app import Accord
from accord.cases import Case
from accord.cases.store import case_row
from accord.precedents import BundleDraft
from accord.store.tables import cases
from accord.values import revised
from tests.api.conftest import Tokens
from tests.api.test_reviewer_page import _csrf, _sign_in
from tests.precedents.conftest import draft_data

STRUCTURED = [
    {
        "agent": "agent:billing",
        "output": {"decision": "approve", "amount": 18000, "currency": "EUR"},
        "confidence": 0.7,
        "reasoning": "loyal",
        "evidence": [{"kind": "ledger", "reference": "crm:5521", "content": {"orders": 41}}],
    },
    {
        "agent": "agent:audit",
        "output": {"decision": "reject", "amount": 18000, "currency": "EUR"},
        "confidence": 0.65,
        "reasoning": "chargebacks",
    },
]


def _structured(accord: Accord) -> Case:
    case = accord.settle("Refund 18,000 to customer 5521", STRUCTURED, task_type="refunds")
    assert case.approval_item_id is not None, case.summary()
    return case


def test_agreed_fields_are_folded_and_the_differing_one_is_highlighted(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case = _structured(accord)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{case.approval_item_id}").text
    table, folded = page.split('<details class="agreed">', 1)
    assert '<tr class="disagree">' in table
    assert "decision <span" in table
    assert "amount" not in table.split('id="diff"', 1)[1].split("</table>", 1)[0]
    assert "2 agreed fields" in folded
    assert "amount" in folded
    assert "currency" in folded


def test_each_evidence_shows_its_hash_checked_against_its_content(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case = _structured(accord)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{case.approval_item_id}").text
    [evidence] = case.positions[0].evidence
    assert evidence.content_hash in page
    assert 'data-hash="verified"' in page
    assert "crm:5521" in page


def test_the_case_page_shows_the_analysis_the_timeline_and_matching_precedents(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    assert escalated.classification is not None
    dispute_type = escalated.classification.dispute_type.value
    bundle = accord.precedents.add(
        BundleDraft.model_validate(draft_data(dispute_type=dispute_type))
    )
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    assert "<dt>Why people decide</dt>" in page
    assert "<dt>Classification</dt>" in page
    assert "<strong>dispute_opened</strong>" in page
    assert "<strong>approval_requested</strong>" in page
    assert bundle.jurisprudence_id in page
    assert "Split the GPU by the hour." in page


def test_a_case_without_a_matching_precedent_says_so(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    assert "No precedent applies to" in client.get(f"/cases/{escalated.approval_item_id}").text


def test_the_review_agents_two_verdicts_are_shown_as_two_sections() -> None:
    text = (
        "Why people decide: ambiguous\n"
        "Detection: logical_conflict, high\n"
        "Review agent agent:reviewer: A is right\n"
        "(positions swapped) B is right\n"
        "Arguments:\n"
        "agent:billing: loyal customer\n"
        "agent:audit: chargebacks"
    )
    sections = {s.title: s.lines for s in analysis_sections(text)}
    assert sections["Review agent agent:reviewer: verdict, positions in order"] == ("A is right",)
    assert sections["Review agent agent:reviewer: verdict, positions swapped"] == ("B is right",)
    assert sections["Arguments"] == ("agent:billing: loyal customer", "agent:audit: chargebacks")
    assert analysis_sections("plain words")[0].title == "Analysis"


def test_a_preset_reason_joins_the_written_one_and_deny_closes_the_item(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{item_id}").text
    assert '<option value="Within policy limits">' in page
    assert 'data-accel="a"' in page
    answer = client.post(
        f"/cases/{item_id}/decision",
        data={
            "verdict": "deny",
            "preset": "Not enough evidence either way",
            "reasoning": "ask for receipts",
            "_csrf_token": _csrf(page),
        },
    )
    assert answer.status_code == 200, answer.text
    decision = accord.approvals.get(item_id).decision
    assert decision is not None
    assert (decision.outcome, decision.choice) == ("denied", None)
    assert decision.reason == "Not enough evidence either way: ask for receipts"
    assert accord.cases.get(escalated.case_id).status.value == "denied"


def test_a_preset_alone_is_reasoning_enough_and_a_bad_verdict_is_refused(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    csrf = _csrf(client.get(f"/cases/{item_id}").text)
    bad = client.post(
        f"/cases/{item_id}/decision",
        data={"verdict": "9", "preset": "Within policy limits", "_csrf_token": csrf},
    )
    assert bad.status_code == 422
    assert "option number from 1 to 2" in bad.text
    good = client.post(
        f"/cases/{item_id}/decision",
        data={"verdict": "1", "preset": "Within policy limits", "_csrf_token": csrf},
    )
    assert good.status_code == 200
    decision = accord.approvals.get(item_id).decision
    assert decision is not None
    assert (decision.choice, decision.reason) == ("approve", "Within policy limits")


def test_the_case_page_timeline_shows_the_deadline_the_case_waits_on(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    assert "<strong>escalation_deadline</strong>" in page


def test_a_reviewer_writes_an_outcome_on_the_case_page_and_the_case_settles_on_it(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{item_id}").text
    assert 'id="choice-outcome" value="outcome"' in page
    assert '<textarea id="outcome" name="outcome"' in page
    answer = client.post(
        f"/cases/{item_id}/decision",
        data={
            "verdict": "outcome",
            "outcome": "neither:\r\nrefund 9,000",
            "preset": "Within policy limits",
            "_csrf_token": _csrf(page),
        },
    )
    assert answer.status_code == 200, answer.text
    assert "neither:\nrefund 9,000" in answer.text
    assert "(your written outcome)" in answer.text
    decision = accord.approvals.get(item_id).decision
    assert decision is not None
    assert (decision.choice, decision.written_outcome) == (None, "neither:\nrefund 9,000")
    case = accord.cases.get(escalated.case_id)
    assert case.status.value == "settled"
    assert case.decision is not None
    assert case.decision.answer == "neither:\nrefund 9,000"
    assert 'id="written-outcome"' in client.get(f"/cases/{item_id}").text
    assert "written: neither:\nrefund 9,000" in client.get("/history").text
    accord.verify()


def test_a_written_outcome_is_shown_escaped(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{item_id}").text
    form = {"verdict": "outcome", "outcome": "<b>half</b>", "reasoning": "r"}
    answer = client.post(f"/cases/{item_id}/decision", data={**form, "_csrf_token": _csrf(page)})
    assert answer.status_code == 200, answer.text
    assert "&lt;b&gt;half&lt;/b&gt;" in answer.text
    assert "<b>half</b>" not in client.get(f"/cases/{item_id}").text


def test_a_written_outcome_without_its_csrf_token_is_refused_and_decides_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    answer = client.post(
        f"/cases/{item_id}/decision",
        data={"verdict": "outcome", "outcome": "refund half", "reasoning": "policy"},
    )
    assert answer.status_code == 403
    assert accord.approvals.get(item_id).is_pending


def test_an_outcome_beside_a_position_or_a_blank_one_is_refused_on_the_page(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    item_id = str(escalated.approval_item_id)
    _sign_in(client, tokens.reviewer)
    csrf = _csrf(client.get(f"/cases/{item_id}").text)
    path = f"/cases/{item_id}/decision"
    both = client.post(
        path,
        data={"verdict": "1", "outcome": "refund half", "reasoning": "r", "_csrf_token": csrf},
    )
    assert both.status_code == 422
    assert "not both" in both.text
    blank = client.post(
        path, data={"verdict": "outcome", "outcome": " ", "reasoning": "r", "_csrf_token": csrf}
    )
    assert blank.status_code == 422
    assert "outcome must be 1 to 5,000 characters" in blank.text
    assert accord.approvals.get(item_id).is_pending


def test_the_reasoning_shown_is_the_items_signed_copy_not_the_cases_unsigned_one(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case = _structured(accord)
    forged = revised(
        case, positions=(revised(case.positions[0], reasoning="forged"), *case.positions[1:])
    )
    with accord.db.write() as conn:  # the case's reasoning is unsigned: rewrite it in place
        conn.execute(update(cases).where(cases.c.case_id == case.case_id).values(case_row(forged)))
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{case.approval_item_id}").text
    assert "<strong>Reasoning:</strong> loyal" in page
    assert "forged" not in page

"""The DCP-07 records sub-room's public names: pinned, sorted, and all present."""

from __future__ import annotations

import accord.dcp07 as dcp


def test_the_exported_names_are_pinned() -> None:
    assert set(dcp.__all__) >= {
        "DisputeRecord",
        "ResolutionRecord",
        "ObjectionRecord",
        "chain_link",
        "chain_link_at",
        "signed",
        "cosigned",
        "verify_signed",
        "verify_resolution",
        "verify_chain_link",
        "read_record",
        "schema_files",
        "export_dispute",
        "import_dispute",
        "check_filing",
        "verified_evidence",
    }
    assert dcp.__all__ == sorted(dcp.__all__, key=lambda name: (not name.isupper(), name))


def test_every_exported_name_exists() -> None:
    assert all(hasattr(dcp, name) for name in dcp.__all__)


def test_r15_r19_r27_the_record_vocabularies_are_the_texts() -> None:
    assert [t.value for t in dcp.ObjectionType] == [
        "substantive",
        "procedural",
        "precedent",
        "rights",
    ]
    assert [t.value for t in dcp.ResolutionType] == [
        "binding_resolution",
        "recommended_resolution",
        "split_decision",
    ]
    assert [v.value for v in dcp.Vote] == ["approve", "dissent"]
    assert dcp.DCP_VERSION == "2.0"

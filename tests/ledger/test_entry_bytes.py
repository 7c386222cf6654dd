"""The assembled canonical bytes of an entry are exactly dcp-jcs-v1 of its fields."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import Ed25519Signer, canonical_bytes
from accord.ledger.entry import ChainHead, record_slice, seal, signature_object, splice_signature

SIGNER = Ed25519Signer.from_seed(b"\x01" * 32)

json_scalars = st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
# Keys that collide with the entry's own field names, to try to confuse the splicing.
tricky_keys = st.sampled_from(
    ["signer_kid", "record_hash", "record", "seq", "signature", ',"signer_kid":"']
)
records = st.dictionaries(tricky_keys | st.text(max_size=12), json_values, max_size=6)


@given(records, st.integers(1, 10**12), st.sampled_from(["dispute_opened", "case.settled"]))
def test_sealed_bodies_and_entries_equal_the_canonical_form_of_their_fields(
    record: dict[str, Any], seq: int, event_type: str
) -> None:
    prev = ChainHead(seq - 1, "sha256:" + "a" * 64, "sha3-256:" + "b" * 64)
    sealed = seal(
        seq, event_type, canonical_bytes(record), prev, SIGNER, "2026-11-29T12:00:00.000000Z"
    )
    body = json.loads(sealed.body)
    assert body["record"] == record
    assert sealed.body == canonical_bytes(body)
    full = dict(body, signature=signature_object(SIGNER.kid, sealed.signature))
    assert splice_signature(sealed.body, SIGNER.kid, sealed.signature) == canonical_bytes(full)
    assert record_slice(sealed.body) == canonical_bytes(record)

"""How `accord verify` words a failure: which entry, checkpoint or case, which check, why."""

from __future__ import annotations

from accord.errors import VerificationFailed


def describe_failure(exc: VerificationFailed) -> str:
    """One line naming what failed (never "None"): the case, the trusted checkpoint, the
    stored checkpoint (by tree size) or the first bad entry (by seq), then the check."""
    context = exc.context
    check = context.get("field")
    suffix = f" ({check})" if check else ""
    if "case_id" in context:
        return exc.message
    if context.get("check") == "trusted_checkpoint":
        return f"trusted checkpoint at size {context.get('tree_size')}{suffix}: {exc.message}"
    if context.get("tree_size") is not None and exc.code != "ledger.truncated":
        return f"checkpoint at size {context['tree_size']}{suffix}: {exc.message}"
    if context.get("seq") is not None:
        return f"first bad entry: {context['seq']}{suffix}: {exc.message}"
    return f"[{exc.code}]{suffix} {exc.message}"

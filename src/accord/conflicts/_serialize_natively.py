"""Keep pydantic's serialization in Rust for fields checked by a ``PlainValidator``.

A ``PlainValidator`` over a schema without its own serializer wraps serialization in a
Python call per value (``lambda v, h: h(v)``), which was most of the cost of writing a
case's JSON. Placed before the validator, :data:`SERIALIZE_NATIVELY` gives the inner schema
a native serializer that infers the value's JSON type, so the wrap is never built.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema


class _SerializeNatively:
    def __get_pydantic_core_schema__(
        self, source_type: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        schema = dict(handler(source_type))
        schema["serialization"] = core_schema.simple_ser_schema("any")
        return cast(CoreSchema, schema)


SERIALIZE_NATIVELY = _SerializeNatively()
"""Annotated marker: ``Annotated[str, SERIALIZE_NATIVELY, PlainValidator(check)]``."""

"""The OpenAPI schema of a length-constrained ``tuple[X, ...]`` or ``dict``.

Litestar 2.25 renders a collection field with a length constraint (``Field(min_length=1)``)
through its constrained-collection path, which keeps the ``...`` of ``tuple[X, ...]`` as an
empty ``{}`` alternative (``items: {oneOf: [X, {}]}``: any X matches both, so valid data
fails ``oneOf``) and renders a ``dict`` as an array. This plugin documents them as they are
on the wire: an array of X with its item bounds, an object with its property bounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from litestar.openapi.spec import OpenAPIType, Schema
from litestar.params import BodyKwarg, ParameterKwarg
from litestar.plugins import OpenAPISchemaPlugin

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.typing import FieldDefinition


class ConstrainedCollections(OpenAPISchemaPlugin):
    """Length-constrained variadic tuples and mappings, documented as sent."""

    @staticmethod
    def is_plugin_supported_type(value: Any) -> bool:
        return False

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        kwargs = field_definition.kwarg_definition
        if not isinstance(kwargs, ParameterKwarg | BodyKwarg) or not kwargs.is_constrained:
            return False
        return field_definition.is_mapping or _variadic_tuple(field_definition)

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        kwargs = field_definition.kwarg_definition
        assert isinstance(kwargs, ParameterKwarg | BodyKwarg)  # is_plugin_supported_field
        low = kwargs.min_items if kwargs.min_items is not None else kwargs.min_length
        high = kwargs.max_items if kwargs.max_items is not None else kwargs.max_length
        inner = field_definition.inner_types
        if field_definition.is_mapping:
            values = schema_creator.for_field_definition(inner[1]) if len(inner) == 2 else None
            return Schema(
                type=OpenAPIType.OBJECT,
                additional_properties=values,
                min_properties=low,
                max_properties=high,
            )
        return Schema(
            type=OpenAPIType.ARRAY,
            items=schema_creator.for_field_definition(inner[0]),
            min_items=low,
            max_items=high,
        )


def _variadic_tuple(field_definition: FieldDefinition) -> bool:
    inner = field_definition.inner_types
    return field_definition.origin is tuple and len(inner) == 2 and inner[1].annotation is Ellipsis

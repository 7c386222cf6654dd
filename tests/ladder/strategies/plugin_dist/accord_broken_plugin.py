"""A plugin that fails while it is imported."""

raise RuntimeError("the broken plugin cannot load")

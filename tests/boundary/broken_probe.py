"""A probe module that fails while it is imported (a bug in the application's code)."""

raise RuntimeError("the ERP client could not start")

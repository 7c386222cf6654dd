"""The service's route handlers, one file per area."""

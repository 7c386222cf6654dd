"""The HTTP service: the ``/api/v1`` JSON API, API keys and the role check, metrics, the sweeper."""

from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.app_factory import create_app

__all__ = ["ApiKey", "ApiKeyStore", "Role", "create_app"]

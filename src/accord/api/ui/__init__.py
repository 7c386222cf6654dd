"""The reviewer's page: server-rendered templates with a little htmx (no build step)."""

"""The clang pass plugins of the device compile (``plugins.py`` builds them)."""

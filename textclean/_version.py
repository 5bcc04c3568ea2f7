"""The one place the version is written: the build (pyproject.toml, packaging/oracle) reads it from here."""

__version__ = "0.1.0"

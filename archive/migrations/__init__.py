"""Alembic migrations of the archive schema (run by ``Archive`` on open)."""

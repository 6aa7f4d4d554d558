"""Alembic environment: the archive always passes its own connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from archive.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # plain `alembic -x url=...` use
        url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
        engine = create_engine(url)
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata,
                              render_as_batch=conn.dialect.name == "sqlite")
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():  # pragma: no cover
    raise SystemExit("the archive's migrations run online only")
run_migrations_online()

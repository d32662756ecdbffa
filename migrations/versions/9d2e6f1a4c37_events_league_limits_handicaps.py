"""events of one's own (issue 14 §1): edition.league (the demo's league apart),
event limits and handicaps (BG-G2b), invitation list (BG-M5)

Revision ID: 9d2e6f1a4c37
Revises: 5c4e2a7d1b90
Create Date: 2026-12-01 15:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = "9d2e6f1a4c37"
down_revision = "5c4e2a7d1b90"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("edition", schema=None) as batch_op:
        batch_op.add_column(sa.Column("league", sa.String(length=60), server_default="",
                                      nullable=False))
        batch_op.create_index(batch_op.f("ix_edition_league"), ["league"], unique=False)
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("max_players", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("handicaps", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("invited", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("invited")
        batch_op.drop_column("handicaps")
        batch_op.drop_column("max_players")
    with op.batch_alter_table("edition", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_edition_league"))
        batch_op.drop_column("league")

"""OpenQuiz room and clocks (issue 15): players with their own tokens and the captain
(OQ-1); the game's speed (OQ-7), pauses, first and latest activity, bans (OQ-8)

Revision ID: b5c2d8e7f1a4
Revises: b8e3d5a7c2f1
Create Date: 2026-12-01 18:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = "b5c2d8e7f1a4"
down_revision = "b8e3d5a7c2f1"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "oq_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("captain", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("team_id", "name_key"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("oq_player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_oq_player_team_id"), ["team_id"], unique=False)
    with op.batch_alter_table("oq_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("speed", sa.String(length=8), nullable=False,
                                      server_default="normal"))
        batch_op.add_column(sa.Column("pauses", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("started_ms", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("active_ms", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("banned", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("oq_game", schema=None) as batch_op:
        for column in ("banned", "active_ms", "started_ms", "pauses", "speed"):
            batch_op.drop_column(column)
    with op.batch_alter_table("oq_player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_oq_player_team_id"))
    op.drop_table("oq_player")

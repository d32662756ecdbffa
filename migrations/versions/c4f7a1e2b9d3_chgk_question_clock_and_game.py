"""chgk: the question clock (question_gate seconds/grace/locks_at, event defaults) and
the ЧГК game records (chgk_action, chgk_team)

Revision ID: c4f7a1e2b9d3
Revises: 7d2e4f6a8c10
Create Date: 2026-12-01 15:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = "c4f7a1e2b9d3"
down_revision = "7d2e4f6a8c10"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("question_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("question_grace", sa.Integer(), nullable=True))
    with op.batch_alter_table("question_gate", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("grace", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("locks_at", sa.DateTime(), nullable=True))
    op.create_table(
        "chgk_action",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("question", sa.Integer(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=True),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chgk_action", schema=None) as batch_op:
        batch_op.create_index("ix_chgk_action_event_id", ["event_id"], unique=False)
    op.create_table(
        "chgk_team",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("league", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("team_id"),
    )


def downgrade():
    op.drop_table("chgk_team")
    with op.batch_alter_table("chgk_action", schema=None) as batch_op:
        batch_op.drop_index("ix_chgk_action_event_id")
    op.drop_table("chgk_action")
    with op.batch_alter_table("question_gate", schema=None) as batch_op:
        batch_op.drop_column("locks_at")
        batch_op.drop_column("grace")
        batch_op.drop_column("seconds")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("question_grace")
        batch_op.drop_column("question_seconds")

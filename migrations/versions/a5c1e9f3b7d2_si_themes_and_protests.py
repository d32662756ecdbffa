"""si: theme authors (SI-0) and protests (SI-3)

Revision ID: a5c1e9f3b7d2
Revises: e4a1c7b2d9f0
Create Date: 2026-12-01 19:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "a5c1e9f3b7d2"
down_revision = "e4a1c7b2d9f0"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "si_theme",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("theme", sa.Integer(), nullable=False),
        sa.Column("author_team_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["author_team_id"], ["team.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "theme"),
    )
    op.create_table(
        "si_protest",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("filed_at", sa.DateTime(), nullable=False),
        sa.Column("heard_at", sa.DateTime(), nullable=True),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("warned", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_si_protest_question_id", "si_protest", ["question_id"])


def downgrade():
    op.drop_index("ix_si_protest_question_id", table_name="si_protest")
    op.drop_table("si_protest")
    op.drop_table("si_theme")

"""OpenQuiz question types (OQ-3): who answers alone and for what stake, each team's
choice, the auction's stakes and passes

Revision ID: b8e3d5a7c2f1
Revises: a5c1e9f3b7d2
Create Date: 2026-12-01 18:45:00

"""
import sqlalchemy as sa
from alembic import op

revision = "b8e3d5a7c2f1"
down_revision = "a5c1e9f3b7d2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("oq_play", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answering_team_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("stake", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_oq_play_answering_team_id_team", "team",
                                    ["answering_team_id"], ["id"], ondelete="SET NULL")
    op.create_table(
        "oq_choice",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("option", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id", "team_id"),
    )
    op.create_table(
        "oq_stake",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_oq_stake_question_id", "oq_stake", ["question_id"])


def downgrade():
    op.drop_index("ix_oq_stake_question_id", table_name="oq_stake")
    op.drop_table("oq_stake")
    op.drop_table("oq_choice")
    with op.batch_alter_table("oq_play", schema=None) as batch_op:
        batch_op.drop_constraint("fk_oq_play_answering_team_id_team", type_="foreignkey")
        batch_op.drop_column("stake")
        batch_op.drop_column("answering_team_id")

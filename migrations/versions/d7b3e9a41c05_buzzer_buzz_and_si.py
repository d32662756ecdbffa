"""buzzer: clock-sync samples and buzzer presses (OQ-4); Своя игра players, questions
and answers (SI-1.3, SI-2.2, SI-2.4); OpenQuiz game, plays, scores and bets (OQ-2 … OQ-6)

Revision ID: d7b3e9a41c05
Revises: c4f7a1e2b9d3
Create Date: 2026-12-01 15:50:00

"""
import sqlalchemy as sa
from alembic import op

revision = "d7b3e9a41c05"
down_revision = "c4f7a1e2b9d3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "buzz_sample",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("client_send_ms", sa.BigInteger(), nullable=False),
        sa.Column("server_ms", sa.BigInteger(), nullable=False),
        sa.Column("client_receive_ms", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_buzz_sample_team_id_id", "buzz_sample", ["team_id", "id"])
    op.create_table(
        "buzz_press",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("claimed_ms", sa.BigInteger(), nullable=False),
        sa.Column("received_ms", sa.BigInteger(), nullable=False),
        sa.Column("offset_ms", sa.Double(), nullable=True),
        sa.Column("rtt_ms", sa.Integer(), nullable=True),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id", "attempt", "team_id"),
    )
    op.create_index("ix_buzz_press_question_id", "buzz_press", ["question_id"])
    op.create_table(
        "si_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("in_competition", sa.Boolean(), nullable=False),
        sa.Column("warnings", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("team_id"),
    )
    op.create_table(
        "si_question",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("published_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id"),
    )
    op.create_table(
        "si_answer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("proposed", sa.String(length=8), nullable=True),
        sa.Column("proposed_reason", sa.String(length=300), nullable=False),
        sa.Column("decision", sa.String(length=8), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id", "team_id"),
    )
    op.create_index("ix_si_answer_question_id", "si_answer", ["question_id"])
    op.create_table(
        "oq_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("turn_team_id", sa.Integer(), nullable=True),
        sa.Column("picked_question_id", sa.Integer(), nullable=True),
        sa.Column("bans", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["turn_team_id"], ["team.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["picked_question_id"], ["question.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id"),
    )
    op.create_table(
        "oq_play",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("armed_ms", sa.BigInteger(), nullable=False),
        sa.Column("reading_until_ms", sa.BigInteger(), nullable=True),
        sa.Column("out", sa.JSON(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("question_id"),
    )
    op.create_table(
        "oq_score",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["question_id"], ["question.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_oq_score_event_id", "oq_score", ["event_id"])
    op.create_table(
        "oq_bet",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("accepted", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "team_id"),
    )


def downgrade():
    op.drop_table("oq_bet")
    op.drop_table("oq_score")
    op.drop_table("oq_play")
    op.drop_table("oq_game")
    op.drop_table("si_answer")
    op.drop_table("si_question")
    op.drop_table("si_player")
    op.drop_table("buzz_press")
    op.drop_table("buzz_sample")

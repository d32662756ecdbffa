"""The buzzer's bound on a claimed press time (issue 31, OQ-4): each sync exchange keeps
the round trip as the server timed it (``buzz_sample.seen_rtt_ms``), each press the
allowance its phone had (``buzz_press.allowance_ms``), so its order never changes
after the fact; an OpenQuiz player keeps the (keyed hash of the) address they joined
from (``oq_player.address``), so a ban keeps that address out; a game keeps the team names its host lets in
(``oq_game.reserved``)

Revision ID: a31b7c5d2e90
Revises: e9b2c4d6f8a1
Create Date: 2026-12-06 23:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "a31b7c5d2e90"
down_revision = "e9b2c4d6f8a1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("buzz_sample", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seen_rtt_ms", sa.Integer(), nullable=True))
    with op.batch_alter_table("buzz_press", schema=None) as batch_op:
        batch_op.add_column(sa.Column("allowance_ms", sa.Integer(), nullable=True))
    with op.batch_alter_table("oq_player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("address", sa.String(length=64), nullable=True))
    with op.batch_alter_table("oq_game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reserved", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("oq_game", schema=None) as batch_op:
        batch_op.drop_column("reserved")
    with op.batch_alter_table("oq_player", schema=None) as batch_op:
        batch_op.drop_column("address")
    with op.batch_alter_table("buzz_press", schema=None) as batch_op:
        batch_op.drop_column("allowance_ms")
    with op.batch_alter_table("buzz_sample", schema=None) as batch_op:
        batch_op.drop_column("seen_rtt_ms")

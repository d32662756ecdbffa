"""The buzzer's clock estimate per phone (issue 15, OQ-4): each sync exchange is kept
under the phone that made it (``buzz_sample.phone``), no longer blended per team

Revision ID: f2a6c8d1e3b5
Revises: b5c2d8e7f1a4
Create Date: 2026-12-01 23:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = "f2a6c8d1e3b5"
down_revision = "b5c2d8e7f1a4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("buzz_sample", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phone", sa.String(length=40), nullable=True))
    # A team token's phone keeps its samples. OpenQuiz's were several players' phones
    # blended under their team: they cannot be told apart, so they go; each phone's
    # next exchanges (every few seconds) make its own estimate.
    op.execute("DELETE FROM buzz_sample WHERE team_id IN (SELECT team.id FROM team "
               "JOIN event ON event.id = team.event_id WHERE event.format = 'oq')")
    op.execute("UPDATE buzz_sample SET phone = 'team:' || CAST(team_id AS VARCHAR(20))")
    with op.batch_alter_table("buzz_sample", schema=None) as batch_op:
        batch_op.alter_column("phone", existing_type=sa.String(length=40), nullable=False)
        batch_op.drop_index("ix_buzz_sample_team_id_id")
        batch_op.create_index("ix_buzz_sample_phone_id", ["phone", "id"], unique=False)


def downgrade():
    with op.batch_alter_table("buzz_sample", schema=None) as batch_op:
        batch_op.drop_index("ix_buzz_sample_phone_id")
        batch_op.create_index("ix_buzz_sample_team_id_id", ["team_id", "id"], unique=False)
        batch_op.drop_column("phone")
